public import Foundation
import OffstageCore

extension ProcessInfo {
    /// `performExpiringActivity(withReason:using:)`, how app extensions (which have no `beginBackgroundTask`) keep
    /// running for work: `block(false)` runs on a concurrent queue under a background-time assertion named
    /// `reason`; when the assertion cannot be taken, `block(true)` at once instead; when its time runs out while
    /// the block runs, `block(true)` a second time on another thread, so the work stops. Foundation on Linux has
    /// no such method; this one has Apple's signature and meaning.
    public func performExpiringActivity(withReason reason: String, using block: @escaping @Sendable (Bool) -> Void) {
        let runtime = AppRuntime.current
        guard case .backgroundTask(let number) = runtime.send(.beginExpiringActivity(reason: reason)), number != 0
        else {
            DispatchQueue.global().async { block(true) }
            return
        }
        runtime.setAssertionHandler({ block(true) }, for: number)
        DispatchQueue.global().async {
            block(false)
            runtime.setAssertionHandler(nil, for: number)
            runtime.send(.endBackgroundTask(number))
        }
    }
}

/// `ProcessInfo()`, which app code writes for the process's information (Apple's `ProcessInfo` inherits
/// `NSObject`'s public `init()`; Foundation on Linux keeps it internal): the shared `ProcessInfo.processInfo`.
public func ProcessInfo() -> Foundation.ProcessInfo { .processInfo }
