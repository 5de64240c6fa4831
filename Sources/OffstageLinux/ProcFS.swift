import Glibc

/// What /proc says about one process: state, CPU time, start time, group, memory and children.
/// The SIGSTOP freezer and the resource sampler read it when no cgroup accounting exists.
package struct ProcStat: Sendable, Equatable {
    package var pid: Int32
    /// One letter: R running, S sleeping, T stopped, Z zombie…
    package var state: Character
    package var processGroup: Int32
    /// User and system CPU time, in clock ticks.
    package var cpuTicks: Int
    /// Start time after boot, in clock ticks: with the pid, it names one process for good.
    package var startTicks: Int

    /// Reads `/proc/PID/stat`; nil if the process is gone.
    package static func read(_ pid: Int32) -> ProcStat? {
        guard let text = SysFile.read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        // Fields after "(comm)": state is field 3; pgrp 5; utime 14; stime 15; starttime 22.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let state = fields[0].first, let group = Int32(fields[2]),
            let user = Int(fields[11]), let system = Int(fields[12]), let start = Int(fields[19])
        else { return nil }
        return ProcStat(pid: pid, state: state, processGroup: group, cpuTicks: user + system, startTicks: start)
    }

    package static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
}

package enum ProcFS {
    /// Resident memory of the process, in bytes (`VmRSS`, from `/proc/PID/statm`: cheaper than `status`).
    package static func residentBytes(_ pid: Int32) -> Int {
        let fields = SysFile.bytes("/proc/\(pid)/statm").map(SysFile.numbers) ?? []
        return fields.count > 1 ? fields[1] * pageSize : 0
    }

    package static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// The process and all its descendants (through `/proc/PID/task/*/children`).
    package static func tree(_ root: Int32) -> [Int32] {
        var result: [Int32] = []
        var queue = [root]
        while let pid = queue.popLast() {
            guard ProcStat.read(pid) != nil else { continue }
            result.append(pid)
            for thread in threads(of: pid) {
                let children = SysFile.read("/proc/\(pid)/task/\(thread)/children") ?? ""
                queue += children.split(separator: " ").compactMap { Int32($0.trimmingCharacters()) }
            }
        }
        return result
    }

    /// The processes the daemon of `socket` launched for apps, and each one's bundle identifier, from their
    /// environment (`OFFSTAGE_SOCKET`, `OFFSTAGE_BUNDLE_ID`): how a daemon without cgroups finds a lost run's apps.
    package static func appProcesses(launchedFor socket: String) -> [(pid: Int32, app: String)] {
        let socketEntry = Array("OFFSTAGE_SOCKET=\(socket)".utf8)
        let bundlePrefix = Array("OFFSTAGE_BUNDLE_ID=".utf8)
        return numberedEntries(of: "/proc").compactMap { pid in
            guard pid != getpid(), let environment = SysFile.bytes("/proc/\(pid)/environ") else { return nil }
            let entries = environment.split(separator: 0)
            guard entries.contains(where: { $0.elementsEqual(socketEntry) }),
                let bundle = entries.first(where: { $0.starts(with: bundlePrefix) })
            else { return nil }
            return (pid, String(decoding: bundle.dropFirst(bundlePrefix.count), as: UTF8.self))
        }
    }

    /// The entries of a folder whose names are numbers (processes in `/proc`, threads in `task`).
    private static func numberedEntries(of folder: String) -> [Int32] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var result: [Int32] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let number = Int32(name) { result.append(number) }
        }
        return result
    }

    /// The descriptors this process has open now (its `/proc/self/fd`, the listing's own among them).
    package static func openDescriptors() -> [Int32] { numberedEntries(of: "/proc/self/fd") }

    /// The thread ids of a process.
    package static func threads(of pid: Int32) -> [Int32] { numberedEntries(of: "/proc/\(pid)/task") }

    /// The process's cgroup in one hierarchy of `/proc/PID/cgroup` (the kernel's word): the v2 hierarchy
    /// (`controller` nil: the `0::` line) or the v1 hierarchy with that controller; nil if it has none.
    package static func cgroup(of pid: Int32, controller: String?) -> String? {
        for line in (SysFile.read("/proc/\(pid)/cgroup") ?? "").split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let matches =
                controller.map { fields[1].split(separator: ",").contains(Substring($0)) } ?? (fields[0] == "0")
            if matches { return String(fields[2]) }
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String { String(filter { !$0.isWhitespace }) }
}
