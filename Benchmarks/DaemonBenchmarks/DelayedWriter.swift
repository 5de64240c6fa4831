import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a freezer file from a thread of its own, `delay` microseconds after being asked (`--writer-delay-us`,
/// 1 ms by default), timing the write. The benchmark's watcher (the thread that asked) is then asleep in `poll`
/// when the change comes, as it is when the daemon makes the change: the direct write compared with the daemon's
/// path on the watcher's terms too. How long the CPUs idled before a write changes its time on a VM (see
/// BENCHMARKS.md, "Fifth session"): the delay lets that be measured.
final class DelayedWriter: @unchecked Sendable {
    private let asked = DispatchSemaphore(value: 0)
    private let written = DispatchSemaphore(value: 0)
    private var value: StaticString = "1"
    private var startedAt: UInt64 = 0

    init(fd: Int32, delay: UInt32) {
        Thread { [self] in
            while true {
                asked.wait()
                usleep(delay)
                startedAt = nanos()
                _ = pwrite(fd, value.utf8Start, value.utf8CodeUnitCount, 0)
                written.signal()
            }
        }.start()
    }

    /// Asks for `value` to be written after the delay; `started()` then gives when the write began.
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
