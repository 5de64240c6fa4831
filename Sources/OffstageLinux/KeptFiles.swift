import Glibc
package import OffstageCore

/// Control files kept open, one per app: the cgroup freezer's `cgroup.freeze` (or v1 `freezer.state`), written
/// at every suspension and resumption. Opening the file each time (a path built, `open`, `write`, `close`) cost
/// more than the write; a kept descriptor makes it one `pwrite`. A descriptor whose group was removed and made
/// again no longer works: the write fails, and the file is opened anew once.
package final class KeptFiles {
    private var descriptors: [BundleID: Int32] = [:]

    package init() {}

    deinit { for fd in descriptors.values { close(fd) } }

    /// Writes `value` to the app's file at `path` (opened on first use); false (with `errno` set) if the kernel
    /// refused it even through a fresh descriptor.
    @discardableResult
    package func write(_ value: StaticString, app: BundleID, path: @autoclosure () -> String) -> Bool {
        if let fd = descriptors[app], Self.write(value, to: fd) { return true }
        if let stale = descriptors.removeValue(forKey: app) { close(stale) }
        let fd = open(path(), O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        descriptors[app] = fd
        return Self.write(value, to: fd)
    }

    private static func write(_ value: StaticString, to fd: Int32) -> Bool {
        pwrite(fd, value.utf8Start, value.utf8CodeUnitCount, 0) == value.utf8CodeUnitCount
    }
}
