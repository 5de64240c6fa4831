/// Encodes `Encodable` values as the protocol's JSON, written straight into the frame's bytes: the same shapes as
/// Foundation's `JSONEncoder` (Swift's synthesized coding decides them), keys in encoding order, nil optionals left
/// out. Coding paths are not kept: the one error of a value, a number JSON cannot hold (infinity, NaN), names the
/// value only.
package enum WireEncoder {
    package static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        try append(value, to: &out)
        return out
    }

    /// Appends `value`'s JSON to `out`; on failure `out` is left as it was.
    package static func append<Value: Encodable>(_ value: Value, to out: inout [UInt8]) throws {
        let writer = WireWriter()
        swap(&writer.out, &out)
        defer { swap(&writer.out, &out) }
        let start = writer.out.count
        do {
            try writer.write(value, at: 0)
            if let misuse = writer.misuse {
                throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: misuse))
            }
        } catch {
            writer.out.removeSubrange(start...)
            throw error
        }
    }
}

/// The bytes being written and the containers still open in them, innermost last. A container is closed when
/// its parent writes its next member or item, or when the value that opened it is done, as Swift's coding
/// nests them; a write to a container already closed is recorded as misuse (an error, never other JSON).
final class WireWriter {
    var out: [UInt8] = []
    /// Why the containers were used out of order, if they were.
    var misuse: String?
    private var open: [Level] = []
    private var serials = 0

    /// An open object or array.
    private struct Level {
        /// `}` or `]`.
        let closer: UInt8
        /// Where its opening bracket is in `out`.
        let start: Int
        /// Which container this is, so that a stale copy of one closed is recognised.
        let serial: Int
        var count = 0
    }

    /// The two kinds of container.
    enum Bracket {
        case object, array

        var opener: UInt8 { self == .object ? UInt8(ascii: "{") : UInt8(ascii: "[") }
        var closer: UInt8 { self == .object ? UInt8(ascii: "}") : UInt8(ascii: "]") }
    }

    /// A container's place: the depth of its level and its serial.
    struct Place {
        let depth: Int
        let serial: Int
    }

    /// Writes `value` in the slot at `depth` (how many containers hold it), then closes what it opened; a value
    /// that wrote nothing is an empty object, as Foundation writes it.
    func write<Value: Encodable>(_ value: Value, at depth: Int) throws {
        let start = out.count
        try value.encode(to: WireEncoding(writer: self, depth: depth, start: start))
        closeContainers(from: depth)
        if out.count == start { out.put("{}") }
    }

    /// Opens an object or array as the value of the slot at `depth` that starts at `start`: the one already open
    /// there if the same value asks again.
    func openContainer(_ bracket: Bracket, at depth: Int, start: Int) -> Place {
        if open.count > depth, open[depth].start == start, open[depth].closer == bracket.closer {
            closeContainers(from: depth + 1)
            return Place(depth: depth, serial: open[depth].serial)
        }
        guard open.count == depth, out.count == start else {
            misuse = "a value was given a second container, or one after its contents"
            return Place(depth: depth, serial: -1)
        }
        serials += 1
        open.append(Level(closer: bracket.closer, start: out.count, serial: serials))
        out.append(bracket.opener)
        return Place(depth: depth, serial: serials)
    }

    /// Opens an object or array as the value of the member or item just started in the container at `place`.
    func nested(_ bracket: Bracket, in place: Place) -> Place {
        openContainer(bracket, at: place.depth + 1, start: out.count)
    }

    /// Super encoders are not supported (the protocol's types have no superclass): asking for one is misuse, and
    /// what is written through it is refused.
    func superEncoder(in place: Place) -> any Encoder {
        misuse = "super encoders are not supported"
        return WireEncoding(writer: self, depth: place.depth + 1, start: -1)
    }

    /// Starts the next member (with `key`) or item of the container at `place`: closes what is open inside it and
    /// writes the separator. False (misuse recorded) if that container is already closed.
    func next(in place: Place, key: String? = nil) -> Bool {
        guard open.count > place.depth, open[place.depth].serial == place.serial else {
            misuse = "a container was written to after it was closed"
            return false
        }
        closeContainers(from: place.depth + 1)
        if open[place.depth].count > 0 { out.append(UInt8(ascii: ",")) }
        open[place.depth].count += 1
        if let key {
            WireJSON.write(string: key, to: &out)
            out.append(UInt8(ascii: ":"))
        }
        return true
    }

    /// How many members or items the container at `place` has written.
    func count(of place: Place) -> Int {
        open.count > place.depth && open[place.depth].serial == place.serial ? open[place.depth].count : 0
    }

    /// Whether a scalar may be written in the slot at `depth` that starts at `start` (nothing written there yet).
    func mayWriteScalar(at depth: Int, start: Int) -> Bool {
        guard open.count == depth, out.count == start else {
            misuse = "a single value was written twice, or beside a container"
            return false
        }
        return true
    }

    /// Closes the containers at `depth` and deeper.
    func closeContainers(from depth: Int) {
        while open.count > depth { out.append(open.removeLast().closer) }
    }

