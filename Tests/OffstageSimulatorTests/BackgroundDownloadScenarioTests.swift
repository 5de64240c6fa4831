import Foundation
import OffstageCore
import OffstageSimulator
import Testing

/// Issue 16, item 8, as a new user meets it: `Examples/scenarios/background-download.yaml`, declarative apps
/// downloading with background sessions (`backgroundDownload:`).
@Suite struct BackgroundDownloadScenarioTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/scenarios/background-download.yaml").path

    @Test func backgroundDownloadScenarioWakesAppsInTheRateLimitersOrder() throws {
        let scenario = try ScenarioLoader.load(contentsOf: Self.path)
        let records = try Simulation(scenario: scenario).run()
        func times(_ kind: RecordKind, _ app: String) -> [Double] {
            records.filter { $0.kind == kind && $0.app?.rawValue == app }.map(\.at.seconds)
        }
        // News: wakes at 21:04 (at once), 21:05 (held 60 s after the first), 21:07 (held 120 s after the second).
        #expect(times(.resumed, "com.example.news") == [240.2, 300.2, 420.2])
        // Podcasts: the ordinary download ends on screen (events at once, no wake); the discretionary one at 22:30.
        #expect(times(.resumed, "com.example.podcasts") == [5430.1])
        let podcastTransfers: [Record] = records.filter {
            $0.app?.rawValue == "com.example.podcasts" && $0.kind == .transfer
        }
        let podcastWaits: [[String]] = podcastTransfers.compactMap { record in
            if case .transfer(.waiting(let conditions)) = record.detail { conditions } else { nil }
        }
        #expect(podcastWaits == [["Wi-Fi", "power"], ["Wi-Fi"]])
        #expect(!records.contains { (record: Record) in record.kind == .killed || record.kind == .crashed })
    }

    @Test func aBackgroundDownloadWithoutItsURLIsAnErrorNamingTheField() {
        let yaml = """
            name: bad
            apps:
              - manifest: { CFBundleIdentifier: com.example.a }
                behaviour:
                  onLaunch:
                    - backgroundDownload: { session: s }
            """
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: yaml, source: "bad.yaml") }
        var message = ""
        do { _ = try ScenarioLoader.parse(yaml: yaml, source: "bad.yaml") } catch { message = "\(error)" }
        #expect(message.contains("bad.yaml:6") && message.contains("url"))
    }
}
