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

    @Test func aScenarioNamingNoCompiledDelegateIsAnErrorNamingTheField() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trial-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(
            """
            name: missing
            apps:
              - manifest: { CFBundleIdentifier: com.example.missing }
                code: RealCodeTrial.NoSuchDelegate
            """.utf8
        ).write(to: file)
        let (status, output) = try trial(file.path)
        #expect(status == 2)
        #expect(output.contains("apps[0].code"))
        #expect(output.contains("no class named 'RealCodeTrial.NoSuchDelegate'"))
    }
}
