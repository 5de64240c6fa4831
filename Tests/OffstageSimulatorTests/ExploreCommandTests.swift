import Foundation
import Testing

/// `offstage explore`: it finds a bundled example's bug and prints a timeline that `offstage simulate` replays
/// to the same failure; bad arguments are clear errors.
@Suite struct ExploreCommandTests {
    @Test func exploreFindsTheMissingCompletionAndItsPrintedTimelineReproducesTheWatchdogKill() async throws {
        let explored = await CLI.run(["explore", "--example", "NoCompletionOnErrorApp"])
        #expect(explored.exitCode == 1)
        #expect(explored.output.contains("broken: an expiration handler ends its task"), "\(explored.output)")
        let timeline = try #require(explored.output.range(of: "timeline:\n")).lowerBound
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("replay.yaml")
        let scenario = """
            name: replay
            apps:
              - code: NoCompletionOnErrorApp
                manifest:
                  CFBundleIdentifier: com.example.sync
                  UIBackgroundModes: [fetch]
                  BGTaskSchedulerPermittedIdentifiers: [com.example.sync.refresh]
            duration: 1d
            \(explored.output[timeline...])
            """
        try scenario.write(to: file, atomically: true, encoding: .utf8)
        let replayed = await CLI.run(["simulate", file.path])
        #expect(replayed.error == nil, "\(replayed.error ?? "")")
        #expect(replayed.output.contains("not completed within 5 s of expiration"), "\(replayed.output)")
    }

    @Test func theCorrectedExamplePassesAndExitsZero() async {
        let explored = await CLI.run(["explore", "--example", "SyncApp", "--runs", "20"])
        #expect(explored.exitCode == 0)
        #expect(explored.output.contains("explored 20 histories of com.example.sync: every invariant held"))
    }

    @Test func badArgumentsAreClearErrors() async throws {
        let unknown = await CLI.run(["explore", "--example", "Nope"])
        #expect(unknown.error?.contains("no example app 'Nope' (known: SyncApp,") == true)
        let noRuns = await CLI.run(["explore", "--example", "SyncApp", "--runs", "0"])
        #expect(noRuns.error?.contains("--runs must be at least 1") == true)
        let neither = await CLI.run(["explore"])
        #expect(neither.error?.contains("either a scenario file or --example") == true)
        let short = await CLI.run(["explore", "--example", "SyncApp", "--length", "soon"])
        #expect(short.error?.contains("--length expects a duration") == true)

        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("one.yaml")
        try """
        name: one app
        apps:
          - manifest: { CFBundleIdentifier: com.example.news }
        """.write(to: file, atomically: true, encoding: .utf8)
        let wrongApp = await CLI.run(["explore", file.path, "--app", "com.example.other"])
        #expect(wrongApp.error?.contains("no app 'com.example.other' in the scenario") == true, "\(wrongApp)")
    }
}