    /// Appends a number; infinities and NaN, which JSON cannot hold, are an error.
    func put<Value: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Value) throws {
        guard out.put(value) else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(value) is not a JSON number"))
        }
    }
}

/// The `Encoder` a value's `encode(to:)` receives: the slot it is written in.
struct WireEncoding: Encoder {
    let writer: WireWriter
    /// How many containers hold the slot.
    let depth: Int
    /// Where the slot starts in the bytes.
    let start: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(
            WireKeyedEncoder<Key>(writer: writer, place: writer.openContainer(.object, at: depth, start: start)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        WireUnkeyedEncoder(writer: writer, place: writer.openContainer(.array, at: depth, start: start))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { WireSingleEncoder(encoding: self) }
}

/// The members of an object being written.
struct WireKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: WireWriter
    let place: WireWriter.Place
    var codingPath: [any CodingKey] { [] }

    /// Starts the member `key`; false if this object is closed (the misuse is recorded).
    private func member(_ key: Key) -> Bool { writer.next(in: place, key: key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws { if member(key) { writer.out.put("null") } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { if member(key) { writer.out.put(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { if member(key) { writer.out.put(string: value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { if member(key) { try writer.put(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { if member(key) { try writer.put(value) } }
    mutating func encode(_ value: Int, forKey key: Key) throws { if member(key) { writer.out.put(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { if member(key) { writer.out.put(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { if member(key) { writer.out.put(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { if member(key) { writer.out.put(value) } }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if member(key) { try writer.write(value, at: place.depth + 1) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        _ = member(key)
        return KeyedEncodingContainer(
            WireKeyedEncoder<NestedKey>(writer: writer, place: writer.nested(.object, in: place)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        _ = member(key)
        return WireUnkeyedEncoder(writer: writer, place: writer.nested(.array, in: place))
    }

    mutating func superEncoder() -> any Encoder { writer.superEncoder(in: place) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { writer.superEncoder(in: place) }
}

/// The items of an array being written.
struct WireUnkeyedEncoder: UnkeyedEncodingContainer {
    let writer: WireWriter
    let place: WireWriter.Place
    var codingPath: [any CodingKey] { [] }
    var count: Int { writer.count(of: place) }

    /// Starts the next item; false if this array is closed (the misuse is recorded).
    private func item() -> Bool { writer.next(in: place) }

    mutating func encodeNil() throws { if item() { writer.out.put("null") } }
    mutating func encode(_ value: Bool) throws { if item() { writer.out.put(value) } }
    mutating func encode(_ value: String) throws { if item() { writer.out.put(string: value) } }
    mutating func encode(_ value: Double) throws { if item() { try writer.put(value) } }
    mutating func encode(_ value: Int) throws { if item() { writer.out.put(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws { if item() { try writer.write(value, at: place.depth + 1) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        _ = item()
        return KeyedEncodingContainer(
            WireKeyedEncoder<NestedKey>(writer: writer, place: writer.nested(.object, in: place)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        _ = item()
        return WireUnkeyedEncoder(writer: writer, place: writer.nested(.array, in: place))
    }

    mutating func superEncoder() -> any Encoder { writer.superEncoder(in: place) }
}

/// A single value being written in its slot.
struct WireSingleEncoder: SingleValueEncodingContainer {
    let encoding: WireEncoding
    var codingPath: [any CodingKey] { [] }
    private var writer: WireWriter { encoding.writer }

    /// Whether the slot is still empty (otherwise the misuse is recorded).
    private func slot() -> Bool { writer.mayWriteScalar(at: encoding.depth, start: encoding.start) }

    mutating func encodeNil() throws { if slot() { writer.out.put("null") } }
    mutating func encode(_ value: Bool) throws { if slot() { writer.out.put(value) } }
    mutating func encode(_ value: String) throws { if slot() { writer.out.put(string: value) } }
    mutating func encode(_ value: Double) throws { if slot() { try writer.put(value) } }
    mutating func encode(_ value: Float) throws { if slot() { try writer.put(value) } }
    mutating func encode(_ value: Int) throws { if slot() { writer.out.put(value) } }
    mutating func encode(_ value: Int8) throws { if slot() { writer.out.put(value) } }
    mutating func encode(_ value: Int16) throws { if slot() { writer.out.put(value) } }
    mutating func encode(_ value: Int32) throws { if slot() { writer.out.put(value) } }
    mutating func encode(_ value: Int64) throws { if slot() { writer.out.put(value) } }
    mutating func encode(_ value: UInt) throws { if slot() { writer.out.put(value) } }
    mutating func encode(_ value: UInt8) throws { if slot() { writer.out.put(value) } }
    mutating func encode(_ value: UInt16) throws { if slot() { writer.out.put(value) } }
    mutating func encode(_ value: UInt32) throws { if slot() { writer.out.put(value) } }
    mutating func encode(_ value: UInt64) throws { if slot() { writer.out.put(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws { try value.encode(to: encoding) }
}
