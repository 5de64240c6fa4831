#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a frame's JSON in place, value by value, as the types being read ask for them: no tree, keys compared as
/// bytes, nothing allocated but the strings a message holds. Every error says what was expected and what was
/// found; the member or item it is in is added as it goes up (`WireError.inside`). It reads what Foundation's
/// decoder reads: members in any order, unknown members skipped, integers written `7` or `7.0`.
package struct WireReader {
    private var parser: WireJSON.Parser
    /// How many objects and arrays hold the value being read.
    private var depth = 0
    /// Whether a member no type knows was skipped: its key was not compared with the others of its object, so
    /// the frame is then parsed whole (`WireJSON.parse`) to refuse a key given twice.
    private(set) var skippedMembers = false

    init(bytes: UnsafeBufferPointer<UInt8>) { parser = WireJSON.Parser(bytes: bytes) }

    /// The bytes of a member's key, compared with the names a type expects.
    struct Key {
        let bytes: UnsafeBufferPointer<UInt8>
        /// The key's text when it was written with escapes (`bytes` is then empty).
        let escaped: String?

        static func == (key: Key, name: StaticString) -> Bool {
            if let escaped = key.escaped { return escaped == name.description }
            return key.bytes.count == name.utf8CodeUnitCount
                && (key.bytes.isEmpty || memcmp(key.bytes.baseAddress!, name.utf8Start, key.bytes.count) == 0)
        }

        static func ~= (name: StaticString, key: Key) -> Bool { key == name }

        var text: String { escaped ?? String(decoding: bytes, as: UTF8.self) }
    }

    /// A value as the general parser read it: its kind in words, for an error that says what was found.
    private mutating func found() -> String {
        parser.skipSpace()
        guard parser.index < parser.bytes.count else { return "the end of the message" }
        switch parser.bytes[parser.index] {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default:
            let number = numberText()
            return number.isEmpty ? "an unexpected character" : "the number \(String(decoding: number, as: UTF8.self))"
        }
    }

    /// An error that `expected` was wanted where something else was found.
    private mutating func mismatch(_ expected: String) -> WireError {
        WireError("expected \(expected), found \(found())")
    }

    /// Whether the next byte (after white space) is `byte`, stepping past it if so.
    @inline(__always)
    private mutating func take(_ byte: Unicode.Scalar) -> Bool {
        parser.skipSpace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: byte) else { return false }
        parser.index += 1
        return true
    }

    /// Steps into an object or array; too deep a nesting is refused (a hostile frame must not exhaust the stack).
    @inline(__always)
    private mutating func enter() throws(WireError) {
        guard depth < WireJSON.maxDepth else { throw WireError("nested deeper than \(WireJSON.maxDepth)") }
        depth += 1
    }

    // MARK: Containers

    /// Reads an object, handing each member's key to `member`, which reads the value and says whether it knows
    /// the key; an unknown member's value is skipped (checked as JSON), as Foundation's decoder ignores it.
    mutating func members(_ member: (inout WireReader, Key) throws(WireError) -> Bool) throws(WireError) {
        guard take("{") else { throw mismatch("an object") }
        try enter()
        defer { depth -= 1 }
        if take("}") { return }
        repeat {
            let key = try key()
            do throws(WireError) {
                if try !member(&self, key) { try skipValue() }
            } catch { throw error.inside(key.text) }
        } while try nextMember()
    }

    /// Reads an enum case, `{"name": {…}}`: the object of exactly one member, whose key `reader` turns into the
    /// reading of the case's value (or an error naming an unknown case).
    mutating func enumCase<Value>(
        _ reader: (Key) throws(WireError) -> (inout WireReader) throws(WireError) -> Value
    ) throws(WireError) -> Value {
        guard take("{") else { throw mismatch("an object naming one case") }
        try enter()
        defer { depth -= 1 }
        guard !take("}") else { throw WireError("expected one member naming the case, found none") }
        let key = try key()
        let read = try reader(key)
        let value: Value
        do throws(WireError) { value = try read(&self) } catch { throw error.inside(key.text) }
        guard try !nextMember() else { throw WireError("expected one member naming the case, found more") }
        return value
    }

    /// Reads an array, `item` reading each of its items.
    mutating func items(_ item: (inout WireReader) throws(WireError) -> Void) throws(WireError) {
        guard take("[") else { throw mismatch("an array") }
        try enter()
        defer { depth -= 1 }
        if take("]") { return }
        var index = 0
        while true {
            do throws(WireError) { try item(&self) } catch { throw error.inside("[\(index)]") }
            index += 1
            if take("]") { return }
            guard take(",") else { throw mismatch(", or ]") }
        }
    }

    /// A member's key and its colon.
    private mutating func key() throws(WireError) -> Key {
        parser.skipSpace()
        let bytes = parser.bytes
        guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "\"") else { throw mismatch("a key") }
        let start = parser.index + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        let key: Key
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            parser.index = end + 1
            key = Key(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]), escaped: nil)
        } else {
            key = Key(bytes: UnsafeBufferPointer(start: nil, count: 0), escaped: try text())
        }
        guard take(":") else { throw mismatch(": after the key \"\(key.text)\"") }
        return key
    }

    /// After a member: `,` (true: another follows) or `}` (false).
    @inline(__always)
    private mutating func nextMember() throws(WireError) -> Bool {
        if take(",") { return true }
        if take("}") { return false }
        throw mismatch(", or }")
    }

    /// Steps over a value no type reads, checking it is JSON.
    private mutating func skipValue() throws(WireError) {
        do { try parser.value(depth: depth) } catch { throw WireError("not JSON: \(error)") }
        skippedMembers = true
    }

    // MARK: Members

    /// Reads a member's value into its slot; a member given twice is refused.
    @inline(__always)
    mutating func once<Value: WireCoded>(_ slot: inout Value?, _ key: StaticString) throws(WireError) {
        guard slot == nil else { throw WireError("the key \"\(key)\" appears twice in one object") }
        slot = try Value(reading: &self)
    }

    /// Reads an object of the members `keys` (in any order, each at most once, others skipped): their values
    /// in the order of `keys`, a member left out its absent value (nil for an optional) or an error naming it.
    mutating func fields<each Value: WireCoded>(_ keys: repeat (StaticString, (each Value).Type)) throws(WireError)
        -> (repeat each Value)
    {
        var slots = (repeat Optional<each Value>.none)
        try members { reader, key throws(WireError) in
            var known = false
            slots = (repeat try reader.fill(each slots, (each keys).0, from: key, known: &known))
            return known
        }
        return (repeat try Self.required(each slots, (each keys).0))
    }

    /// `fields` for an object of up to four members, compiled for their types (the parameter pack is not
    /// specialized, and costs the messages of every call several times their coding): the values in the order of
    /// `keys`, a member left out its absent value or an error naming it.
    mutating func fields<A: WireCoded, B: WireCoded, C: WireCoded, D: WireCoded>(
        _ a: (StaticString, A.Type), _ b: (StaticString, B.Type), _ c: (StaticString, C.Type),
        _ d: (StaticString, D.Type)
    ) throws(WireError) -> (A, B, C, D) {
        var slots: (A?, B?, C?, D?)
        try members { reader, key throws(WireError) in
            if key == a.0 {
                try reader.once(&slots.0, a.0)
            } else if key == b.0 {
                try reader.once(&slots.1, b.0)
            } else if key == c.0 {
                try reader.once(&slots.2, c.0)
            } else if key == d.0 {
                try reader.once(&slots.3, d.0)
            } else {
                return false
            }
            return true
        }
        return (
            try Self.required(slots.0, a.0), try Self.required(slots.1, b.0), try Self.required(slots.2, c.0),
            try Self.required(slots.3, d.0)
        )
    }

    /// `fields` of three members (a fourth that never comes).
    mutating func fields<A: WireCoded, B: WireCoded, C: WireCoded>(
        _ a: (StaticString, A.Type), _ b: (StaticString, B.Type), _ c: (StaticString, C.Type)
    ) throws(WireError) -> (A, B, C) {
        let (first, second, third, _) = try fields(a, b, c, ("", WireNothing.self))
        return (first, second, third)
    }

    /// `fields` of two members.
    mutating func fields<A: WireCoded, B: WireCoded>(_ a: (StaticString, A.Type), _ b: (StaticString, B.Type))
        throws(WireError) -> (A, B)
    {
        let (first, second, _, _) = try fields(a, b, ("", WireNothing.self), ("", WireNothing.self))
        return (first, second)
    }

    /// `fields` of one member.
    mutating func field<A: WireCoded>(_ a: (StaticString, A.Type)) throws(WireError) -> A {
        try fields(a, ("", WireNothing.self)).0
    }

    /// `slot` read from the member `key` if it is the member `name` (`known` then set), else as it was.
    private mutating func fill<Value: WireCoded>(
        _ slot: Value?, _ name: StaticString, from key: Key, known: inout Bool
    ) throws(WireError) -> Value? {
        guard key == name else { return slot }
        known = true
        var slot = slot
        try once(&slot, name)
        return slot
    }

    /// A member's value once its object is read: the one read, or the absent value's (nil for an optional);
    /// a required member that was not there is an error.
    @inline(__always)
    static func required<Value: WireCoded>(_ slot: Value?, _ key: StaticString) throws(WireError) -> Value {
        guard let value = slot ?? Value.absent else { throw WireError("no member \"\(key)\"") }
        return value
    }

    // MARK: Scalars

    /// The text of the number that starts here (nothing for another kind of value).
    private mutating func numberText() -> UnsafeBufferPointer<UInt8> {
        parser.skipSpace()
        var end = parser.index
        while end < parser.bytes.count, WireJSON.Parser.isNumberByte(parser.bytes[end]) { end += 1 }
        return UnsafeBufferPointer(rebasing: parser.bytes[parser.index..<end])
    }

    /// A whole number that fits `type`: digits read in place, other forms (`7.0`, `1e3`) through `Double`.
    mutating func integer<Value: FixedWidthInteger>(_ type: Value.Type) throws(WireError) -> Value {
        let written = numberText()
        guard !written.isEmpty else { throw mismatch("a whole number") }
        if WireJSON.Parser.isPlainInteger(written), written.count <= 18 {
            let negative = written.first == UInt8(ascii: "-")
            let magnitude = written.dropFirst(negative ? 1 : 0).reduce(Int64(0)) { $0 * 10 + Int64($1 - 48) }
            if let value = Value(exactly: negative ? -magnitude : magnitude) {
                parser.index += written.count
                return value
            }
        }
        let text = String(decoding: written, as: UTF8.self)
        let value: Value
        if let exact = Value(text) {
            value = exact
        } else {
            let number = try double()
            guard number.rounded() == number, let whole = Value(exactly: number) else {
                throw WireError("\(text) does not fit in \(type)")
            }
            return whole
        }
        parser.index += written.count
        return value
    }

    /// A number, which must be finite (JSON has no infinities; `1e400` is beyond a 64-bit float).
    mutating func double() throws(WireError) -> Double {
        let written = numberText()
        guard !written.isEmpty else { throw mismatch("a number") }
        let text = String(decoding: written, as: UTF8.self)
        guard let value = Double(text) else { throw WireError("malformed number \(text)") }
        guard value.isFinite else { throw WireError("the number \(text) is beyond what a 64-bit float holds") }
        parser.index += written.count
        return value
    }

    mutating func bool() throws(WireError) -> Bool {
        parser.skipSpace()
        let start = parser.index
        if (try? parser.expect("true")) != nil { return true }
        parser.index = start
        if (try? parser.expect("false")) != nil { return false }
        parser.index = start
        throw mismatch("a boolean")
    }

    /// The bytes of the value that starts here, stepped over (checked as JSON), for a coder that reads it alone.
    mutating func valueBytes() throws(WireError) -> UnsafeBufferPointer<UInt8> {
        parser.skipSpace()
        let start = parser.index
        do { try parser.value(depth: depth) } catch { throw WireError("not JSON: \(error)") }
        return UnsafeBufferPointer(rebasing: parser.bytes[start..<parser.index])
    }

    /// Reads `null` if it comes next.
    mutating func null() throws(WireError) -> Bool {
        parser.skipSpace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "n") else { return false }
        do { try parser.expect("null") } catch { throw WireError("not JSON: \(error)") }
        return true
    }

    /// A string: made straight from the frame's bytes when it has no escapes, else by the general parser;
    /// bytes that are not UTF-8 are refused, not repaired.
    mutating func string() throws(WireError) -> String {
        parser.skipSpace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else {
            throw mismatch("a string")
        }
        return try text()
    }

    /// The string that starts here (at its opening quote).
    private mutating func text() throws(WireError) -> String {
        let bytes = parser.bytes
        var end = parser.index + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            guard
                let text = String(
                    validating: UnsafeBufferPointer(rebasing: bytes[parser.index + 1..<end]), as: UTF8.self)
            else { throw WireError("not JSON: the string is not valid UTF-8 at byte \(parser.index)") }
            parser.index = end + 1
            return text
        }
        do { try parser.string() } catch { throw WireError("not JSON: \(error)") }
        return parser.json.string(parser.json.values.count - 1)
    }

    /// Whether only white space is left.
    mutating func atEnd() -> Bool {
        parser.skipSpace()
        return parser.index == parser.bytes.count
    }
}
