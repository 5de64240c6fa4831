import OffstageCore

/// A control connection to the daemon (`offstage ctl`, tests, benchmarks): one command, one reply.
public final class ControlClient: @unchecked Sendable {
    public let socket: UnixSocket
    private var nextID = 1

    /// Connects to the daemon at `path`; with `timeout`, a reply that takes longer is an error, not a hang.
    public init(path: String, timeout: Double? = nil) throws(UnixSocket.Failure) {
        socket = try UnixSocket.connecting(to: path)
        if let timeout { socket.setReceiveTimeout(seconds: timeout) }
    }

    deinit { socket.disconnect() }

    /// Sends `command` and waits for its reply; a refusal throws with the daemon's message.
    public func send(_ command: ControlCommand) throws(UnixSocket.Failure) -> ControlReply {
        let id = nextID
        nextID += 1
        try socket.sendMessage(ClientMessage(id: id, body: .control(command: command)))
        while true {
            switch try socket.receiveMessage(ServerMessage.self) {
            case .reply(id, let reply): return reply
            case .error(let replyID, let message) where replyID == id || replyID == nil:
                throw UnixSocket.Failure(message: message)
            default: continue
            }
        }
    }
}
