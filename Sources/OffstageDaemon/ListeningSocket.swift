import Glibc
import OffstageLinux
import OffstageProtocol

/// The daemon's listening Unix-domain socket and the kernel's word on who connected (`SO_PEERCRED`).
enum ListeningSocket {
    /// Connections the kernel keeps waiting for `accept`.
    static let backlog: Int32 = 128

    /// Binds and listens at `path` (mode 0666: anyone may connect; commands are checked per peer).
    /// A stale socket file is replaced; a live daemon at the same path is an error.
    static func open(at path: String) throws(DaemonError) -> Int32 {
        if SysFile.exists(path) {
            if (try? UnixSocket.connecting(to: path)).map({ $0.disconnect() }) != nil {
                throw DaemonError(.startup, "another daemon is already listening on \(path)")
            }
            unlink(path)
        }
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw DaemonError(.startup, "socket: \(String(cString: strerror(errno)))") }
        var address: sockaddr_un
        do { address = try UnixSocket.makeAddress(path) } catch { throw DaemonError(.startup, error.description) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, backlog) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw DaemonError(.startup, "cannot listen on \(path): \(why)")
        }
        chmod(path, 0o666)
        return fd
    }

    /// The next waiting connection (non-blocking, close-on-exec), or nil.
    static func accept(_ listener: Int32) -> Int32? {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// Whether the client has closed its end without sending anything (a connection left in the backlog by a
    /// client that gave up): taking it would only hold a descriptor until the next read finds the end of it.
    static func leftUnsaid(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    /// The process, user and group at the other end, as the kernel recorded them at `connect`.
    static func peer(of fd: Int32) -> PeerCredentials? {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials
    }
}

/// `struct ucred` (pid, uid, gid), which Glibc's Swift module does not export without `_GNU_SOURCE`.
struct PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
