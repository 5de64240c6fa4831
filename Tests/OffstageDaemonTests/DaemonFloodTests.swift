import Foundation
import Glibc
import OffstageCore
import OffstageProtocol
import Synchronization
import Testing

/// A client flooding the daemon's socket: the daemon keeps its CPU and its log, and answers once it ends.
@Suite(.serialized) struct DaemonFloodTests {
    /// Out of file descriptors with connections always waiting, the daemon goes back to `poll` instead of spinning
    /// on `accept`: across 2 s at its limit it uses under a quarter of the CPU time elapsed (a loop on `accept` takes
    /// a whole core, or all the scheduler gives it; answering the flood's three threads took 0.22 s of 2 s in a full
    /// `swift test` on the loaded two-core machine; a loop on `accept` used 2.07 s of 2.1 s). It logs the shortage a
    /// bounded number of times, and answers `ctl status` within a second once the flood ends (issue 29).
    @Test func atTheDescriptorLimitTheDaemonNeverSpinsAndAnswersWithinASecondAfterTheFlood() throws {
        let daemon = try DaemonHarness()
        let pid = try #require(daemon.daemonProcessID)
        let limit = daemon.daemonOpenFiles + 12
        try daemon.limitOpenFiles(to: limit)
        let flood = ConnectionFlood(path: daemon.socketPath, holding: 40)
        flood.start(threads: 3)
        defer { flood.stop() }
        try daemon.waitUntil("the daemon has all its descriptors open") { daemon.daemonOpenFiles >= limit }

        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        let cpuBefore = try #require(ProcessProbe.stat(pid)).cpuTicks
        let attemptsBefore = flood.attempts
        let started = Date()
        flood.stop(after: 2)
        let atLimit = Date().timeIntervalSince(started)
        let cpuAtLimit = Double(try #require(ProcessProbe.stat(pid)).cpuTicks - cpuBefore) / ticksPerSecond
        let openAtTheEnd = daemon.daemonOpenFiles
        #expect(
            flood.attempts - attemptsBefore >= 20,
            "the flood must go on at the limit (\(flood.attempts - attemptsBefore) connections tried)")
        #expect(openAtTheEnd >= limit - 1, "the daemon left its limit: \(openAtTheEnd) of \(limit) open")
        #expect(cpuAtLimit < atLimit * 0.25, "the daemon used \(cpuAtLimit) s of CPU in \(atLimit) s at its limit")
        flood.releaseHeld()

        let asked = Date()
        let reply = try ControlClient(path: daemon.socketPath, timeout: 5).send(.status)
        let answeredIn = Date().timeIntervalSince(asked)
        guard case .status = reply else {
            Issue.record("status answered \(reply)")
            return
        }
        #expect(answeredIn < 1, "status answered \(answeredIn) s after the flood ended")
        let log = (try? String(contentsOfFile: daemon.folder + "/daemon.log", encoding: .utf8)) ?? ""
        let shortageLines = log.split(separator: "\n").filter { $0.contains("out of file descriptors") }.count
        #expect(shortageLines >= 1, "the shortage must be logged")
        #expect(shortageLines <= 3, "the shortage was logged \(shortageLines) times")
    }
}

/// An app or a user holding many connections, or leaving its answers unread: bounded, the others served.
@Suite(.serialized) struct DaemonConnectionLimitTests {
    /// An app's own processes may hold at most `--max-connections-per-app` connections: the ones over it are
    /// answered `too many connections of APP` and closed (issue 29: one app held 15 000).
    @Test func anAppsOwnConnectionsAreCappedPerApp() throws {
        let daemon = try DaemonHarness(options: ["--max-connections-per-app", "4"])
        let said = try daemon.openScript(
            "test.hoarder",
            [
                "#!/usr/bin/python3", "import os, select, socket, sys",
                "held = []",
                "for _ in range(12):",
                "    s = socket.socket(socket.AF_UNIX); s.connect(os.environ['OFFSTAGE_SOCKET']); held.append(s)",
                "refused = set()",
                "while len(refused) < 8:",
                "    ready, _, _ = select.select([s for s in held if s not in refused], [], [], 3)",
                "    if not ready: break",
                "    refused.update(s for s in ready if b'too many connections' in s.recv(65536))",
                "print('refused', len(refused), flush=True)",
                "select.select([], [], [], 30)",
            ], until: "refused ")
        #expect(said.contains("refused 8"))
        #expect(try daemon.status() != nil, "the daemon serves others")
        try daemon.send(.swipeAway("test.hoarder"))
    }

