import OffstageCore

/// Work an app's code is doing now, described up front: the CPU and GPU time and the bytes it uses in all over
/// its `seconds`. Not an Apple API: on iOS the system measures a process as it runs, so work cut short by a kill
/// is still charged; here the work's share done is reported when the code ends it, or when the process ends
/// (killed, crashed, jetsam, the device shut down) with the work still going on. The system's CPU monitor is told
/// of the work as it begins, so it sees CPU-bound work while it runs.
public final class OffstageWorkInProgress: Sendable {
    private let total: OffstageWork
    private let startedAt: Double
    private weak let runtime: AppRuntime?
    private let ended = LockedValue(false)
    /// The order of this work among the process's, so that a dying process reports its work in a fixed order.
    let number: Int

    init(_ total: OffstageWork, runtime: AppRuntime, number: Int) {
        self.total = total
        self.runtime = runtime
        self.number = number
        startedAt = runtime.link.uptime
        if total.cpuSeconds > 0, total.seconds > 0 {
            _ = runtime.link.call(.workBegan(number: number, cpuSeconds: total.cpuSeconds, seconds: total.seconds))
        }
    }

    /// Ends the work now and reports the share done: all of it once its time is up, else CPU and GPU time in
    /// proportion to the time worked and the bytes likewise. Later calls do nothing.
    public func end() {
        let first = ended.withValue { ended in
            defer { ended = true }
            return !ended
        }
        guard first, let runtime else { return }
        runtime.forgetWork(self)
        let worked = max(0, runtime.link.uptime - startedAt)
        // Work that runs its whole time (to a microsecond) stops counting at its end by itself; work cut short says so.
        if total.cpuSeconds > 0, worked < total.seconds - 1e-6 { _ = runtime.link.call(.workEnded(number: number)) }
        let share = total.seconds > 0 && worked < total.seconds ? worked / total.seconds : 1
        let bytes = Int((Double(total.bytes) * share).rounded())
        guard share == 1 || worked > 0 || bytes > 0 else { return }
        runtime.link.reportWork(
            OffstageWork(
                cpuSeconds: total.cpuSeconds * share, gpuSeconds: total.gpuSeconds * share, bytes: bytes,
                over: min(worked, total.seconds)))
    }
}

extension OffstageWork {
    /// Starts work that will use this CPU and GPU time and these bytes over `seconds` from now; end it with
    /// `end()` when it is done or stopped. Should the process end first, the system charges the share done.
    public static func begin(
        cpuSeconds: Double = 0, gpuSeconds: Double = 0, bytes: Int = 0, over seconds: Double
    ) -> OffstageWorkInProgress {
        AppRuntime.current.beginWork(
            OffstageWork(cpuSeconds: cpuSeconds, gpuSeconds: gpuSeconds, bytes: bytes, over: seconds))
    }
}
