import Glibc
package import OffstageCore

/// What the daemon asks of the operating system for its apps: start, freeze, thaw, end and measure their
/// processes, recognise them among its clients, take over or end what a previous run left, and read the device.
/// `LinuxProcessHost` is the real one (procfs, cgroups, signals); tests drive the daemon with a double.
package protocol AppProcessHost: AnyObject {
    /// How apps are frozen here (`status` shows it).
    var freezer: FreezerKind { get }
    /// Starts the app's executable in a session and groups of its own, as `user` if given, with `environment` as
    /// its whole environment, its output appended to `logPath`. The process's exit is reported to the host's exit
    /// handler.
    func launch(
        _ app: BundleID, executable: String, environment: [String: String], logPath: String, as user: AppUser?
    ) throws(HostError) -> AppProcess
    func freeze(_ app: BundleID, _ process: AppProcess)
    func thaw(_ app: BundleID, _ process: AppProcess)
    /// Whether the kernel reports the app frozen.
    func isFrozen(_ app: BundleID, _ process: AppProcess) -> Bool
    /// Ends every process of the app: true if at once; false if they were asked (SIGTERM) and `killNow` is due
    /// after a grace.
    @discardableResult func terminate(_ app: BundleID, _ process: AppProcess) -> Bool
    func killNow(_ app: BundleID, _ process: AppProcess)
    /// Whether `pid` (the kernel's word on a client) is one of the app's processes.
    func owns(_ app: BundleID, _ process: AppProcess, pid: Int32) -> Bool
    func setPriority(_ app: BundleID, _ process: AppProcess, _ priority: CPUPriority)
    /// CPU seconds used so far by the app's processes, and their resident memory in bytes.
    func usage(_ app: BundleID, _ process: AppProcess) -> (cpuSeconds: Double, memoryBytes: Int)
    /// Why the process a previous run recorded for the app cannot be taken over, or nil if it can (its exit is
    /// then reported like a child's).
    func adoptionProblem(_ app: BundleID, _ recorded: AppProcess) -> String?
    /// Ends what a previous run left of the app (its group's members, or the recorded process while its pid
    /// still names it); returns the pids ended.
    func endLeftovers(of app: BundleID, recorded: AppProcess?) -> [Int32]
    /// Ends the processes in the daemon's groups of apps other than `keeping` (left by a run whose state is
    /// lost); without groups, the processes launched for `socket` of apps not `installed` (the installed ones'
    /// leftovers are ended by `endLeftovers`); returns each group (or app) with the pids ended.
    func endStrayGroups(keeping: Set<BundleID>, installed: Set<BundleID>, socket: String)
        -> [(group: String, pids: [Int32])]
    /// Removes every group of the daemon (at a clean stop), waiting up to `timeout` seconds; returns those left.
    func removeAllGroups(timeout: Double) -> [String]
    /// The device now: battery, charger, network, heat, load, memory pressure.
    func readDevice() -> DeviceReading
    /// The supplementary groups of process `pid` (for the control group's permission).
    func supplementaryGroups(of pid: Int32) -> [UInt32]
}

