import Glibc

/// Giving freed heap memory back to the kernel after work (the daemon does it after each decision-log write).
/// glibc's allocator keeps what a burst freed (thousands of messages, frames and decisions) for reuse; an idle
/// daemon would carry it for good. `malloc_trim` returns it; Swift's Glibc module does not show it, so it is
/// looked up once by name.
enum HeapTrim {
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let trim: Trim? = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }

    /// Returns the free pages of every arena to the kernel (a no-op where the C library has no `malloc_trim`).
    static func now() { _ = trim?(0) }

    /// Whether the C library has `malloc_trim` (glibc does; the lookup failing would make every trim a no-op).
    static var isAvailable: Bool { trim != nil }
}
