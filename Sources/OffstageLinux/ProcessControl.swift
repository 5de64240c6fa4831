import Glibc
package import OffstageCore

/// How the daemon suspends apps, chosen at start.
package enum FreezerKind: String, Sendable {
    case cgroupV2 = "cgroup v2 freezer"
    case cgroupV1 = "cgroup v1 freezer"
    case signals = "SIGSTOP"
}

/// One app's process as the daemon started it: the pid (also its process group) and its control groups.
package struct AppProcess: Sendable, Hashable {
    package var pid: Int32
    /// `/proc/PID/stat` start time: with the pid, it names this process even after a restart.
    package var startTicks: Int

    package init(pid: Int32, startTicks: Int) {
        self.pid = pid
        self.startTicks = startTicks
    }
}

/// Process control on Linux: one control group per app, freezing (cgroup v2, v1, or SIGSTOP),
/// killing (`cgroup.kill`, or SIGTERM then SIGKILL), CPU weight and CPU/memory accounting. Not `Sendable`: it
/// keeps open files and the strays it found, and belongs to the one thread that owns its `LinuxProcessHost`.
package final class ProcessControl {
    package let kind: FreezerKind
    /// `…/offstage` in the hierarchy that freezes (v2 or v1 freezer); nil for SIGSTOP.
    package let freezerBase: String?
    /// `…/offstage` in a hierarchy with CPU weights (v2 `cpu.weight` or v1 `cpu.shares`), if any.
    package let cpuBase: String?
    /// Each app's freezer file, kept open once used: a freeze or a thaw is then one `pwrite`.
    private let freezerFiles = KeptFiles()
    /// `freezerBase` as the kernel names it in `/proc/PID/cgroup` (`/offstage`), and the v1 controller whose line
    /// names it (nil: the v2 line): a process belongs to an app only in exactly the group the daemon made.
    private let freezerGroupPath: String?
    private let freezerController: String?
    /// Without cgroups: each app's processes outside its process group (descendants that called `setsid` or
    /// `setpgid`, which a signal to the group misses), remembered so that they are found once orphaned too.
    private var strays: [BundleID: Set<AppProcess>] = [:]

    /// Detects what the machine offers (or takes `choice` if forced) and creates the daemon's groups.
    package init(choice: FreezerChoice, name: String) throws(HostError) {
        let v2Root = ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"].first {
            SysFile.exists("\($0)/cgroup.procs") && SysFile.exists("\($0)/cgroup.subtree_control")
        }
        let v1Root = SysFile.exists("/sys/fs/cgroup/freezer/cgroup.procs") ? "/sys/fs/cgroup/freezer" : nil
        func usable(_ root: String?) -> String? {
            guard let root else { return nil }
            let base = "\(root)/\(name)"
            return SysFile.makeDirectory(base) && SysFile.exists("\(base)/cgroup.procs") ? base : nil
        }
        switch choice {
        case .automatic:
            if let base = usable(v2Root) {
                (kind, freezerBase) = (.cgroupV2, base)
            } else if let base = usable(v1Root) {
                (kind, freezerBase) = (.cgroupV1, base)
            } else {
                (kind, freezerBase) = (.signals, nil)
            }
        case .cgroupV2:
            guard let base = usable(v2Root) else {
                throw HostError(.noFreezer, "no writable cgroup v2 hierarchy for --freezer cgroup2")
            }
            (kind, freezerBase) = (.cgroupV2, base)
        case .cgroupV1:
            guard let base = usable(v1Root) else {
                throw HostError(.noFreezer, "no writable cgroup v1 freezer for --freezer cgroup1")
            }
            (kind, freezerBase) = (.cgroupV1, base)
        case .signals:
            (kind, freezerBase) = (.signals, nil)
        }
        freezerGroupPath = freezerBase == nil ? nil : "/\(name)"
        freezerController = kind == .cgroupV1 ? "freezer" : nil
        if kind == .cgroupV2, let freezerBase, SysFile.exists("\(freezerBase)/cpu.weight") {
            cpuBase = freezerBase
        } else if kind != .signals,
            let base = usable(SysFile.exists("/sys/fs/cgroup/cpu/cpu.shares") ? "/sys/fs/cgroup/cpu" : nil)
        {
            cpuBase = base
        } else {
            cpuBase = nil
        }
    }

    /// The group folder name of an app: its bundle identifier with only safe characters.
    package static func groupName(_ app: BundleID) -> String {
        String(app.rawValue.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
    }

    private func freezerGroup(_ app: BundleID) -> String? { freezerBase.map { "\($0)/\(Self.groupName(app))" } }
    private func cpuGroup(_ app: BundleID) -> String? { cpuBase.map { "\($0)/\(Self.groupName(app))" } }

    /// Delegates the app's cgroup v2 group to `user`, as systemd delegates a subtree: the folder and the files a
    /// delegated user writes (`cgroup.procs`, `cgroup.threads`, `cgroup.subtree_control`) become theirs, so the
    /// app may arrange its own processes below; freezing, killing and weights stay the daemon's. A v1 group (the
    /// v1 freezer, or v1 `cpu` beside a v2 freezer) is never delegated: v1 lets a writer of a group's
    /// `cgroup.procs` move any of its own processes there, so an app could join another app's group (and be taken
    /// for it) or make sub-groups that outlive a swipe; v2 asks for the common ancestor's, which stays root's.
    package func delegateGroups(of app: BundleID, to user: AppUser) {
        guard kind == .cgroupV2, let group = freezerGroup(app) else { return }
        for path in [group] + ["cgroup.procs", "cgroup.threads", "cgroup.subtree_control"].map({ "\(group)/\($0)" })
        where SysFile.exists(path) {
            chown(path, user.uid, user.gid)
        }
    }

    /// The `cgroup.procs` files a new process of `app` must join (its groups are created here).
    package func groupProcsFiles(for app: BundleID) -> [String] {
        [freezerGroup(app), cpuGroup(app)].compactMap { $0 }.uniqued().compactMap { group in
            SysFile.makeDirectory(group) ? "\(group)/cgroup.procs" : nil
        }
    }

    // MARK: Freezing

    package func freeze(_ app: BundleID, _ process: AppProcess) {
        switch kind {
        case .cgroupV2: freezerFiles.write("1", app: app, path: "\(freezerGroup(app)!)/cgroup.freeze")
        case .cgroupV1: freezerFiles.write("FROZEN", app: app, path: "\(freezerGroup(app)!)/freezer.state")
        case .signals: signalEvery(app, process, SIGSTOP)
        }
    }

    package func thaw(_ app: BundleID, _ process: AppProcess) {
        switch kind {
        case .cgroupV2: freezerFiles.write("0", app: app, path: "\(freezerGroup(app)!)/cgroup.freeze")
        case .cgroupV1: freezerFiles.write("THAWED", app: app, path: "\(freezerGroup(app)!)/freezer.state")
        case .signals: signalEvery(app, process, SIGCONT)
        }
    }

    /// Whether the kernel reports the app frozen: `cgroup.events`, `freezer.state`, or every process stopped.
    package func isFrozen(_ app: BundleID, _ process: AppProcess) -> Bool {
        switch kind {
        case .cgroupV2:
            return SysFile.read("\(freezerGroup(app)!)/cgroup.events").flatMap { SysFile.field("frozen", in: $0) }
                == "1"
        case .cgroupV1:
            return SysFile.read("\(freezerGroup(app)!)/freezer.state")?.hasPrefix("FROZEN") ?? false
        case .signals:
            let states = pids(of: app, process).compactMap { ProcStat.read($0)?.state }
            return !states.isEmpty && states.allSatisfy { $0 == "T" }
        }
    }

    // MARK: Killing

    /// Kills every process of the app at once where a cgroup allows; otherwise SIGTERM to the group
    /// (the caller sends SIGKILL after the grace, see `killNow`). Returns whether it was immediate.
    @discardableResult
    package func terminate(_ app: BundleID, _ process: AppProcess) -> Bool {
        switch kind {
        case .cgroupV2:
            let group = freezerGroup(app)!
            if SysFile.write("\(group)/cgroup.kill", "1") { return true }
            killNow(app, process)
            return true
        case .cgroupV1:
            killNow(app, process)
            SysFile.write("\(freezerGroup(app)!)/freezer.state", "THAWED")
            return true
        case .signals:
            signalEvery(app, process, SIGTERM)
            signalEvery(app, process, SIGCONT)
            return false
        }
    }

    /// SIGKILL to every process of the app (its group members, or its process group).
    package func killNow(_ app: BundleID, _ process: AppProcess) {
        if kind == .signals {
            signalEvery(app, process, SIGKILL)
            return
        }
        for pid in pids(of: app, process) { kill(pid, SIGKILL) }
    }

    /// The app's processes: its cgroup's members, or the process and its descendants.
    package func pids(of app: BundleID, _ process: AppProcess) -> [Int32] {
        guard let group = freezerGroup(app) else {
            let tree = ProcFS.tree(process.pid)
            return tree + outsideGroup(app, process, tree: tree).map(\.pid).filter { !tree.contains($0) }
        }
        return SysFile.numbers(in: SysFile.bytes("\(group)/cgroup.procs") ?? []).map { Int32(truncatingIfNeeded: $0) }
    }

    /// Whether `pid` (the kernel's word on a peer) belongs to the app: it is the app's process, or it is in exactly
    /// the group the daemon made for the app (the full path: a group of the same name elsewhere, which any user
    /// with a delegated subtree can make, is not the app), or without groups in the app's process group.
    package func owns(_ app: BundleID, _ process: AppProcess, pid: Int32) -> Bool {
        if pid == process.pid { return true }
        guard let freezerGroupPath else { return getpgid(pid) == process.pid }
        return ProcFS.cgroup(of: pid, controller: freezerController) == "\(freezerGroupPath)/\(Self.groupName(app))"
    }

    /// Sends `signal` to the app's process group (at once: the usual case) and then to each of its processes
    /// outside the group, as a cgroup would reach them (SIGSTOP freezer only).
    private func signalEvery(_ app: BundleID, _ process: AppProcess, _ signal: Int32) {
        kill(-process.pid, signal)
        for stray in outsideGroup(app, process, tree: ProcFS.tree(process.pid)) { kill(stray.pid, signal) }
    }

    /// The app's processes outside its process group: those of `tree` (the process and its descendants), and
    /// those found before that still live (the same start time: the pid was not reused), orphaned or not.
    private func outsideGroup(_ app: BundleID, _ process: AppProcess, tree: [Int32]) -> [AppProcess] {
        var found = strays[app, default: []].filter { ProcStat.read($0.pid)?.startTicks == $0.startTicks }
        for pid in tree where pid != process.pid {
            if let stat = ProcStat.read(pid), stat.processGroup != process.pid {
                found.insert(AppProcess(pid: pid, startTicks: stat.startTicks))
            }
        }
        strays[app] = found.isEmpty ? nil : found
        return Array(found)
    }

    // MARK: CPU weight and accounting

    /// Applies the core's CPU priority: the group's CPU weight (v2 `cpu.weight`, v1 `cpu.shares`), or the
    /// process group's nice value without a CPU hierarchy. Foreground first: the app on screen gets the most.
    package func setPriority(_ app: BundleID, _ process: AppProcess, _ priority: CPUPriority) {
        let (weight, shares, nice): (Int, Int, Int32) =
            switch priority {
            case .boosted, .foreground: (100, 1024, 0)
            case .normal: (50, 512, 5)
            case .background: (10, 128, 10)
            }
        if let group = cpuGroup(app) {
            if SysFile.exists("\(group)/cpu.weight") {
                SysFile.write("\(group)/cpu.weight", "\(weight)")
            } else {
                SysFile.write("\(group)/cpu.shares", "\(shares)")
            }
        } else {
            setpriority(__priority_which_t(PRIO_PGRP.rawValue), id_t(process.pid), nice)
        }
    }

    /// CPU seconds used so far by the app's processes, and their resident memory in bytes.
    package func usage(_ app: BundleID, _ process: AppProcess) -> (cpuSeconds: Double, memoryBytes: Int) {
        let pids = pids(of: app, process)
        let memory = pids.reduce(0) { $0 + ProcFS.residentBytes($1) }
        if kind == .cgroupV2, let stat = SysFile.bytes("\(freezerGroup(app)!)/cpu.stat"),
            let micros = SysFile.number(after: "usage_usec", in: stat)
        {
            return (Double(micros) / 1e6, memory)
        }
        let ticks = pids.compactMap { ProcStat.read($0)?.cpuTicks }.reduce(0, +)
        return (Double(ticks) / ProcStat.ticksPerSecond, memory)
    }

    /// Removes the app's (empty) groups; a populated group stays.
    package func removeGroups(_ app: BundleID) {
        for group in [freezerGroup(app), cpuGroup(app)].compactMap({ $0 }).uniqued() { rmdir(group) }
    }

    /// The app groups of the daemon other than `keeping` (group names), with the processes in each.
    package func strayGroups(keeping: Set<String>) -> [(group: String, pids: [Int32])] {
        [freezerBase, cpuBase].compactMap { $0 }.uniqued().flatMap { base in
            SysFile.subdirectories(of: base).filter { !keeping.contains($0) }.map { name in
                let pids = SysFile.numbers(in: SysFile.bytes("\(base)/\(name)/cgroup.procs") ?? [])
                return (group: "\(base)/\(name)", pids: pids.map { Int32(truncatingIfNeeded: $0) })
            }
        }
    }

    /// Removes every group of the daemon (at a clean stop, once its apps were killed): each app's, waiting up to
    /// `timeout` seconds for killed processes to leave them, then the daemon's own. Returns the groups left.
    package func removeAllGroups(timeout: Double) -> [String] {
        let deadline = Self.monotonicNanos() + UInt64(timeout * 1e9)
        var left: [String] = []
        for base in [freezerBase, cpuBase].compactMap({ $0 }).uniqued() {
            for group in SysFile.subdirectories(of: base).map({ "\(base)/\($0)" }) {
                while rmdir(group) != 0 && errno == EBUSY && Self.monotonicNanos() < deadline {
                    usleep(2_000)  // At a stop only: the kernel takes a few milliseconds to empty a killed group.
                }
                if SysFile.exists(group) { left.append(group) }
            }
            if rmdir(base) != 0 && SysFile.exists(base) { left.append(base) }
        }
        return left
    }
}

extension ProcessControl {
    /// The monotonic clock in nanoseconds (for the stop's timeout).
    fileprivate static func monotonicNanos() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

extension Array where Element: Hashable {
    fileprivate func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
