import Glibc
import OffstageLinux

/// The lock that makes the daemon the only one using its state folder: `flock` on `lock` in it, held (and
/// `running PID` written there) for the daemon's life, emptied at a clean stop. A second daemon, on whatever
/// socket, stops at start naming the first; a start that finds `running` knows the last run did not stop cleanly.
struct StateLock: ~Copyable {
    private let fd: Int32
    /// Whether the previous daemon on this folder ended without its clean stop (killed, crashed, power cut).
    let previousRunEndedUncleanly: Bool

    init(folder: String) throws(DaemonError) {
        let path = folder + "/lock"
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DaemonError(.startup, "cannot open \(path): \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = SysFile.read(path).map { $0.filter(\.isNumber) } ?? ""
            // No close here: a throw after `fd` is set destroys the lock, whose deinit closes it.
            throw DaemonError(
                .startup,
                "the state folder \(folder) is in use by another daemon\(holder.isEmpty ? "" : " (pid \(holder))"): "
                    + "one daemon per state folder (stop it, or give this one its own --state-dir)")
        }
        previousRunEndedUncleanly = SysFile.read(path)?.hasPrefix("running") ?? false
        let pid = Array("running \(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, pid, pid.count, 0)
    }

    /// Says the daemon stopped cleanly (its store written and closed): the next start finds nothing to check.
    func markCleanStop() { _ = ftruncate(fd, 0) }

    deinit { close(fd) }
}
