public import Foundation

/// Bytes read from a stream, cut into frames as they complete: what a socket reader keeps per connection.
/// A bad frame is skipped when its length is known; a length over the limit cannot be skipped safely.
public struct FrameBuffer: Sendable {
    private var bytes = Data()

    public init() {}

    /// The next step for the reader.
    public enum Next<Payload: Sendable>: Sendable {
        /// A whole, valid message.
        case message(Payload)
        /// A frame that could not be read; `fatal` when the stream cannot go on (the length was too large).
        case failure(Frame.Failure, fatal: Bool)
        /// The next frame is not complete yet.
        case needMore
    }

    /// Whether bytes of an unfinished frame are waiting (at the end of a stream: a truncated frame).
    public var hasPartialFrame: Bool { !bytes.isEmpty }

    public mutating func append(_ data: Data) { bytes.append(data) }

    /// Takes the next whole frame from the buffer, if there is one.
    public mutating func next<Payload: Codable & Sendable>(_ type: Payload.Type) -> Next<Payload> {
        guard bytes.count >= 4 else { return .needMore }
        let length = bytes.prefix(4).reduce(0) { ($0 << 8) | Int($1) }
        guard length <= Frame.maxMessageBytes else { return .failure(.tooLarge(bytes: length), fatal: true) }
        guard bytes.count >= 4 + length else { return .needMore }
        defer { bytes = Data(bytes.dropFirst(4 + length)) }
        do {
            return .message(try Frame.decode(type, from: bytes).0)
        } catch {
            return .failure(error, fatal: false)
        }
    }
}
