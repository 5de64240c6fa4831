import Glibc
import OffstageCore
import OffstageLinux

/// The daemon's time: `Instant`s are seconds on the boot clock (which keeps counting through suspend and
/// never jumps) since the daemon's first start, so that the instants in its stored history stay valid across
/// restarts; the wall clock is mapped at this edge only, and followed when it is set (`followWallClock`).
struct DaemonClock: Sendable {
    /// The boot clock when this daemon started, and the instant it was then.
    private let start: Double
    private let base: Double
    /// Wall-clock seconds since 1970 at `Instant.zero`: the first start's, stored with the history; moved when the
    /// wall clock is set.
    private(set) var epochAtZero: Double
    /// Tests only: a file holding seconds added to the wall clock (a test cannot set the machine's clock).
    private let wallClockShiftFile: String?

    /// A clock that goes on from a stored origin (the epoch at `Instant.zero`), never earlier than `notBefore`
    /// (the last instant stored, in case the wall clock was set back meanwhile); a new origin without one.
    init(origin: Double?, notBefore: Instant = .zero, wallClockShiftFile: String? = nil) {
        self.wallClockShiftFile = wallClockShiftFile
        start = Self.seconds(CLOCK_BOOTTIME)
        let wall = Self.seconds(CLOCK_REALTIME) + Self.shift(wallClockShiftFile)
        base = origin.map { max(wall - $0, notBefore.seconds) } ?? 0
        epochAtZero = wall - base
    }

    /// Whether the wall clock was set (it moved more than a second against the boot clock since last looked):
    /// then `epochAtZero` follows it, and the core must be told (`SystemEvent.setWallClock`). Two clock reads.
    mutating func followWallClock() -> Bool {
        let epoch = Self.seconds(CLOCK_REALTIME) + Self.shift(wallClockShiftFile) - now().seconds
        guard abs(epoch - epochAtZero) > 1 else { return false }
        epochAtZero = epoch
        return true
    }

    /// The boot clock's reading (seconds) at `instant`, for a timer on it.
    func bootSeconds(at instant: Instant) -> Double { start + (instant.seconds - base) }

    private static func shift(_ file: String?) -> Double {
        file.flatMap { SysFile.read($0) }.flatMap { Double($0.filter { !$0.isWhitespace }) } ?? 0
    }

    /// The instant now.
    func now() -> Instant { Instant(seconds: base + secondsSinceStart()) }

    /// Seconds since this daemon started.
    func secondsSinceStart() -> Double { Self.seconds(CLOCK_BOOTTIME) - start }

    /// The wall clock as the core maps it: the epoch at `Instant.zero`, and the local time zone's offset
    /// (the judgement reads hours of the day and weekdays in local time).
    func wallClock() -> WallClock {
        var seconds = time_t(epochAtZero + now().seconds)
        var local = tm()
        localtime_r(&seconds, &local)
        return WallClock(epochAtZero: epochAtZero, utcOffset: Double(local.tm_gmtoff))
    }

    /// Nanoseconds on the monotonic clock (`CLOCK_MONOTONIC`), which every process reads alike: for timings
    /// other processes compare with their own (`FreezerAction`).
    static func monotonicNanos() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private static func seconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
