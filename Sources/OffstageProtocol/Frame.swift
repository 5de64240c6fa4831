public import Foundation

/// The wire format between apps or the CLI and the daemon: one JSON message per frame,
/// a 4-byte big-endian length first, tagged with the protocol version. Size-limited both ways.
/// The JSON is written and read by `WireEncoder`/`WireDecoder` (the hot path of every app call).
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

    /// Encodes `payload` into a frame: length prefix and versioned JSON (written by `WireEncoder`).
    public static func encode<Payload: Codable>(_ payload: Payload) throws(Failure) -> Data {
        let body: [UInt8]
        do { body = try WireEncoder.encode(Envelope(version: version, payload: payload)) } catch {
            throw .malformed("\(error)")
        }
        guard body.count <= maxMessageBytes else { throw .tooLarge(bytes: body.count) }
        var frame = Data(capacity: 4 + body.count)
        withUnsafeBytes(of: UInt32(body.count).bigEndian) { frame.append(contentsOf: $0) }
        frame.append(contentsOf: body)
        return frame
    }

    /// Decodes one frame from the start of `data`, returning the payload and the bytes it used.
    public static func decode<Payload: Codable>(_ type: Payload.Type, from data: Data) throws(Failure) -> (Payload, Int)
    {
        guard data.count >= 4 else { throw .truncated }
        let length = data.prefix(4).reduce(0) { ($0 << 8) | Int($1) }
        guard length <= maxMessageBytes else { throw .tooLarge(bytes: length) }
        guard data.count >= 4 + length else { throw .truncated }
        let body = Array(data.dropFirst(4).prefix(length))
        return try body.withUnsafeBufferPointer { bytes throws(Failure) in
            // The common case in one pass; a failure is decoded again, step by step, to say what is wrong.
            if let envelope = try? WireDecoder.decode(Envelope<Payload>.self, from: bytes), envelope.version == version
            {
                return (envelope.payload, 4 + length)
            }
            guard let header = try? WireDecoder.decode(VersionOnly.self, from: bytes) else {
                throw .malformed("not a versioned JSON envelope")
            }
            guard header.version == version else { throw .wrongVersion(header.version) }
            do {
                return (try WireDecoder.decode(Envelope<Payload>.self, from: bytes).payload, 4 + length)
            } catch {
                throw .malformed("\(error)")
            }
        }
    }
}