/// The host on Linux: `ProcessControl` (cgroup v2, v1 or SIGSTOP), `ProcessSpawner`, a `Reaper` for the
/// daemon's children and an `ExitWatcher` (pidfd) for processes adopted after a restart. Not `Sendable`: the
/// daemon's loop owns it and alone calls it; only `onExit` runs elsewhere (on the reaper's and watcher's threads).
package final class LinuxProcessHost: AppProcessHost {
    private let control: ProcessControl
    private let reaper: Reaper
    private let exitWatcher: ExitWatcher

    /// Detects (or takes) the freezer and makes the daemon's groups; `onExit` hears of every app process that
    /// ends (pid, how), from another thread.
    package init(
        freezer: FreezerChoice, groupName: String, onExit: @escaping @Sendable (Int32, String) -> Void
    ) throws(HostError) {
        control = try ProcessControl(choice: freezer, name: groupName)
        exitWatcher = try ExitWatcher(onExit: onExit)
        reaper = Reaper(onExit: onExit)
    }

    package var freezer: FreezerKind { control.kind }

    package func launch(
        _ app: BundleID, executable: String, environment: [String: String], logPath: String, as user: AppUser?
    ) throws(HostError) -> AppProcess {
        let files = control.groupProcsFiles(for: app)
        if let user { control.delegateGroups(of: app, to: user) }
        // Whatever is left in the app's groups (a process of an earlier launch) goes first.
        let placeholder = AppProcess(pid: 0, startTicks: 0)
        if control.kind != .signals {
            for pid in control.pids(of: app, placeholder) { kill(pid, SIGKILL) }
            control.thaw(app, placeholder)
        }
        let pid = try ProcessSpawner.spawn(
            executable: executable, environment: environment, joining: files, logPath: logPath, as: user)
        reaper.childStarted()
        return AppProcess(pid: pid, startTicks: ProcStat.read(pid)?.startTicks ?? 0)
    }

    package func freeze(_ app: BundleID, _ process: AppProcess) { control.freeze(app, process) }
    package func thaw(_ app: BundleID, _ process: AppProcess) { control.thaw(app, process) }
    package func isFrozen(_ app: BundleID, _ process: AppProcess) -> Bool { control.isFrozen(app, process) }
    package func terminate(_ app: BundleID, _ process: AppProcess) -> Bool { control.terminate(app, process) }
    package func killNow(_ app: BundleID, _ process: AppProcess) { control.killNow(app, process) }
    package func owns(_ app: BundleID, _ process: AppProcess, pid: Int32) -> Bool {
        control.owns(app, process, pid: pid)
    }
    package func setPriority(_ app: BundleID, _ process: AppProcess, _ priority: CPUPriority) {
        control.setPriority(app, process, priority)
    }
    package func usage(_ app: BundleID, _ process: AppProcess) -> (cpuSeconds: Double, memoryBytes: Int) {
        control.usage(app, process)
    }

    package func adoptionProblem(_ app: BundleID, _ recorded: AppProcess) -> String? {
        guard let stat = ProcStat.read(recorded.pid), stat.state != "Z" else {
            return "its process \(recorded.pid) has ended"
        }
        guard stat.startTicks == recorded.startTicks else {
            return "pid \(recorded.pid) now names another process (its start time differs)"
        }
        if control.kind == .signals {
            guard stat.processGroup == recorded.pid else { return "process \(recorded.pid) left its process group" }
        } else {
            guard control.pids(of: app, recorded).contains(recorded.pid) else {
                return "process \(recorded.pid) is no longer in the app's control group"
            }
        }
        guard exitWatcher.watch(recorded.pid) else {
            return "this kernel cannot tell the daemon when a process it did not start ends (no pidfd_open)"
        }
        return nil
    }

    package func endLeftovers(of app: BundleID, recorded: AppProcess?) -> [Int32] {
        let placeholder = AppProcess(pid: 0, startTicks: 0)
        var leftovers = control.kind == .signals ? [] : control.pids(of: app, placeholder)
        // The recorded process, if its pid still names it (same start time, not a zombie): a recycled pid is
        // never signalled.
        let live = recorded.flatMap { recorded in
            ProcStat.read(recorded.pid).flatMap {
                $0.startTicks == recorded.startTicks && $0.state != "Z" ? recorded : nil
            }
        }
        if let live, !leftovers.contains(live.pid) { leftovers.append(live.pid) }
        guard !leftovers.isEmpty else { return [] }
        if control.kind == .signals {
            if let live { control.killNow(app, live) }
        } else {
            control.terminate(app, placeholder)
        }
        for pid in leftovers { kill(pid, SIGKILL) }
        return leftovers
    }

    package func endStrayGroups(keeping: Set<BundleID>, installed: Set<BundleID>, socket: String)
        -> [(group: String, pids: [Int32])]
    {
        guard control.kind != .signals else {
            // No groups: the processes launched for this socket (their environment says so) of an app the store
            // does not know, which a lost store would leave stopped for ever.
            let known = Set(installed.map(\.rawValue))
            let left = ProcFS.appProcesses(launchedFor: socket).filter { !known.contains($0.app) }
            let stray = Dictionary(grouping: left) { $0.app }
            for process in stray.values.joined() { kill(process.pid, SIGKILL) }
            return stray.map { (group: "processes of \($0.key) (no control group)", pids: $0.value.map(\.pid)) }
        }
        let stray = control.strayGroups(keeping: Set(keeping.map(ProcessControl.groupName)))
        for (group, pids) in stray where !pids.isEmpty {
            for pid in pids { kill(pid, SIGKILL) }
            // A frozen process dies once thawed.
            SysFile.write("\(group)/cgroup.freeze", "0")
            SysFile.write("\(group)/freezer.state", "THAWED")
        }
        return stray.filter { !$0.pids.isEmpty }
    }

    package func removeAllGroups(timeout: Double) -> [String] { control.removeAllGroups(timeout: timeout) }
    package func readDevice() -> DeviceReading { DeviceProbe.read() }

    package func supplementaryGroups(of pid: Int32) -> [UInt32] {
        guard let text = SysFile.read("/proc/\(pid)/status"), let groups = SysFile.field("Groups", in: text) else {
            return []
        }
        return groups.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { UInt32($0) }
    }
}

/// A freezer the user forces, or automatic detection (v2, then v1, then signals).
public enum FreezerChoice: String, Sendable, CaseIterable {
    case automatic = "auto"
    case cgroupV2 = "cgroup2"
    case cgroupV1 = "cgroup1"
    case signals = "sigstop"
}

/// A user and group apps run as.
public struct AppUser: Sendable, Hashable {
    public var uid: UInt32
    public var gid: UInt32

    public init(uid: UInt32, gid: UInt32) {
        self.uid = uid
        self.gid = gid
    }
}
