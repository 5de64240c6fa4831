import OffstageCore

extension Daemon {
    /// Reads the core in place: `inspect { $0.nextDueTime }`. A non-mutating call on `system`, a struct stored in
    /// this class, makes Swift copy the whole system first (every field retained, then released), which cost more
    /// than the reads themselves on every message; an `inout` access reads it where it lies. `read` must not touch
    /// `system` itself (an overlapping access traps).
    func inspect<Value>(_ read: (inout BackgroundSystem) -> Value) -> Value { read(&system) }
}
