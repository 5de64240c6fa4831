import Glibc

/// systemd's readiness protocol (`sd_notify`, for a `Type=notify` unit): one datagram per state change to the
/// Unix socket named by `$NOTIFY_SOCKET` (a path, or `@name` for an abstract one). Without it, nothing is sent.
package struct ServiceNotifier: Sendable {
    /// The socket the service manager listens on; nil when the daemon was not started by one.
    package let socketPath: String?

    package init(socketPath: String?) {
        self.socketPath = socketPath.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Sends `state` (`READY=1`, `STOPPING=1`, `STATUS=…`, newline-separated assignments); returns why it could
    /// not, or nil once sent (or when there is no service manager to tell).
    @discardableResult
    package func notify(_ state: String) -> String? {
        guard let socketPath else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socketPath.utf8)
        // An abstract socket's name starts with a NUL byte, which `@` stands for.
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return "NOTIFY_SOCKET longer than \(capacity - 1) bytes" }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + bytes.count)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return "socket: \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                message.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), target, length) }
            }
        }
        return sent == message.count ? nil : "sendto \(socketPath): \(String(cString: strerror(errno)))"
    }
}
