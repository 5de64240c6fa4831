public import Foundation

/// Bytes read from a stream, cut into frames as they complete: what a socket reader keeps per connection.
/// Frames are decoded where they lie (no copy per frame); the space of consumed frames is reused.
/// A bad frame is skipped when its length is known; a length over the limit cannot be skipped safely.
public struct FrameBuffer: Sendable {
    private var bytes: [UInt8] = []
    /// Where the next frame starts; everything before it is consumed.
    private var start = 0
    /// The `"id"` the last frame that could not be decoded carried, if one can be read in it: its error answer
    /// names the request, so that a client waiting on that id is answered.
    public private(set) var failedID: Int?

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
    public var hasPartialFrame: Bool { start < bytes.count }

    public mutating func append(_ data: Data) {
        data.withUnsafeBytes { append($0) }
    }

    /// Appends bytes just read (from a reader's own scratch buffer).
    public mutating func append(_ chunk: UnsafeRawBufferPointer) {
        if start == bytes.count {
            // A large message's space is given back once read: an idle connection keeps at most 16 KB.
            bytes.removeAll(keepingCapacity: bytes.capacity <= 16 * 1024)
            start = 0
        } else if start >= 4096 && start * 2 >= bytes.count {
            bytes.removeSubrange(..<start)
            start = 0
        }
        bytes.append(contentsOf: chunk)
    }

    /// Takes the next whole frame from the buffer, if there is one.
    package mutating func next<Payload: WireCoded & Sendable>(_ type: Payload.Type) -> Next<Payload> { nextFrame(type) }

    /// `next` for what the daemon reads, compiled for its type: the generic version, called from another
    /// module, looks up generic metadata at every frame.
    public mutating func next(_ type: ClientMessage.Type) -> Next<ClientMessage> { nextFrame(type) }

    /// `next` for what apps and `ctl` read, compiled for its type.
    public mutating func next(_ type: ServerMessage.Type) -> Next<ServerMessage> { nextFrame(type) }

    private mutating func nextFrame<Payload: WireCoded & Sendable>(_ type: Payload.Type) -> Next<Payload> {
        guard bytes.count - start >= 4 else { return .needMore }
        let length = Frame.declaredLength(bytes[start...])
        guard length <= Frame.maxMessageBytes else { return .failure(.tooLarge(bytes: length), fatal: true) }
        guard bytes.count - start >= 4 + length else { return .needMore }
        let body = start + 4..<start + 4 + length
        start = body.upperBound
        do {
            return .message(
                try bytes.withUnsafeBufferPointer { all throws(Frame.Failure) in
                    try Frame.decode(type, body: UnsafeBufferPointer(rebasing: all[body]))
                })
        } catch {
            failedID = Self.firstID(in: bytes[body])
            return .failure(error, fatal: false)
        }
    }

    /// The integer after the first `"id":` in `body` (white space allowed after the colon), if any.
    private static func firstID(in body: ArraySlice<UInt8>) -> Int? {
        let key = Array(#""id":"#.utf8)
        guard body.count > key.count,
            let found = body.indices.dropLast(key.count).first(where: { body[$0..<$0 + key.count].elementsEqual(key) })
        else { return nil }
        let digits = body[(found + key.count)...].drop { $0 == UInt8(ascii: " ") }.prefix {
            $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
        return Int(String(decoding: digits.prefix(20), as: UTF8.self))
    }
}
