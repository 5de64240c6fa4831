import Foundation
import OffstageCore
import OffstageProtocol
import Testing

/// The socket and its protocol (§11, §12): identity from the kernel, bad input refused, the daemon serving on.
@Suite(.serialized) struct DaemonProtocolTests {
    @Test func clientCannotSubmitForAnotherBundle() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.victim", behaviours: [])
        // A process the daemon did not launch cannot make app calls at all, whatever bundle it names.
        let stranger = try daemon.python(["call-as-stranger", "test.victim"])
        #expect(stranger.first?.contains("app calls come only from processes the daemon launched") == true)
        // A launched app (here in Python) is known by its process: claiming another bundle is refused.
        try daemon.install(
            "test.python", executable: DaemonHarness.pythonClient, permitted: ["test.python.refresh"])
        try daemon.send(.open("test.python"))
        // Its log has its callbacks too, which may come between the two answers: wait for the answers themselves.
        try daemon.waitUntil("the Python app got both answers") {
            let events = daemon.events("test.python")
            return events.contains { $0.hasPrefix("result 1") } && events.contains { $0.hasPrefix("error 2") }
        }
        let events = daemon.events("test.python")
        #expect(events.contains { $0.hasPrefix("result 1") && $0.contains("state") })
        #expect(events.contains { $0.hasPrefix("error 2") && $0.contains("cannot act for other.app") })
        #expect(try daemon.tasks().isEmpty)
        try daemon.waitUntil("the Python app receives its life-cycle callbacks") {
            daemon.events("test.python").contains("callback applicationDidBecomeActive(_:)")
        }
    }

    @Test func garbageOversizedAndTruncatedMessagesLeaveTheDaemonServing() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        let bystander = try ControlClient(path: daemon.socketPath)
        let garbage = try daemon.python(["garbage"])
        #expect(garbage.first?.contains("malformed message") == true)
        let oversized = try daemon.python(["oversized"])
        #expect(oversized.first?.contains("exceeds the limit") == true)
        let truncated = try daemon.python(["truncated"])
        #expect(truncated.first?.contains("ends before its declared length") == true)
        let newer = try daemon.python(["version2"])
        #expect(newer.first?.contains("protocol version 2") == true)
        #expect(daemon.daemonIsRunning)
        // A client connected before the bad ones is still served, and so is a new one.
        guard case .status(let status) = try bystander.send(.status) else {
            Issue.record("no status reply")
            return
        }
        #expect(status.protocolVersion == Frame.version)
        #expect(try daemon.python(["status"]).first?.contains("\"status\"") == true)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to run a client as another user"))
    func onlyTheOwnerMayChangeAppsOrSettings() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.owned", behaviours: [])
        let refused = try daemon.python(["open", "test.owned", "--uid", "65534"])
        #expect(refused.first?.contains("permission denied") == true)
        #expect(try daemon.app("test.owned")?.state == .notRunning)
        #expect(try daemon.python(["status", "--uid", "65534"]).first?.contains("\"status\"") == true)
    }

    @Test func statusReportsTheFreezerInUse() throws {
        let daemon = try DaemonHarness(freezer: "sigstop")
        guard case .status(let status) = try daemon.control(.status) else {
            Issue.record("no status reply")
            return
        }
        #expect(status.freezer == "SIGSTOP")
    }
}
