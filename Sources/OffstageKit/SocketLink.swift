import Foundation
import OffstageCore
import OffstageProtocol

/// The `SystemLink` of an app the daemon launched: calls go over the daemon's Unix socket and wait for their
/// answer, matched by request number, from any thread; `serve` (the reader thread) takes the answers and the
/// effects the system sends. When the connection breaks (the daemon crashed and restarts), it connects again
/// to the same path for `reconnectWindow` seconds and sends again every call still waiting for its answer:
/// the restarted daemon knows the process by its peer credentials, as before.
final class SocketLink: SystemLink, Sendable {
    private let path: String
    private let bundle: BundleID
    private let reconnectWindow: Double
    /// Serialises writes, so that frames never interleave and a call is sent once per connection.
    private let writeLock = NSLock()
    private let state: LockedValue<LinkState>

    /// One call waiting for its answer.
    private struct Waiting {
        var message: ClientMessage
        let signal = DispatchSemaphore(value: 0)
        var result: AppCallResult?
        /// The connection it was last sent on; sent again on a newer one.
        var sentOn: Int?
    }

    /// The connection (nil while reconnecting), its number, the next request number and the waiting calls.
    private struct LinkState {
        var socket: UnixSocket?
        var generation = 0
        var nextID = 1
        var waiting: [Int: Waiting] = [:]
    }

    /// Seconds an app goes on trying to reach a daemon that went away before it exits: a minute, since a restarted
    /// daemon's start on a loaded machine has taken over 10 s, and an app that gives up first loses the adoption.
    static let defaultReconnectWindow: Double = 60

    init(socket: UnixSocket, path: String, bundle: BundleID, reconnectWindow: Double = defaultReconnectWindow) {
        self.path = path
        self.bundle = bundle
        self.reconnectWindow = reconnectWindow
        state = LockedValue(LinkState(socket: socket))
    }

    func call(_ call: AppCall) -> AppCallResult {
        let (id, signal) = state.withValue { state in
            let id = state.nextID
            state.nextID += 1
            let waiting = Waiting(message: ClientMessage(id: id, body: .call(call: call, bundle: nil)))
            state.waiting[id] = waiting
            return (id, waiting.signal)
        }
        transmit(id)
        signal.wait()
        return state.withValue { $0.waiting.removeValue(forKey: id)?.result } ?? .notRunning
    }

    /// Sends the waiting call `id` on the current connection unless it was already sent there. A failed
    /// write is left to the reader, which sees the broken connection, reconnects and sends it again.
    private func transmit(_ id: Int) {
        writeLock.withLock {
            let next: (UnixSocket, ClientMessage)? = state.withValue { state in
                guard let socket = state.socket, var waiting = state.waiting[id], waiting.result == nil,
                    waiting.sentOn != state.generation
                else { return nil }
                waiting.sentOn = state.generation
                state.waiting[id] = waiting
                return (socket, waiting.message)
            }
            guard let (socket, message) = next else { return }
            try? socket.sendMessage(message)
        }
    }

    /// Sends the report and goes on: the daemon does not answer it, and one lost while reconnecting is dropped
    /// (the daemon measures CPU time itself).
    func reportWork(_ work: OffstageWork) {
        let report = WorkReport(
            cpuSeconds: work.cpuSeconds, gpuSeconds: work.gpuSeconds, bytes: work.bytes, seconds: work.seconds)
        writeLock.withLock {
            let next: (UnixSocket, Int)? = state.withValue { state in
                defer { state.nextID += 1 }
                return state.socket.map { ($0, state.nextID) }
            }
            guard let (socket, id) = next else { return }
            try? socket.sendMessage(ClientMessage(id: id, body: .work(report)))
        }
    }

    // MARK: The reader

    /// Reads until the daemon is gone for good: answers go to the waiting calls, everything else to
    /// `handle`. Returns when the connection broke and no daemon came back within the reconnect window.
    func serve(_ handle: (ServerMessage) -> Void) {
        while let socket = state.withValue({ $0.socket }) {
            let message: ServerMessage
            do { message = try socket.receiveMessage(ServerMessage.self) } catch {
                guard reconnect(dropping: socket) else { return }
                continue
            }
            switch message {
            case .result(let id, let result): answer(id, with: result)
            case .error(let id, let text):
                if let id { answer(id, with: .notRunning) }
                FileHandle.standardError.write(Data("\(bundle): daemon: \(text)\n".utf8))
            default: handle(message)
            }
        }
    }

    /// Connects again after `broken` failed, retrying for the reconnect window; then sends every call still
    /// waiting, oldest first. False if no daemon answered in time.
    private func reconnect(dropping broken: UnixSocket) -> Bool {
        state.withValue { $0.socket = nil }
        broken.disconnect()
        let deadline = Date(timeIntervalSinceNow: reconnectWindow)
        var pause = 0.01
        while true {
            if let socket = try? UnixSocket.connecting(to: path) {
                let ids = state.withValue { state in
                    state.socket = socket
                    state.generation += 1
                    return state.waiting.filter { $0.value.result == nil }.keys.sorted()
                }
                for id in ids { transmit(id) }
                return true
            }
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: pause)
            pause = min(pause * 2, 0.2)
        }
    }

    /// Hands an answer to the thread waiting for it.
    func answer(_ id: Int, with result: AppCallResult) {
        state.withValue { state in
            guard var waiting = state.waiting[id], waiting.result == nil else { return }
            waiting.result = result
            state.waiting[id] = waiting
            waiting.signal.signal()
        }
    }

    func crash(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\(bundle): \(message)\n".utf8))
        _exit(1)
    }

    func sleep(seconds: Double) { Thread.sleep(forTimeInterval: max(0, seconds)) }

    func after(seconds: Double, _ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, seconds), execute: work)
    }

    var now: Date { Date() }
}
