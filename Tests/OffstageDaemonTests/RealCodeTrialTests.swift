import Foundation
import Testing

/// `offstage-trial`, the real-code trial's harness, started as a process as a user starts it.
@Suite struct RealCodeTrialTests {
    /// The repository's root, where `Trial/` is.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `offstage-trial` on a scenario file: its exit status and what it printed (standard output, then error).
    func trial(_ scenario: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonHarness.product("offstage-trial"))
        process.arguments = [scenario]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func theSampleCompiledWithItsImportsUnchangedRunsCleanInItsScenario() throws {
        let (status, output) = try trial(Self.root.appendingPathComponent("Trial/sample.yaml").path)
        #expect(status == 0)
        // The launch simulated at 00:20 and one refresh: opened once, the app is little known, so the refresh it
        // resubmits for 15 minutes ahead runs again only 6 h after the first (`LittleKnownConstraint`).
        #expect(output.contains("com.example.trial: 2 completed, 0 handled, 0 expired, 0 crashed, 0 killed"))
        #expect(output.contains("applicationDidEnterBackground(_:)"))
    }

    /// Runs `offstage-trial` on a scenario written to a temporary file.
    func trial(yaml: String) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trial-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(yaml.utf8).write(to: file)
        return try trial(file.path)
    }

    @Test func anAppTheWatchdogEndsWithNoTaskRunningIsNotClean() throws {
        // The save begun at 00:02 is never ended: the watchdog ends the app 30 s later. No BGTaskScheduler task
        // runs, so there is no `killed` task record: the process's end by the watchdog is what counts.
        let (status, output) = try trial(
            yaml: """
                name: overlong save
                duration: 10m
                apps:
                  - manifest: { CFBundleIdentifier: com.example.overlong }
                    code: RealCodeTrial.SampleOverlongSaveAppDelegate
                timeline:
                  - { at: "00:01", do: open com.example.overlong }
                  - { at: "00:02", do: home }
                """)
        #expect(status == 1)
        #expect(output.contains("background task assertion timeout"))
        #expect(output.contains("com.example.overlong: 0 completed, 0 handled, 0 expired, 0 crashed, 1 killed"))
    }

    @Test func aScenarioNamingNoCompiledDelegateIsAnErrorNamingTheField() throws {
        let (status, output) = try trial(
            yaml: """
                name: missing
                apps:
                  - manifest: { CFBundleIdentifier: com.example.missing }
                    code: RealCodeTrial.NoSuchDelegate
                """)
        #expect(status == 2)
        #expect(output.contains("apps[0].code"))
        #expect(output.contains("no class named 'RealCodeTrial.NoSuchDelegate'"))
    }
}
