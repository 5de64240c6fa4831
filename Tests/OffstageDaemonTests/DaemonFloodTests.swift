import Foundation
import OffstageProtocol
import Testing

/// A client flooding the daemon's socket: the daemon keeps its CPU and its log, and answers once it ends.
@Suite(.serialized) struct DaemonFloodTests {
    /// Out of file descriptors, the daemon goes back to `poll` instead of spinning on `accept`, logs the shortage
    /// a bounded number of times, and answers `ctl status` within a second once the flood ends (issue 29).
    @Test func outOfDescriptorsTheDaemonPausesAndAnswersWithinASecondAfterTheFlood() throws {
        let daemon = try DaemonHarness()
        let pid = try #require(daemon.daemonProcessID)
        try daemon.limitOpenFiles(to: daemon.daemonOpenFiles + 12)
        let flood = ConnectionFlood(path: daemon.socketPath, holding: 40)
        let cpuBefore = try #require(ProcessProbe.stat(pid)).cpuTicks
        let started = Date()
        flood.run(threads: 3, seconds: 2)
        let flooded = Date().timeIntervalSince(started)
        let cpuDuring =
            Double(try #require(ProcessProbe.stat(pid)).cpuTicks - cpuBefore) / Double(sysconf(Int32(_SC_CLK_TCK)))
        #expect(flood.attempts > 100, "the flood must have tried many connections (\(flood.attempts))")
        flood.releaseHeld()

        let asked = Date()
        let reply = try ControlClient(path: daemon.socketPath, timeout: 5).send(.status)
        let answeredIn = Date().timeIntervalSince(asked)
        guard case .status = reply else {
            Issue.record("status answered \(reply)")
            return
        }
        #expect(answeredIn < 1, "status answered \(answeredIn) s after the flood ended")
        #expect(cpuDuring < flooded * 0.3, "the daemon used \(cpuDuring) s of CPU in \(flooded) s of flood")
        let log = (try? String(contentsOfFile: daemon.folder + "/daemon.log", encoding: .utf8)) ?? ""
        let shortageLines = log.split(separator: "\n").filter { $0.contains("out of file descriptors") }.count
        #expect(shortageLines >= 1, "the shortage must be logged")
        #expect(shortageLines <= 3, "the shortage was logged \(shortageLines) times in \(flooded) s")
    }
}

/// Threads that connect to a socket again and again, keeping the first `holding` connections open (so that the
/// daemon runs out of descriptors) and closing the others at once.
final class ConnectionFlood: @unchecked Sendable {
    let path: String
    let holding: Int
    private let lock = NSLock()
    private var held: [Int32] = []
    private(set) var attempts = 0

    init(path: String, holding: Int) {
        self.path = path
        self.holding = holding
    }

    /// Floods from `threads` threads for `seconds`, and returns when they have all stopped.
    func run(threads: Int, seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                while Date() < deadline { self.connectOnce() }
                group.leave()
            }
        }
        group.wait()
    }

    /// Closes the connections held open.
    func releaseHeld() {
        lock.withLock {
            for fd in held { close(fd) }
            held = []
        }
    }

    private func connectOnce() {
        guard let socket = try? UnixSocket.connecting(to: path) else {
            lock.withLock { attempts += 1 }
            return
        }
        lock.withLock {
            attempts += 1
            if held.count < holding { held.append(socket.fd) } else { socket.disconnect() }
        }
    }
}
