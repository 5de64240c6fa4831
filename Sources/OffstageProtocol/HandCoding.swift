/// A message whose frequent forms are coded by hand: an app's calls and their answers, life-cycle callbacks.
/// The JSON is byte for byte what `WireEncoder` writes and is read exactly as `WireDecoder` reads it, so the
/// wire is unchanged; only the cost differs (no `Codable` machinery, no tree, no coding paths). Forms not coded
/// by hand, and any input that is not plain, go through the general coders, which also name every error.
protocol HandCodable {
    /// Appends the message's envelope JSON (`{"version":1,"payload":…}`) to `out` and returns true, or
    /// returns false having appended nothing when this form is not coded by hand.
    func appendHandCoded(to out: inout [UInt8]) -> Bool

    /// Reads a whole envelope of this message from a frame's body; nil when the bytes are not a plain,
    /// hand-coded form (the general decoder then reads them).
    static func handDecoded(from bytes: UnsafeBufferPointer<UInt8>) -> Self?
}

/// Picks the hand-written coding for a frame's payload type: a cast to each of the two message types, which the
/// compiler folds away where the entry points are specialized for them (`Frame.append`, `FrameBuffer.next`); a
/// dynamic cast to `HandCodable` (a conformance lookup) cost a third of a hand-coded decoding.
package enum HandCoding {
    /// Fills a member's slot with the value read for it: false (the form is not plain) when the member came
    /// before, or its value could not be read.
    static func once<Value>(_ slot: inout Value?, _ value: Value?) -> Bool {
        guard slot == nil, let value else { return false }
        slot = value
        return true
    }

    /// Fills an optional member's slot (`seen` marks it read): null leaves it nil; false (the form is not plain)
    /// when the member came before, or its value could not be read.
    static func onceOrNull<Value>(
        _ slot: inout Value?, _ seen: inout Bool, _ parser: inout WireJSON.Parser,
        _ read: (inout WireJSON.Parser) -> Value?
    ) -> Bool {
        guard !seen else { return false }
        seen = true
        if parser.null() { return true }
        slot = read(&parser)
        return slot != nil
    }

    /// Appends `payload`'s envelope by hand if its type and form allow; false (nothing appended) otherwise.
    package static func append<Payload>(_ payload: Payload, to out: inout [UInt8]) -> Bool {
        if let message = payload as? ClientMessage { return message.appendHandCoded(to: &out) }
        if let message = payload as? ServerMessage { return message.appendHandCoded(to: &out) }
        return false
    }

    /// Reads a `Payload` by hand from a frame's body if its type and form allow; nil otherwise.
    package static func decode<Payload>(_ type: Payload.Type, from bytes: UnsafeBufferPointer<UInt8>) -> Payload? {
        if type == ClientMessage.self { return ClientMessage.handDecoded(from: bytes) as? Payload }
        if type == ServerMessage.self { return ServerMessage.handDecoded(from: bytes) as? Payload }
        return nil
    }
}

extension HandCodable {
    /// Writes `{"version":1,"payload":` (the version this build speaks), the payload `write` appends + `}`; undoes everything if `write` fails.
    func appendEnvelope(to out: inout [UInt8], _ write: (inout [UInt8]) -> Bool) -> Bool {
        let mark = out.count
        out.put(#"{"version":"#)
        out.put(Frame.version)
        out.put(#","payload":"#)
        guard write(&out) else {
            out.removeSubrange(mark...)
            return false
        }
        out.put("}")
        return true
    }

    /// Reads an envelope whose payload `read` reads.
    static func readEnvelope(_ bytes: UnsafeBufferPointer<UInt8>, _ read: (inout WireJSON.Parser) -> Self?) -> Self? {
        var parser = WireJSON.Parser(bytes: bytes)
        return parser.envelope(read)
    }
}
