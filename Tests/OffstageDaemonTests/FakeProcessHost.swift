import OffstageCore
import OffstageLinux

/// A double of the Linux layer: no process is started; it records what the daemon asked (launches, freezes,
/// thaws, kills) and answers from its own table, so that the daemon's orchestration and store are tested in
/// milliseconds. A test ends a "process" with `exit`, as the reaper would report it. Not `Sendable`: like the
/// daemon that owns it, it lives on the test's thread, and the compiler keeps it there.
final class FakeProcessHost: AppProcessHost {
    enum Action: Hashable {
        case launch(BundleID)
        case freeze(BundleID)
        case thaw(BundleID)
        case terminate(BundleID)
        case kill(BundleID)
        case endLeftovers(BundleID)
    }

    /// Everything the daemon asked, in order.
    private(set) var actions: [Action] = []
    /// The live processes and whether each is frozen.
    private(set) var live: [Int32: (app: BundleID, frozen: Bool)] = [:]
    /// Recorded processes of an earlier run that still live (for adoption), by pid.
    var survivors: Set<Int32> = []
    /// The next launch fails with this error, if set.
    var failNextLaunch: HostError?
    var device = DeviceReading()
    private var nextPID: Int32 = 1000

    let freezer = FreezerKind.cgroupV2

    func launch(
        _ app: BundleID, executable: String, environment: [String: String], logPath: String, as user: AppUser?
    ) throws(HostError) -> AppProcess {
        actions.append(.launch(app))
        if let failure = failNextLaunch {
            failNextLaunch = nil
            throw failure
        }
        nextPID += 1
        live[nextPID] = (app, false)
        return AppProcess(pid: nextPID, startTicks: Int(nextPID) * 10)
    }

    func freeze(_ app: BundleID, _ process: AppProcess) {
        actions.append(.freeze(app))
        live[process.pid]?.frozen = true
    }

    func thaw(_ app: BundleID, _ process: AppProcess) {
        actions.append(.thaw(app))
        live[process.pid]?.frozen = false
    }

    func isFrozen(_ app: BundleID, _ process: AppProcess) -> Bool { live[process.pid]?.frozen ?? false }

    func terminate(_ app: BundleID, _ process: AppProcess) -> Bool {
        actions.append(.terminate(app))
        live[process.pid] = nil
        return true
    }

    func killNow(_ app: BundleID, _ process: AppProcess) {
        actions.append(.kill(app))
        live[process.pid] = nil
    }

    func owns(_ app: BundleID, _ process: AppProcess, pid: Int32) -> Bool { pid == process.pid }
    func setPriority(_ app: BundleID, _ process: AppProcess, _ priority: CPUPriority) {}
    func usage(_ app: BundleID, _ process: AppProcess) -> (cpuSeconds: Double, memoryBytes: Int) { (0, 0) }

    func adoptionProblem(_ app: BundleID, _ recorded: AppProcess) -> String? {
        guard survivors.contains(recorded.pid) else { return "its process \(recorded.pid) has ended" }
        live[recorded.pid] = (app, false)
        return nil
    }

    func endLeftovers(of app: BundleID, recorded: AppProcess?) -> [Int32] {
        actions.append(.endLeftovers(app))
        guard let recorded, survivors.remove(recorded.pid) != nil else { return [] }
        return [recorded.pid]
    }

    func endStrayGroups(keeping: Set<BundleID>, installed: Set<BundleID>, socket: String)
        -> [(group: String, pids: [Int32])]
    { [] }
    func removeAllGroups(timeout: Double) -> [String] { [] }
    func readDevice() -> DeviceReading { device }
    func supplementaryGroups(of pid: Int32) -> [UInt32] { [] }

    /// Forgets what was asked so far.
    func clearActions() { actions = [] }
}
