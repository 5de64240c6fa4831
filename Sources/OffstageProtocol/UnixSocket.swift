public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connected Unix-domain stream socket with blocking frame I/O: the client side of the protocol
/// (apps through OffstageKit, `offstage ctl`, tests and benchmarks).
public final class UnixSocket: @unchecked Sendable {
    public let fd: Int32
    private var buffer = FrameBuffer()
    /// Where `receiveMessage` reads to (made once: a fresh buffer per read costs more than the read).
    private var chunk: [UInt8] = []
    private var closed = false

    /// A socket error, with the call that failed and `errno`'s text.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ what: String) { description = "\(what): \(String(cString: strerror(errno)))" }
        init(message: String) { description = message }
    }

    public init(fd: Int32) { self.fd = fd }

    /// Connects to the socket at `path`.
    public static func connecting(to path: String) throws(Failure) -> UnixSocket {
        let fd = socket(AF_UNIX, Self.streamType, 0)
        guard fd >= 0 else { throw Failure("socket") }
        var address = try makeAddress(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let failure = Failure("connect \(path)")
            _ = close(fd)
            throw failure
        }
        return UnixSocket(fd: fd)
    }

    /// A stream socket closed on `exec`: a process the app starts must not hold its connection to the daemon.
    #if os(Linux)
        static let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    #else
        static let streamType = SOCK_STREAM
    #endif

    /// A `sockaddr_un` for `path`; paths longer than the kernel's limit are refused.
    public static func makeAddress(_ path: String) throws(Failure) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw Failure(message: "socket path longer than \(capacity - 1) bytes: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// Writes all of `data`.
    public func writeAll(_ data: Data) throws(Failure) {
        try data.withUnsafeBytes { raw in Result { () throws(Failure) in try writeAll(raw) } }.get()
    }

    /// Writes all of `raw`.
    func writeAll(_ raw: UnsafeRawBufferPointer) throws(Failure) {
        var sent = 0
        while sent < raw.count {
            let n = send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure("send") }
            sent += n
        }
    }

    /// Sends `message` as one frame.
    package func sendMessage<Payload: WireCoded>(_ message: Payload) throws(Failure) { try sendFrame(message) }

    /// `sendMessage` for what apps and `ctl` send, compiled for its type (see `FrameBuffer.next`).
    public func sendMessage(_ message: ClientMessage) throws(Failure) { try sendFrame(message) }

    private func sendFrame<Payload: WireCoded>(_ message: Payload) throws(Failure) {
        var frame: [UInt8] = []
        frame.reserveCapacity(256)
        do { try Frame.append(message, to: &frame) } catch { throw Failure(message: error.description) }
        try frame.withUnsafeBytes { raw in Result { () throws(Failure) in try writeAll(raw) } }.get()
    }

    /// Blocks until one whole message arrives; throws at the end of the stream or on a bad frame.
    package func receiveMessage<Payload: WireCoded & Sendable>(_ type: Payload.Type) throws(Failure) -> Payload {
        try receiveFrame(type)
    }

    /// `receiveMessage` for what apps and `ctl` read, compiled for its type.
    public func receiveMessage(_ type: ServerMessage.Type) throws(Failure) -> ServerMessage { try receiveFrame(type) }

    private func receiveFrame<Payload: WireCoded & Sendable>(_ type: Payload.Type) throws(Failure) -> Payload {
        if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: 16 * 1024) }
        while true {
            switch buffer.next(type) {
            case .message(let message): return message
            case .failure(let failure, _): throw Failure(message: failure.description)
            case .needMore: break
            }
            guard !closed else { throw Failure(message: "the connection was closed") }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw Failure("recv") }
            if n == 0 { closed = true }
            chunk.withUnsafeBytes { buffer.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
    }

    /// Makes a blocking receive give up after `seconds` (`SO_RCVTIMEO`).
    public func setReceiveTimeout(seconds: Double) {
        var limit = timeval(tv_sec: Int(seconds), tv_usec: .init((seconds - seconds.rounded(.down)) * 1e6))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Closes the socket (once).
    public func disconnect() { _ = close(fd) }
}
