import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel's own record of a control group's freezer: a tracefs instance of the benchmark's own (the global
/// trace is left alone) with the events `cgroup_freeze`, `cgroup_unfreeze` (the write reaching the kernel) and
/// `cgroup_notify_frozen` (the moment the kernel sets `frozen` in `cgroup.events` and wakes its watchers), on
/// the monotonic clock, so that they compare with `CLOCK_MONOTONIC` times taken in any process. Times the freezer
/// without a watcher: a watching process only learns of the change when the scheduler runs it, which depends on
/// what else wants its CPU, and that is not the same for the daemon's path as for a direct write.
final class KernelFreezerTrace {
    /// One freezer event: which, when (nanoseconds, `CLOCK_MONOTONIC`, to the microsecond: tracefs prints
    /// microseconds), and for `cgroup_notify_frozen` the new value of `frozen`.
    struct Event {
        var name: String
        var at: UInt64
        var frozen: Bool?
    }

    private let folder: String

    /// Starts tracing the v2 group `path` (relative to the v2 root, e.g. `/offstage-bench/bench.app`); nil where
    /// tracefs is missing or refuses (not root, no cgroup tracepoints, no `mono` clock).
    init?(groupPath path: String) {
        guard
            let root = ["/sys/kernel/tracing", "/sys/kernel/debug/tracing"].first(where: {
                FileManager.default.fileExists(atPath: $0 + "/instances")
            })
        else { return nil }
        folder = "\(root)/instances/offstage-bench-\(getpid())"
        guard mkdir(folder, 0o700) == 0 else { return nil }
        let events = ["cgroup_freeze", "cgroup_unfreeze", "cgroup_notify_frozen"]
        let written =
            Self.write("mono", to: folder + "/trace_clock")
            && events.allSatisfy { event in
                Self.write("path == \"\(path)\"", to: "\(folder)/events/cgroup/\(event)/filter")
                    && Self.write("1", to: "\(folder)/events/cgroup/\(event)/enable")
            }
        guard written else {
            remove()
            return nil
        }
    }

    /// Every event recorded so far, in order.
    func events() -> [Event] {
        let text = Self.read(folder + "/trace")
        return text.split(separator: "\n").compactMap { line -> Event? in
            guard !line.hasPrefix("#"), let colon = line.range(of: ": cgroup_") else { return nil }
            // "… [000] d..2. 22193.127880: cgroup_notify_frozen: root=0 id=… path=/… val=1"
            guard let stamp = line[..<colon.lowerBound].split(separator: " ").last,
                let dot = stamp.firstIndex(of: "."),
                let seconds = UInt64(stamp[..<dot]), let micros = UInt64(stamp[stamp.index(after: dot)...])
            else { return nil }
            let rest = line[colon.upperBound...]
            let name = "cgroup_" + rest.prefix { $0 != ":" }
            let frozen = rest.hasSuffix("val=1") ? true : rest.hasSuffix("val=0") ? false : nil
            return Event(name: name, at: seconds * 1_000_000_000 + micros * 1000, frozen: frozen)
        }
    }

    /// Stops tracing and removes the instance.
    func remove() {
        _ = Self.write("0", to: folder + "/tracing_on")
        rmdir(folder)
    }

    /// The whole of a tracefs file (Foundation's file reading stops after the first page of these files).
    private static func read(_ path: String) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while case let n = Glibc.read(fd, &chunk, chunk.count), n > 0 { bytes += chunk[0..<n] }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_TRUNC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return text.withCString { Glibc.write(fd, $0, strlen($0)) } == text.utf8.count
    }
}
