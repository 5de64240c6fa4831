import Foundation
import Glibc
import OffstageCore
import OffstageProtocol
import Testing

@testable import OffstageKit

/// OffstageKit's link to the daemon in a real process (§11): app code calls from any thread and each call gets
/// its own answer; when the daemon's connection breaks, the link connects again and sends the calls still
/// waiting; it gives up after its reconnect window. A fake daemon on a real Unix socket answers.
@Suite(.serialized) struct SocketLinkTests {
    /// A daemon stand-in: a listening Unix socket at a temporary path, accepting one connection at a time.
    final class FakeDaemon: Sendable {
        let path = NSTemporaryDirectory() + "offstage-link-\(UUID().uuidString.prefix(8)).sock"
        private let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)

        init() throws {
            var address = try UnixSocket.makeAddress(path)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard bound == 0, listen(listener, 8) == 0 else { throw LinkTestError("cannot listen on \(path)") }
        }

        /// Waits for the next connection (at most 10 s).
        func accept() throws -> UnixSocket {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 10_000) == 1 else { throw LinkTestError("nobody connected within 10 s") }
            return UnixSocket(fd: Glibc.accept(listener, nil, nil))
        }

        /// Stops listening and removes the socket: the daemon is gone.
        func stop() {
            close(listener)
            unlink(path)
        }

        deinit { stop() }
    }

    /// A link to `daemon` whose reader runs on a thread of its own; `served` is signalled when it gives up.
    func connect(to daemon: FakeDaemon, window: Double = 5) throws -> (SocketLink, UnixSocket, DispatchSemaphore) {
        let link = SocketLink(
            socket: try UnixSocket.connecting(to: daemon.path), path: daemon.path, bundle: "com.example.app",
            reconnectWindow: window)
        let server = try daemon.accept()
        let served = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            link.serve { _ in }
            served.signal()
        }
        return (link, server, served)
    }

    /// The number a test thread expects for its `beginBackgroundTask(withName:)`: "t3-17" → 3017.
    static func number(for name: String) -> Int {
        let parts = name.dropFirst().split(separator: "-").compactMap { Int($0) }
        return parts[0] * 1000 + parts[1]
    }

    /// An app's connection to the daemon is closed on `exec`: a process the app starts (a helper tool, a shell)
    /// does not inherit it and cannot speak for the app.
    @Test func anAppsConnectionToTheDaemonIsNotInheritedByWhatItExecutes() throws {
        let daemon = try FakeDaemon()
        defer { daemon.stop() }
        let socket = try UnixSocket.connecting(to: daemon.path)
        defer { socket.disconnect() }
        #expect(fcntl(socket.fd, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func callsFromManyThreadsEachGetTheirOwnAnswer() throws {
        let daemon = try FakeDaemon()
        let (link, server, _) = try connect(to: daemon)
        let runtime = AppRuntime(bundleIdentifier: "com.example.app", link: link, makeDelegate: { TestApp() })
        let (threads, rounds) = (8, 60)
        // The fake daemon answers in batches, newest first: answers come back out of order.
        Thread.detachNewThread {
            server.setReceiveTimeout(seconds: 0.005)
            var batch: [ClientMessage] = []
            while true {
                if let message = try? server.receiveMessage(ClientMessage.self) {
                    batch.append(message)
                    if batch.count < threads { continue }
                }
                for message in batch.reversed() {
                    guard case .call(let call, _) = message.body else { continue }
                    let result: AppCallResult =
                        switch call {
                        case .beginBackgroundTask(let name?): .backgroundTask(Self.number(for: name))
                        case .submit(let request) where request.identifier.hasSuffix(".odd"): .failed(.notPermitted)
                        default: .ok
                        }
                    try? server.sendMessage(ServerMessage.result(id: message.id, result: result))
                }
                batch = []
            }
        }
        let wrong = LockedValue<[String]>([])
        let finished = DispatchGroup()
        for thread in 0..<threads {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                for round in 0..<rounds {
                    let name = "t\(thread)-\(round)"
                    let identifier = runtime.application.beginBackgroundTask(withName: name) {}
                    if identifier.rawValue != Self.number(for: name) {
                        wrong.withValue { $0.append("\(name): \(identifier)") }
                    }
                    let request = BGAppRefreshTaskRequest(
                        identifier: "com.example.app.\(round % 2 == 1 ? "odd" : "even")")
                    let failed = (try? runtime.scheduler.submit(request)) == nil
                    if failed != (round % 2 == 1) { wrong.withValue { $0.append("\(name): submit failed \(failed)") } }
                    runtime.application.endBackgroundTask(identifier)
                }
            }
        }
        #expect(finished.wait(timeout: .now() + 60) == .success)
        #expect(wrong.value.isEmpty)
    }

    @Test func callWaitingWhenTheConnectionBreaksIsSentAgainAfterReconnecting() throws {
        let daemon = try FakeDaemon()
        let (link, first, _) = try connect(to: daemon)
        let answered = LockedValue<AppCallResult?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            answered.value = link.call(.beginBackgroundTask(name: "Export"))
            done.signal()
        }
        // The daemon reads the call and dies without answering.
        let lost = try first.receiveMessage(ClientMessage.self)
        first.disconnect()
        // The restarted daemon gets the same call again on the new connection, and answers it.
        let second = try daemon.accept()
        let again = try second.receiveMessage(ClientMessage.self)
        #expect(again == lost)
        try second.sendMessage(ServerMessage.result(id: again.id, result: .backgroundTask(7)))
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(answered.value == .backgroundTask(7))
        // Calls made after the reconnection go over the new connection.
        Thread.detachNewThread { _ = link.call(.applicationState) }
        let next = try second.receiveMessage(ClientMessage.self)
        #expect(next.body == .call(call: .applicationState, bundle: nil))
    }

    @Test func linkGivesUpWhenNoDaemonComesBackWithinItsWindow() throws {
        let daemon = try FakeDaemon()
        let (_, server, served) = try connect(to: daemon, window: 0.3)
        daemon.stop()
        server.disconnect()
        #expect(served.wait(timeout: .now() + 10) == .success)
    }
}

struct LinkTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
