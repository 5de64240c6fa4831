public import Foundation
public import OffstageCore

/// How an app's code reaches "the system": in-process for the simulator, a socket for the daemon.
/// OffstageKit's Apple-named classes speak only through this.
public protocol SystemLink: AnyObject, Sendable {
    /// Asks the system; iOS's API is synchronous, so the answer comes back at once.
    func call(_ call: AppCall) -> AppCallResult
    /// Ends the app's code for good: the app broke a rule (iOS would crash it) or was killed.
    func crash(_ message: String) -> Never
    /// Lets `seconds` of the system's time pass on the calling thread: real time on a device,
    /// virtual time in the simulator (where other events are delivered meanwhile).
    func sleep(seconds: Double)
    /// Runs `work` on the app's thread after `seconds` of the system's time.
    func after(seconds: Double, _ work: @escaping @Sendable () -> Void)
    /// The system's wall clock now (virtual in the simulator).
    var now: Date { get }
    /// The app's own account of work it just did (see `OffstageWork.report`): the simulator charges it all to the
    /// app's energy; the daemon, which measures CPU time itself from cgroup accounting, charges the GPU and network.
    func reportWork(_ work: OffstageWork)
    /// Seconds on the system's monotonic clock (virtual in the simulator), for measuring work in progress.
    var uptime: Double { get }
    /// How an HTTP request of the app's ends on the host's simulated network; nil: the real network (Network/).
    func exchange(_ request: OffstageNetworkRequest) -> OffstageNetworkExchange?
    /// Whether the host simulates the network (the simulator) or lets requests out (the daemon).
    var simulatesNetwork: Bool { get }
}

extension SystemLink {
    /// The process's monotonic clock, where the host keeps no clock of its own.
    public var uptime: Double { ProcessInfo.processInfo.systemUptime }

    /// Maps a date the app computed from its own clock (`Date()`) onto the system's wall clock,
    /// keeping its distance from "now" (rounded to the second so that runs stay deterministic).
    func systemEpoch(forAppDate date: Date) -> Double {
        now.timeIntervalSince1970 + date.timeIntervalSinceNow.rounded()
    }

    /// The inverse: a date on the system's clock as the app's own clock shows it.
    func appDate(forSystemEpoch epoch: Double) -> Date {
        Date(timeIntervalSinceNow: epoch - now.timeIntervalSince1970)
    }
}
