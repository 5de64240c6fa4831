import Foundation

/// A value behind a lock, for the little state a real app process shares between threads.
/// (The simulator runs app code one thread at a time and needs none.)
/// Unchecked, not a `Mutex`: its values include ones that are not `Sendable` (the delegate, an expiration handler)
/// and `value` hands out a copy, which `Mutex` forbids for them; every access holds the lock.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value under the lock and returns what `change` returns.
    func withValue<Result>(_ change: (inout Value) -> Result) -> Result { lock.withLock { change(&stored) } }
}
