import Foundation
import Glibc
import OffstageProtocol
import Testing

/// The daemon under systemd (`Packaging/systemd/offstage-daemon.service`, `Type=notify`): it tells the service
/// manager when it serves and when it stops, with datagrams to `$NOTIFY_SOCKET` (sd_notify's protocol).
@Suite(.serialized) struct DaemonServiceManagerTests {
    /// A test in the service manager's place binds a datagram socket, starts the real daemon with
    /// `NOTIFY_SOCKET` naming it, and reads `READY=1` once the daemon answers, then `STOPPING=1` at SIGTERM.
    @Test func theDaemonSendsReadyToNotifySocketOnceItListensAndStoppingWhenItStops() throws {
        let path = NSTemporaryDirectory() + "offstage-notify-\(UUID().uuidString.prefix(8)).sock"
        let manager = try DatagramListener(path: path)
        defer { manager.close() }
        let daemon = try DaemonHarness(environment: ["NOTIFY_SOCKET": path])
        let ready = try #require(manager.receive(timeout: 5), "no datagram from the daemon")
        #expect(ready.split(separator: "\n").contains("READY=1"), "got \(ready)")
        #expect(try daemon.status() != nil)
        daemon.stop()
        let stopping = try #require(manager.receive(timeout: 5), "no datagram when the daemon stopped")
        #expect(stopping.split(separator: "\n").contains("STOPPING=1"), "got \(stopping)")
    }
}

/// A bound Unix datagram socket, as systemd listens for sd_notify's messages.
final class DatagramListener {
    let fd: Int32
    let path: String

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = try UnixSocket.makeAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard fd >= 0, bound == 0 else { throw HarnessError("cannot bind \(path)") }
    }

    /// The next datagram as text, or nil if none arrives within `timeout` seconds.
    func receive(timeout: Double) -> String? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? String(decoding: buffer[..<n], as: UTF8.self) : nil
    }

    func close() {
        Glibc.close(fd)
        unlink(path)
    }
}
