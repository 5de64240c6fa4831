import Foundation
import OffstageCore
import OffstageProtocol

/// The `SystemLink` of an app the daemon launched: calls go over the daemon's Unix socket and wait
/// for their answer; a reader thread takes the answers and the effects the system sends.
final class SocketLink: SystemLink, @unchecked Sendable {
    private let socket: UnixSocket
    private let writeLock = NSLock()
    /// Calls waiting for their answer: request number → (signal, answer).
    private let waiting = LockedValue<[Int: (DispatchSemaphore, AppCallResult?)]>([:])
    private let nextID = LockedValue(1)
    private let bundle: BundleID

    init(socket: UnixSocket, bundle: BundleID) {
        self.socket = socket
        self.bundle = bundle
    }

    func call(_ call: AppCall) -> AppCallResult {
        let id = takeID()
        let signal = DispatchSemaphore(value: 0)
        waiting.withValue { $0[id] = (signal, nil) }
        do {
            try writeLock.withLock {
                try socket.sendMessage(ClientMessage(id: id, body: .call(call: call, bundle: nil)))
            }
        } catch {
            crash("the system is unreachable: \(error)")
        }
        signal.wait()
        return waiting.withValue { $0.removeValue(forKey: id)?.1 } ?? .notRunning
    }

    /// Sends the report and goes on: the daemon does not answer it.
    func reportWork(_ work: OffstageWork) {
        let report = WorkReport(
            cpuSeconds: work.cpuSeconds, gpuSeconds: work.gpuSeconds, bytes: work.bytes, seconds: work.seconds)
        do {
            try writeLock.withLock { try socket.sendMessage(ClientMessage(id: takeID(), body: .work(report))) }
        } catch {
            crash("the system is unreachable: \(error)")
        }
    }

    /// The next request number.
    private func takeID() -> Int {
        nextID.withValue { value in
            defer { value += 1 }
            return value
        }
    }

    /// Hands an answer to the thread waiting for it.
    func answer(_ id: Int, with result: AppCallResult) {
        waiting.withValue { table in
            guard let entry = table[id] else { return }
            table[id] = (entry.0, result)
            entry.0.signal()
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
