import Glibc
import OffstageLinux

/// The lock that makes the daemon the only one using its state folder: `flock` on `lock` in it, held (and its
/// pid written there) for the daemon's life. A second daemon, on whatever socket, stops at start naming the first.
struct StateLock: ~Copyable {
    private let fd: Int32

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
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, pid, pid.count, 0)
    }

    deinit { close(fd) }
}
