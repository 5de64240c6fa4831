import Glibc
import OffstageCore

/// The daemon's time: `Instant`s are seconds since the daemon started on the boot clock (which
/// keeps counting through suspend and never jumps); the wall clock is mapped at this edge only.
struct DaemonClock: Sendable {
    private let start: Double

    init() { start = Self.bootSeconds() }

    /// The instant now.
    func now() -> Instant { Instant(seconds: Self.bootSeconds() - start) }

    /// The wall clock as the core maps it: the epoch at `Instant.zero`.
    func wallClock() -> WallClock {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let epoch = Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9
        return WallClock(epochAtZero: epoch - now().seconds)
    }

    private static func bootSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
