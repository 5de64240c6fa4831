public import Foundation

/// The wire format between apps or the CLI and the daemon: one JSON message per frame,
/// a 4-byte big-endian length first, tagged with the protocol version. Size-limited both ways.
/// The JSON of an app's calls, their answers and callbacks is written and read by hand (`HandCoding.swift`,
/// the hot path of every call); everything else by `WireEncoder`/`WireDecoder`.
public enum Frame {
    /// The protocol version this build speaks.
    public static let version = 1
    /// The largest message accepted, in bytes; larger frames are refused before they are read.
    public static let maxMessageBytes = 64 * 1024

    /// A message in its envelope: the version and the payload.
    public struct Envelope<Payload: Codable>: Codable {
        public var version: Int
        public var payload: Payload

        public init(version: Int, payload: Payload) {
            self.version = version
            self.payload = payload
        }
    }

    /// The envelope's version alone, read before the payload so a newer peer gets a clear error.
    struct VersionOnly: Codable { var version: Int }

    /// Why a frame was refused.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case tooLarge(bytes: Int)
        case truncated
        case wrongVersion(Int)
        case malformed(String)

        public var description: String {
            switch self {
            case .tooLarge(let bytes): "message of \(bytes) bytes exceeds the limit of \(Frame.maxMessageBytes)"
            case .truncated: "the frame ends before its declared length"
            case .wrongVersion(let version): "protocol version \(version) is not \(Frame.version)"
            case .malformed(let why): "malformed message: \(why)"
            }
        }
    }

    /// Encodes `payload` into a frame: length prefix and versioned JSON.
    public static func encode<Payload: Codable>(_ payload: Payload) throws(Failure) -> Data {
        var frame: [UInt8] = []
        try append(payload, to: &frame)
        return Data(frame)
    }

    /// Appends the frame of `payload` to `out`: the hot messages coded by hand (`HandCoding.swift`), the rest
    /// by `WireEncoder`; the same JSON either way. On failure nothing is appended.
    public static func append<Payload: Codable>(_ payload: Payload, to out: inout [UInt8]) throws(Failure) {
        try appendFrame(payload, to: &out)
    }

    /// `append` for what the daemon sends, compiled for its type (see `FrameBuffer.next`).
    public static func append(_ message: ServerMessage, to out: inout [UInt8]) throws(Failure) {
        try appendFrame(message, to: &out)
    }

    /// `append` for what apps and `ctl` send, compiled for its type.
    public static func append(_ message: ClientMessage, to out: inout [UInt8]) throws(Failure) {
        try appendFrame(message, to: &out)
    }

    private static func appendFrame<Payload: Codable>(_ payload: Payload, to out: inout [UInt8]) throws(Failure) {
        let start = out.count
        for _ in 0..<4 { out.append(0) }  // the length, filled in below
        if !HandCoding.append(payload, to: &out) {
            do { try WireEncoder.append(Envelope(version: version, payload: payload), to: &out) } catch {
                out.removeSubrange(start...)
                throw .malformed("\(error)")
            }
        }
        let length = out.count - start - 4
        guard length <= maxMessageBytes else {
            out.removeSubrange(start...)
            throw .tooLarge(bytes: length)
        }
        for shift in 0..<4 { out[start + shift] = UInt8(truncatingIfNeeded: length >> (24 - 8 * shift)) }
    }

    /// The length a frame's 4-byte prefix declares.
    static func declaredLength(_ prefix: some Collection<UInt8>) -> Int {
        prefix.prefix(4).reduce(0) { ($0 << 8) | Int($1) }
    }

    /// Decodes one frame from the start of `data`, returning the payload and the bytes it used.
    public static func decode<Payload: Codable>(_ type: Payload.Type, from data: Data) throws(Failure) -> (Payload, Int)
    {
        guard data.count >= 4 else { throw .truncated }
        let length = declaredLength(data)
        guard length <= maxMessageBytes else { throw .tooLarge(bytes: length) }
        guard data.count >= 4 + length else { throw .truncated }
        let decoded: Result<Payload, Failure> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return Result { () throws(Failure) in
                try decode(type, body: UnsafeBufferPointer(rebasing: bytes[4..<4 + length]))
            }
        }
        return (try decoded.get(), 4 + length)
    }

    /// Decodes a frame's body (its JSON): the hot messages by hand, the rest (and anything not plain) by
    /// `WireDecoder`, from one parse that names what is wrong: the JSON, the version or a field.
    static func decode<Payload: Codable>(_ type: Payload.Type, body bytes: UnsafeBufferPointer<UInt8>) throws(Failure)
        -> Payload
    {
        if let message = HandCoding.decode(type, from: bytes) { return message }
        let document: WireDocument
        do { document = WireDocument(try WireJSON.parse(bytes)) } catch { throw .malformed("not JSON: \(error)") }
        guard let header = try? WireDecoder.decode(VersionOnly.self, from: document) else {
            throw .malformed("not a versioned JSON envelope")
        }
        guard header.version == version else { throw .wrongVersion(header.version) }
        do {
            return try WireDecoder.decode(Envelope<Payload>.self, from: document).payload
        } catch {
            throw .malformed("\(error)")
        }
    }
}