    /// Clients of one user that ask and never read are dropped once the answers they left unread pass
    /// `--max-unread-bytes-per-user` together (each under `--max-unread-bytes`); another client is answered
    /// meanwhile (issue 29: 268–371 MB held, answers stalled 7–11 s).
    @Test func clientsThatNeverReadAreDroppedOverTheirUsersUnreadBytes() throws {
        let daemon = try DaemonHarness(options: ["--max-unread-bytes-per-user", "\(1 << 20)"])
        let replyBytes = try Self.bytesOfOneStatusReply(daemon.socketPath)
        var requests: [UInt8] = []
        // About 768 KiB of answers each: the kernel's buffer takes some, under 1 MiB is left unread per client.
        for id in 0..<((768 << 10) / replyBytes) {
            try Frame.append(ClientMessage(id: id, body: .control(command: .status)), to: &requests)
        }
        let sockets = try (0..<8).map { _ in try UnixSocket.connecting(to: daemon.socketPath) }
        for socket in sockets {
            var sent = 0
            while sent < requests.count {
                let n = requests[sent...].withUnsafeBytes {
                    Glibc.send(socket.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                guard n > 0 else { break }
                sent += n
            }
        }
        // The daemon has read every request (the kernel holds none of them) before the status is asked: it is
        // answered after them all, so every drop is decided before the clients are read (a client read while the
        // daemon still answered it kept little unread and was not dropped: 3 of 8 dropped at load 7). Its answers
        // take seconds on a loaded machine (1.8 s for a debug daemon at load 4): the timeouts only guard a hang.
        try daemon.waitUntil("the daemon has read every request", timeout: 60) {
            sockets.allSatisfy { Self.bytesTheDaemonHasNotRead($0) == 0 }
        }
        let reply = try ControlClient(path: daemon.socketPath, timeout: 60).send(.status)
        guard case .status = reply else {
            Issue.record("status answered \(reply)")
            return
        }
        var closedByTheDaemon = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        for socket in sockets {
            var pollFD = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
            while poll(&pollFD, 1, 2000) > 0 {
                let n = chunk.withUnsafeMutableBytes { recv(socket.fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 {
                    closedByTheDaemon += 1
                    break
                }
            }
            socket.disconnect()
        }
        // Each client alone is under `--max-unread-bytes` (1 MiB): only the user's total drops them, and not all.
        #expect((4...7).contains(closedByTheDaemon), "\(closedByTheDaemon) of 8 clients that never read were dropped")
        let log = (try? String(contentsOfFile: daemon.folder + "/daemon.log", encoding: .utf8)) ?? ""
        #expect(log.contains("dropping a client that does not read"))
    }

    /// The bytes sent on `socket` that the daemon has not read yet (`SIOCOUTQ`; -1 if the kernel does not say).
    static func bytesTheDaemonHasNotRead(_ socket: UnixSocket) -> Int32 {
        var queued: Int32 = 0
        return withUnsafeMutablePointer(to: &queued) { ioctl(socket.fd, UInt(TIOCOUTQ), $0) } == 0 ? queued : -1
    }

    /// The bytes of one `status` answer's frame, read raw from the socket.
    static func bytesOfOneStatusReply(_ path: String) throws -> Int {
        let socket = try UnixSocket.connecting(to: path)
        defer { socket.disconnect() }
        var request: [UInt8] = []
        try Frame.append(ClientMessage(id: 1, body: .control(command: .status)), to: &request)
        _ = request.withUnsafeBytes { Glibc.send(socket.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var pollFD = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
        var reply = [UInt8](repeating: 0, count: 1 << 16)
        guard poll(&pollFD, 1, 5000) > 0 else { throw HarnessError("no answer to status") }
        let n = reply.withUnsafeMutableBytes { recv(socket.fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw HarnessError("no answer to status") }
        return n
    }
}

/// Threads that connect to a socket again and again until stopped, keeping the first `holding` connections open
/// (so that the daemon runs out of descriptors) and closing the others at once. A `connect` that finds the
/// backlog full gives up after 0.1 s, so that a daemon that never accepts cannot hold the flood (or the test).
final class ConnectionFlood: Sendable {
    let path: String
    let holding: Int
    /// What the flood's threads share: the connections held open, how many were tried, when to stop.
    private struct Flood {
        var held: [Int32] = []
        var stopAt = Date.distantFuture
        var attemptsMade = 0
    }

    private let flood = Mutex(Flood())
    private let running = DispatchGroup()

    init(path: String, holding: Int) {
        self.path = path
        self.holding = holding
    }

    /// Connections tried so far.
    var attempts: Int { flood.withLock { $0.attemptsMade } }

    /// Starts `threads` threads flooding until `stop`.
    func start(threads: Int) {
        for _ in 0..<threads {
            running.enter()
            Thread.detachNewThread {
                while self.flood.withLock({ Date() < $0.stopAt }) { self.connectOnce() }
                self.running.leave()
            }
        }
    }

    /// Lets the flood go on for `seconds` more, then returns once every thread has stopped.
    func stop(after seconds: Double = 0) {
        flood.withLock { $0.stopAt = min($0.stopAt, Date(timeIntervalSinceNow: seconds)) }
        running.wait()
    }

    /// Closes the connections held open.
    func releaseHeld() {
        flood.withLock {
            for fd in $0.held { close(fd) }
            $0.held = []
        }
    }

    private func connectOnce() {
        let fd = DaemonLoadTests.connectRaw(path, timeout: 0.1)
        flood.withLock {
            $0.attemptsMade += 1
            guard fd >= 0 else { return }
            if $0.held.count < holding { $0.held.append(fd) } else { close(fd) }
        }
    }
}
