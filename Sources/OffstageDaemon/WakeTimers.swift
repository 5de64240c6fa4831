import Glibc

/// The loop's timers, as descriptors its `poll` watches: the next due time on the boot clock (which counts time
/// suspended, unlike `poll`'s own timeout, which would fire due work late by the time the machine slept), and a
/// watch that fires when the wall clock is set (`TFD_TIMER_CANCEL_ON_SET`), so the daemon follows it at once.
struct WakeTimers: ~Copyable {
    let due: Int32
    let wallClockSet: Int32
    /// The boot-clock second `due` is armed for (nil: disarmed): re-armed only when the next wake changes.
    private var armedAt: Double?

    init() throws(DaemonError) {
        due = Self.create(CLOCK_BOOTTIME, O_NONBLOCK | O_CLOEXEC)  // TFD_NONBLOCK, TFD_CLOEXEC are these
        wallClockSet = Self.create(CLOCK_REALTIME, O_NONBLOCK | O_CLOEXEC)
        guard due >= 0, wallClockSet >= 0 else {
            throw DaemonError(.startup, "timerfd_create: \(String(cString: strerror(errno)))")
        }
        watchWallClock()
    }

    deinit {
        close(due)
        close(wallClockSet)
    }

    /// Arms `due` for the boot-clock second `seconds` (nil disarms); does nothing when it is armed for it already.
    mutating func arm(atBootSeconds seconds: Double?) {
        guard seconds != armedAt else { return }
        armedAt = seconds
        var spec = itimerspec()
        if let seconds {
            // Zero would disarm: a time already past is armed a nanosecond after the boot clock's start.
            let whole = max(0, seconds.rounded(.down))
            spec.it_value = timespec(tv_sec: Int(whole), tv_nsec: max(1, Int((seconds - whole) * 1e9)))
        }
        _ = Self.settime(due, Self.absolute, &spec, nil)
    }

    /// Takes `due`'s expiry (the loop then does what fell due).
    mutating func takeDue() {
        Self.drain(due)
        armedAt = nil
    }

    /// Takes the wall clock's change and watches for the next.
    func takeWallClockSet() {
        Self.drain(wallClockSet)
        watchWallClock()
    }

    /// An absolute timer on the wall clock far ahead, cancelled (the descriptor becomes readable) when the
    /// clock is set.
    private func watchWallClock() {
        var spec = itimerspec()
        spec.it_value = timespec(tv_sec: Int(Int32.max), tv_nsec: 0)
        _ = Self.settime(wallClockSet, Self.absolute | Self.cancelOnSet, &spec, nil)
    }

    /// `timerfd_create` and `timerfd_settime`, which Glibc's Swift module does not export, and their flags.
    private typealias Create = @convention(c) (Int32, Int32) -> Int32
    private static let create: Create = unsafeBitCast(dlsym(nil, "timerfd_create")!, to: Create.self)
    private typealias SetTime =
        @convention(c) (
            Int32, Int32, UnsafePointer<itimerspec>?, UnsafeMutablePointer<itimerspec>?
        ) -> Int32
    private static let settime: SetTime = unsafeBitCast(dlsym(nil, "timerfd_settime")!, to: SetTime.self)
    private static let absolute: Int32 = 1  // TFD_TIMER_ABSTIME
    private static let cancelOnSet: Int32 = 2  // TFD_TIMER_CANCEL_ON_SET

    private static func drain(_ fd: Int32) {
        var expirations: UInt64 = 0
        _ = read(fd, &expirations, 8)
    }
}
