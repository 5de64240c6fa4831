import Foundation
import Glibc
import OffstageCore
import OffstageProtocol
import Testing

/// Issue 29's smaller holes, each with the real daemon: what a client sends reaches the log escaped and rate
/// limited, an acknowledged Low Power Mode survives a restart, `--app-uids` keeps off existing accounts, and apps
/// get a minimal environment.
@Suite(.serialized) struct DaemonSmallHolesTests {
    /// A refused value with a line break in it is logged with the break escaped: no client starts a log line of
    /// its choosing.
    @Test func aRefusedValueReachesTheLogEscaped() throws {
        let daemon = try DaemonHarness()
        #expect(throws: (any Error).self) {
            try daemon.control(.why(bundle: BundleID("x.y\nFORGED line from a client"), limit: 1))
        }
        try daemon.waitUntil("the refusal is logged") { daemon.log.contains("refused a value out of range") }
        let lines = daemon.log.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("FORGED") }, "a client started a log line")
        #expect(daemon.log.contains("x.y\\nFORGED line from a client"))
    }

    /// A client sending refused messages as fast as it can gets an error for each, but the log says so at most
    /// once per `repeatedLogInterval` (10 s), with the count of those not logged.
    @Test func refusedMessagesAreLoggedThroughTheRateLimit() throws {
        let daemon = try DaemonHarness()
        let count = 300
        var frames: [UInt8] = []
        for id in 0..<count {
            let message = ClientMessage(
                id: id, body: .control(command: .device(overrides: DeviceOverrides(batteryLevel: 7), reset: false)))
            try Frame.append(message, to: &frames)
        }
        let socket = try UnixSocket.connecting(to: daemon.socketPath)
        defer { socket.disconnect() }
        var sent = 0
        while sent < frames.count {
            let n = frames[sent...].withUnsafeBytes { Glibc.send(socket.fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            sent += n
        }
        var errors = 0
        for _ in 0..<count {
            if case .error = try socket.receiveMessage(ServerMessage.self) { errors += 1 }
        }
        #expect(errors == count)
        let logged = daemon.log.split(separator: "\n").filter { $0.contains("refused a value out of range") }.count
        #expect(logged >= 1)
        #expect(logged <= 2, "\(count) refusals were logged \(logged) times")
    }

    /// Low Power Mode turned on by an acknowledged call stays on across a restart on a device charging above
    /// 80 %: iOS turns it off when the charge reaches 80 %, not because the daemon read the battery again.
    @Test func lowPowerModeTurnedOnIsKeptAcrossARestartOnTheChargerAbove80Percent() throws {
        let daemon = try DaemonHarness()
        try daemon.control(.device(overrides: DeviceOverrides(batteryLevel: 0.9, charging: true), reset: false))
        try daemon.send(.setLowPowerMode(true))
        #expect(try daemon.status()?.settings.lowPowerMode == true)
        daemon.stop()
        try daemon.start()
        #expect(try daemon.status()?.settings.lowPowerMode == true, "the restart turned Low Power Mode off")
        daemon.killHard()
        try daemon.start()
        #expect(try daemon.status()?.settings.lowPowerMode == true, "the restart after kill -9 turned it off")
    }

    /// `--app-uids` with a range holding an existing account's user id is refused at start, naming the account:
    /// an app would otherwise run as that user, with its files.
    @Test func appUIDsHoldingAnExistingUserAreRefusedNamingIt() throws {
        let nobody = try #require(getpwnam("nobody")).pointee.pw_uid
        let folder = NSTemporaryDirectory() + "offstage-uids-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The daemon itself, not `offstage daemon` (which would start it as a child): a kill must reach it.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonHarness.product("offstage-daemon"))
        process.arguments = [
            "--state-dir", folder + "/state", "--socket", folder + "/offstage.sock",
            "--app-uids", "\(nobody - 10)-\(nobody)",
        ]
        let output = try DaemonHarness.start(process, outputIn: folder, errors: true)
        DaemonHarness.waitForExit(process.processIdentifier, timeout: 10)
        let started = ProcessProbe.isAlive(process.processIdentifier)
        if started { kill(process.processIdentifier, SIGKILL) }
        #expect(!started, "the daemon started with a range holding nobody's user id")
        let said = try String(contentsOf: output, encoding: .utf8)
        #expect(said.contains("existing user 'nobody' (\(nobody))"), "\(said)")
    }

    /// An app's process gets PATH, HOME, LANG, its user's names, Offstage's variables and what its bundle declares
    /// (`LSEnvironment`), and nothing else of the daemon's environment.
    @Test func anAppGetsAMinimalEnvironmentAndWhatItsBundleDeclares() throws {
        let daemon = try DaemonHarness()
        let said = try daemon.openScript(
            "test.environment", ["#!/bin/sh", "env | sort", "echo done", "exec sleep 30"], until: "done",
            environment: ["DECLARED_BY_THE_BUNDLE": "kept"])
        let names = Set(said.split(separator: "\n").compactMap { $0.split(separator: "=").first.map(String.init) })
        let expected: Set = [
            "PATH", "HOME", "LANG", "USER", "LOGNAME", "OFFSTAGE_SOCKET", "OFFSTAGE_BUNDLE_ID",
            "OFFSTAGE_LAUNCH_REASON",
            "OFFSTAGE_CGROUP_PROCS", "OFFSTAGE_TEST_DIR", "DECLARED_BY_THE_BUNDLE",
        ]
        // `sh` adds its own few (PWD, SHLVL, …); `done` is the script's last line.
        let shells: Set = ["PWD", "OLDPWD", "SHLVL", "_", "done"]
        #expect(names.subtracting(shells) == expected, "the app saw \(names.subtracting(shells).sorted())")
        #expect(!said.contains(DaemonHarness.daemonOnlyVariable))
        #expect(said.contains("DECLARED_BY_THE_BUNDLE=kept"))
        let home = String(cString: try #require(getpwuid(getuid())).pointee.pw_dir)
        #expect(said.contains("\nHOME=\(home)\n"))
        #expect(said.contains("OFFSTAGE_BUNDLE_ID=test.environment"))
        try daemon.send(.swipeAway("test.environment"))
    }
}
