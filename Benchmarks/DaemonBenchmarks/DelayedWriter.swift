import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a freezer file from a thread of its own, 1 ms after being asked, timing the write. The benchmark's
/// watcher (the thread that asked) is then asleep in `poll` when the change comes, as it is when the daemon makes
/// the change: the direct write compared with the daemon's path on the watcher's terms too.
final class DelayedWriter: @unchecked Sendable {
    private let fd: Int32
    private let asked = DispatchSemaphore(value: 0)
    private let written = DispatchSemaphore(value: 0)
    private var value: StaticString = "1"
    private var startedAt: UInt64 = 0

    init(fd: Int32) {
        self.fd = fd
        Thread { [self] in
            while true {
                asked.wait()
                usleep(1000)
                startedAt = nanos()
                _ = pwrite(fd, value.utf8Start, value.utf8CodeUnitCount, 0)
                written.signal()
            }
        }.start()
    }

    /// Asks for `value` to be written 1 ms from now; `started()` then gives when the write began.
    func write(_ value: StaticString) {
        self.value = value
        asked.signal()
    }

    /// Waits for the write asked for to return; when it began (`CLOCK_MONOTONIC` nanoseconds).
    func started() -> UInt64 {
        written.wait()
        return startedAt
    }
}
