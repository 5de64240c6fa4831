package import Foundation

/// The wire format between apps or the CLI and the daemon: one JSON message per frame,
/// a 4-byte big-endian length first, tagged with the protocol version. Size-limited both ways.
/// Every message is written and read by hand (`WireCoded`), straight into and out of the frame's bytes.
public enum Frame {
    /// The protocol version this build speaks.
    public static let version = 1
    /// The largest message accepted, in bytes; larger frames are refused before they are read.
    public static let maxMessageBytes = 64 * 1024

    /// A message in its envelope (the version and the payload) as `Codable` sees it: how a peer written with
    /// Foundation's `JSONEncoder`/`JSONDecoder` codes frames, which the tests check against this module's coding.
    public struct Envelope<Payload: Codable>: Codable {
        public var version: Int
        public var payload: Payload

        public init(version: Int, payload: Payload) {
            self.version = version
            self.payload = payload
        }
    }

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
    package static func encode<Payload: WireCoded>(_ payload: Payload) throws(Failure) -> Data {
        var frame: [UInt8] = []
        try append(payload, to: &frame)
        return Data(frame)
    }

    /// Appends the frame of `payload` to `out` (`WireCoded`: written straight into the bytes). On failure
    /// nothing is appended.
    package static func append<Payload: WireCoded>(_ payload: Payload, to out: inout [UInt8]) throws(Failure) {
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

    private static func appendFrame<Payload: WireCoded>(_ payload: Payload, to out: inout [UInt8]) throws(Failure) {
        let start = out.count
        for _ in 0..<4 { out.append(0) }  // the length, filled in below
        do throws(WireError) {
            try appendEnvelope(payload, to: &out)
        } catch {
            out.removeSubrange(start...)
            throw .malformed("\(error)")
        }
        let length = out.count - start - 4
        guard length <= maxMessageBytes else {
            out.removeSubrange(start...)
            throw .tooLarge(bytes: length)
        }
        for shift in 0..<4 { out[start + shift] = UInt8(truncatingIfNeeded: length >> (24 - 8 * shift)) }
    }

    /// Appends `{"version":1,"payload":…}`, the version this build speaks.
    package static func appendEnvelope<Payload: WireCoded>(_ payload: Payload, to out: inout [UInt8])
        throws(WireError)
    {
        out.put(#"{"version":"#)
        out.put(version)
        out.put(#","payload":"#)
        try payload.write(to: &out)
        out.put("}")
    }

    /// The length a frame's 4-byte prefix declares.
    static func declaredLength(_ prefix: some Collection<UInt8>) -> Int {
        prefix.prefix(4).reduce(0) { ($0 << 8) | Int($1) }
    }

    /// Decodes one frame from the start of `data`, returning the payload and the bytes it used.
    package static func decode<Payload: WireCoded>(_ type: Payload.Type, from data: Data) throws(Failure)
        -> (Payload, Int)
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

    /// Decodes a frame's body (its JSON), read in place as the payload's type asks for it; what is wrong is
    /// named as a reader needs it (`refusal`).
    package static func decode<Payload: WireCoded>(_ type: Payload.Type, body bytes: UnsafeBufferPointer<UInt8>)
        throws(Failure) -> Payload
    {
        var reader = WireReader(bytes: bytes)
        do throws(WireError) {
            let (version, payload) = try reader.fields(("version", Int.self), ("payload", Payload.self))
            guard reader.atEnd(), !reader.skippedMembers || (try? WireJSON.parse(bytes)) != nil,
                version == Self.version
            else { throw WireError("not a plain envelope of this version") }
            return payload
        } catch {
            throw refusal(of: bytes, error)
        }
    }

    /// Why a frame's JSON was refused, the first of: JSON that does not parse (a key given twice, bytes that are
    /// not UTF-8…), no whole-number `version`, another version, then what reading the payload found.
    private static func refusal(of bytes: UnsafeBufferPointer<UInt8>, _ error: WireError) -> Failure {
        let json: WireJSON
        do { json = try WireJSON.parse(bytes) } catch { return .malformed("not JSON: \(error)") }
        guard json.values[0].kind == .object, let member = json.member("version", of: 0),
            json.values[member].kind == .number
        else { return .malformed("not a versioned JSON envelope") }
        var reader = WireReader(bytes: json.rawBytes(member))
        guard let found = try? reader.integer(Int.self) else { return .malformed("not a versioned JSON envelope") }
        guard found == version else { return .wrongVersion(found) }
        return .malformed("\(error)")
    }
}
