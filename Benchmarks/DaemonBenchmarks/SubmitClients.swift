import Foundation
import OffstageCore
import OffstageProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The app's side of `--submits`: `clients` connections of one app process, each submitting the same refresh
/// request for 15 minutes from now (each submit replaces the last, so none is refused for too many pending, and
/// changes its earliest begin date, so each is written and synced) `rounds` times, the next only
/// after the answer to the last, all at once from one thread polling every connection (the app's first
/// connection, which hears its callbacks, is served by a thread of its own). Every answer is durable
/// (the daemon sends it after the fsync that covers it), so the latencies are those of durable answers.
final class SubmitClients {
    /// The identifier the app registers and submits (permitted by the bundle).
    static let identifier = "bench.refresh"

    /// One connection: its socket, the bytes of its unfinished answer, when its call left, and what is left to do.
    private struct Client {
        var socket: UnixSocket
        var frames = FrameBuffer()
        var sentAt: UInt64 = 0
        var left: Int
    }

    private var clients: [Client] = []
    private var nextID = 1_000_000
    private(set) var latencies: [Double] = []
    private(set) var failures = 0

    /// Opens `clients` connections to `socketPath` (the app has registered `identifier` on its first).
    init(socketPath: String, clients count: Int, rounds: Int) throws {
        for _ in 0..<count {
            clients.append(Client(socket: try UnixSocket.connecting(to: socketPath), left: rounds))
        }
        latencies.reserveCapacity(count * rounds)
    }

    /// Sends every client's first submit and serves them all until each has had its answers; returns the seconds
    /// from the first submit to the last answer.
    func run() throws -> Double {
        let started = nanos()
        for index in clients.indices { try submit(index) }
        var fds = clients.map { pollfd(fd: $0.socket.fd, events: Int16(POLLIN), revents: 0) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var busy = clients.count
        while busy > 0 {
            guard poll(&fds, nfds_t(fds.count), 10_000) > 0 else { throw BenchFailure("no answer in 10 s") }
            for slot in fds.indices where fds[slot].revents != 0 {
                let n = chunk.withUnsafeMutableBytes { recv(fds[slot].fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { throw BenchFailure("the daemon closed a connection") }
                chunk.withUnsafeBytes { clients[slot].frames.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
                busy -= try readAnswers(slot)
            }
        }
        return Double(nanos() - started) / 1e9
    }

    /// Takes the client's whole answers, times each and sends the next submit. Returns 1 when the client has had
    /// its last answer.
    private func readAnswers(_ index: Int) throws -> Int {
        while true {
            switch clients[index].frames.next(ServerMessage.self) {
            case .needMore: return 0
            case .failure(let failure, _): throw BenchFailure("a bad frame from the daemon: \(failure)")
            case .message(.result(_, let result)):
                latencies.append(Double(nanos() - clients[index].sentAt))
                if result != .ok { failures += 1 }
                clients[index].left -= 1
                if clients[index].left == 0 { return 1 }
                try submit(index)
            case .message(let other): throw BenchFailure("unexpected from the daemon: \(other)")
            }
        }
    }

    /// Sends the client's next submit: the refresh for 15 minutes from now (a date no earlier submit had).
    private func submit(_ index: Int) throws {
        clients[index].sentAt = nanos()
        let request = TaskRequest(
            identifier: Self.identifier, kind: .appRefresh, earliestBeginDate: Date().timeIntervalSince1970 + 900)
        try clients[index].socket.sendMessage(
            ClientMessage(id: takeID(), body: .call(call: .submit(request), bundle: nil)))
    }

    /// A message id no other message of this app's connections had.
    private func takeID() -> Int {
        nextID += 1
        return nextID
    }
}

/// A benchmark that could not finish, and why.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
