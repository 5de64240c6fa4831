import Foundation
import OffstageCore
import Testing

@testable import OffstageSimulator

/// A scenario in which the user answers the system's "continue?" question, cancels a task in its progress
/// UI, and leaves a question unanswered (the default answer, continue): the timeline verbs `answer` and
/// `cancel-task` run end to end through declarative apps.
@Suite struct ContinuedProcessingScenarioTests {
    static let yaml = """
        name: Slow exports
        start: 2026-11-21T18:00:00Z
        duration: 2h
        apps:
          - manifest:
              CFBundleIdentifier: com.example.photos
              BGTaskSchedulerPermittedIdentifiers: ["com.example.photos.export.*"]
            behaviour:
              onTap:
                album:
                  - register: com.example.photos.export.album
                  - submit: { continued: com.example.photos.export.album, title: Exporting album, subtitle: 400 photos }
                video:
                  - register: com.example.photos.export.video
                  - submit: { continued: com.example.photos.export.video, title: Exporting video, subtitle: 4K }
                backup:
                  - register: com.example.photos.export.backup
                  - submit: { continued: com.example.photos.export.backup, title: Backing up, subtitle: 2 GB }
              tasks:
                com.example.photos.export.*:
                  work: 45m
        timeline:
          - { at: "00:01", do: open com.example.photos }
          - { at: "00:02", do: tap com.example.photos album }
          - { at: "00:03", do: tap com.example.photos video }
          - { at: "00:04", do: tap com.example.photos backup }
          - { at: "00:05", do: answer com.example.photos com.example.photos.export.album stop }
          - { at: "00:06", do: cancel-task com.example.photos com.example.photos.export.video }
          - { at: "00:07", do: home }
        """

    static let app = "com.example.photos"
    static func task(_ name: String) -> String { "com.example.photos.export.\(name)" }

    func run() throws -> [Record] {
        try Simulation(scenario: try ScenarioLoader.parse(yaml: Self.yaml, source: "slow.yaml")).run()
    }

    @Test func slowTasksAreAskedAboutAndTheTimelineAnswersOrCancels() throws {
        let records = try run()
        func of(_ kind: RecordKind, _ name: String) -> [Record] {
            records.filter { $0.kind == kind && $0.app?.rawValue == Self.app && $0.task == Self.task(name) }
        }
        // Each 45-minute task is asked about at its first progress report, 10 s after it starts.
        for (name, minute) in [("album", 2.0), ("video", 3.0), ("backup", 4.0)] {
            #expect(of(.askedUser, name).map(\.at.seconds) == [minute * 60 + 10])
        }
        // The timeline answers stop for the album: expired, stopped by its handler, the UI shows expired.
        #expect(of(.expired, "album").map(\.reason) == ["the user chose to stop"])
        #expect(of(.expired, "album").map(\.at.seconds) == [300])
        #expect(
            of(.progressUI, "album").map(\.reason) == [
                "shown: Exporting album — 400 photos", "outcome: expired", "dismissed",
            ])
        // No answer for the video: the default, continue; then the user cancels it in the UI.
        #expect(
            of(.log, "video").map(\.reason) == [
                "the timeline does not answer the question: the user answers continue (the default)"
            ])
        #expect(of(.user, "video").map(\.reason) == ["answer continue", "cancel in the progress UI"])
        #expect(of(.expired, "video").map(\.reason) == ["the user cancelled"])
        #expect(of(.progressUI, "video").map(\.reason).dropFirst().first == "outcome: cancelled by the user")
        // The backup, answered continue by default, runs its 45 minutes to the end.
        #expect(of(.completed, "backup").map(\.at.seconds) == [240 + 45 * 60])
        #expect(
            of(.progressUI, "backup").map(\.reason) == [
                "shown: Backing up — 2 GB", "outcome: completed successfully", "dismissed",
            ])
        #expect(!records.contains { $0.kind == .terminated || $0.kind == .crashed })
    }

    @Test func badAnswerNamesFileLineAndField() {
        let yaml = Self.yaml.replacingOccurrences(of: "export.album stop", with: "export.album maybe")
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: yaml, source: "slow.yaml") }
        do {
            _ = try ScenarioLoader.parse(yaml: yaml, source: "slow.yaml")
        } catch {
            #expect(
                error.description
                    == "slow.yaml:27: field 'timeline[4].do': 'answer' expects continue or stop, got \"maybe\"")
        }
    }
}
