import OffstageCore

/// A control connection to the daemon (`offstage ctl`, tests, benchmarks): one command, one reply.
public final class ControlClient: @unchecked Sendable {
    public let socket: UnixSocket
    private var nextID = 1

    public init(path: String) throws(UnixSocket.Failure) { socket = try UnixSocket.connecting(to: path) }

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
