/// A value of a type not yet coded by hand, inside a message that is: written by `WireEncoder` and read by
/// `WireDecoder` where it lies in the frame, the same JSON as the rest. What still goes through it is what is
/// left to move to `WireCoded` before the general coder is deleted.
struct WireGeneral<Value: Codable & Sendable>: WireCoded {
    var value: Value

    init(_ value: Value) { self.value = value }

    package func write(to out: inout [UInt8]) throws(WireError) {
        do { try WireEncoder.append(value, to: &out) } catch { throw WireError("\(error)") }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let bytes = try reader.valueBytes()
        do { value = try WireDecoder.decode(Value.self, from: bytes) } catch { throw WireError("\(error)") }
    }
}
