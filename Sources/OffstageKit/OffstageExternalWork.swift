public import Foundation
import OffstageAppContext
import Synchronization

/// Work an app's code starts that goes on outside the app's own queues and tasks — on a thread of a framework
/// (URLSession's, a `URLProtocol`'s) — and hands its result back to one of the app's queues. Not an Apple API:
/// on a device the frameworks do this themselves; here they (or a host's stand-ins) say so, so that the
/// simulator can wait for the result instead of letting virtual time run past it.
///
/// In the simulator, `begin()` on the app's code path stops virtual time until every piece begun has finished;
/// `finish(on:after:_:)`, from any thread, then queues the result on the app's queue `delay` virtual seconds
/// later (results of pieces that end together are queued in the order the pieces began). The external work must
/// not wait for the app's queues, which do not run meanwhile. In a real process it queues the result for real.
/// Unchecked because of `host`, a C pointer to the simulator's host that is only handed back to the host's own
/// functions (which lock); whether it finished is in a `Mutex`.
public final class OffstageExternalWork: @unchecked Sendable {
    /// The host of the app that began the work (retained until it finishes), and the work's number there.
    private let host: UnsafeMutablePointer<offstage_host>?
    private let number: Int64
    private let isFinished = Mutex(false)

    private init(host: UnsafeMutablePointer<offstage_host>?, number: Int64) {
        self.host = host
        self.number = number
    }

    /// Starts a piece of external work for the app whose code is running.
    public static func begin() -> OffstageExternalWork {
        guard let host = offstage_current_host() else { return OffstageExternalWork(host: nil, number: 0) }
        return OffstageExternalWork(host: host, number: host.pointee.begin_external(host.pointee.owner))
    }

    /// Ends the work: runs `work` on `queue` (of the app that began it) after `delay` seconds of the system's
    /// time. Only the first call counts.
    public func finish(on queue: DispatchQueue, after delay: Double = 0, _ work: @escaping @Sendable () -> Void) {
        let first = isFinished.withLock { finished in
            defer { finished = true }
            return !finished
        }
        guard first else { return }
        guard let host else {
            queue.asyncAfter(deadline: .now() + max(0, delay), execute: work)
            return
        }
        let captured = Self.capture { queue.async(execute: work) }
        host.pointee.finish_external(
            host.pointee.owner, number, captured.queue, Int64((max(0, delay) * 1e9).rounded()), captured.argument,
            captured.function)
    }

    /// The libdispatch queue, function and argument that `enqueue` would have queued.
    private static func capture(_ enqueue: () -> Void) -> (
        queue: UnsafeMutableRawPointer, function: @convention(c) (UnsafeMutableRawPointer?) -> Void,
        argument: UnsafeMutableRawPointer?
    ) {
        withoutActuallyEscaping(enqueue) { enqueue in
            var body = enqueue
            var queue: UnsafeMutableRawPointer?
            var function: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
            var argument: UnsafeMutableRawPointer?
            withUnsafeMutablePointer(to: &body) { pointer in
                offstage_capture_dispatch(
                    pointer, { $0!.assumingMemoryBound(to: (() -> Void).self).pointee() }, &queue, &function,
                    &argument)
            }
            return (queue!, function!, argument)
        }
    }
}
