import Foundation
import Glibc
import Synchronization

/// Tells the loop when a process the daemon did not start ends: an app process adopted after a restart is
/// the child of the daemon that crashed, so `waitpid` never sees it. Each one gets a pidfd, which `poll`
/// reports readable when the process exits; one thread waits on them, and only while there are some.
/// The loop adds processes and the watching thread removes them: what they share sits behind one `Mutex`.
package final class ExitWatcher: Sendable {
    /// What the loop and the watching thread share: the processes watched and whether the thread runs.
    private struct Watched {
        /// pidfd → pid of every process watched.
        var processes: [Int32: Int32] = [:]
        var threadStarted = false
    }

    private let state = Mutex(Watched())
    /// A pipe that wakes the thread when a process is added.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let onExit: @Sendable (Int32, String) -> Void

    package init(onExit: @escaping @Sendable (_ pid: Int32, _ how: String) -> Void) throws(HostError) {
        self.onExit = onExit
        guard let ends = SysFile.wakeUpPipe() else {
            throw HostError(.system, "pipe: \(String(cString: strerror(errno)))")
        }
        (wakeRead, wakeWrite) = ends
    }

    /// Starts watching `pid`; false where the kernel cannot (no `pidfd_open`: Linux before 5.3).
    package func watch(_ pid: Int32) -> Bool {
        guard let open = Self.pidfdOpen else { return false }
        let fd = open(pid, 0)
        guard fd >= 0 else { return false }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let startThread = state.withLock { watched in
            watched.processes[fd] = pid
            defer { watched.threadStarted = true }
            return !watched.threadStarted
        }
        if startThread {
            let thread = Thread { [self] in serve() }
            thread.name = "offstage-exits"
            thread.start()
        } else {
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
        return true
    }

    private func serve() {
        while true {
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            fds += state.withLock { $0.processes.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } }
            guard poll(&fds, nfds_t(fds.count), -1) > 0 else { continue }
            for entry in fds where entry.revents != 0 {
                if entry.fd == wakeRead {
                    var buffer = [UInt8](repeating: 0, count: 64)
                    while read(wakeRead, &buffer, buffer.count) > 0 {}
                    continue
                }
                guard let pid = state.withLock({ $0.processes.removeValue(forKey: entry.fd) }) else { continue }
                close(entry.fd)
                onExit(pid, "ended (adopted after a restart: its exit status goes to its new parent)")
            }
        }
    }

    /// glibc's `pidfd_open` (2.36 and later), or the system call itself through `syscall`.
    private static let pidfdOpen: (@Sendable (Int32, UInt32) -> Int32)? = {
        let handle = dlopen(nil, RTLD_NOW)
        if let symbol = dlsym(handle, "pidfd_open") {
            typealias Open = @convention(c) (Int32, UInt32) -> Int32
            let open = unsafeBitCast(symbol, to: Open.self)
            return { open($0, $1) }
        }
        guard let symbol = dlsym(handle, "syscall") else { return nil }
        typealias Syscall = @convention(c) (Int, Int32, UInt32) -> Int
        let call = unsafeBitCast(symbol, to: Syscall.self)
        let sysPidfdOpen = 434  // the same number on every Linux architecture
        return { Int32(truncatingIfNeeded: call(sysPidfdOpen, $0, $1)) }
    }()
}
