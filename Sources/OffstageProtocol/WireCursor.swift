#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a frame's JSON in place, member by member, for the hand-written coding of the frequent messages
/// (`HandCoding.swift`): no tree, keys compared as bytes, nothing allocated but the strings a message holds.
/// Every reader returns nil (or false) where the input is not the plain form it expects; the caller then gives
/// up, and the general decoder (`WireDecoder`) reads the frame and names whatever is wrong with it.
extension WireJSON.Parser {
    /// The bytes of a member's key, compared with the names a type expects.
    struct Key {
        let bytes: UnsafeBufferPointer<UInt8>

        static func == (key: Key, name: StaticString) -> Bool {
            key.bytes.count == name.utf8CodeUnitCount
                && (key.bytes.isEmpty || memcmp(key.bytes.baseAddress!, name.utf8Start, key.bytes.count) == 0)
        }
    }

    /// Reads `{`: true if a member follows, false for `{}`, nil if this is not an object.
    mutating func openObject() -> Bool? {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else { return true }
        index += 1
        return false
    }

    /// A member's key and its colon; a key with escapes is not plain (nil).
    mutating func key() -> Key? {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            guard bytes[end] != UInt8(ascii: "\\") else { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        index = end + 1
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        return Key(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }

    /// After a member: `,` (true: another follows) or `}` (false); nil for anything else.
    mutating func nextMember() -> Bool? {
        skipSpace()
        guard index < bytes.count else { return nil }
        index += 1
        switch bytes[index - 1] {
        case UInt8(ascii: ","): return true
        case UInt8(ascii: "}"): return false
        default: return nil
        }
    }

    /// Reads an object, handing each member's key to `member`, which reads the value and says whether it was
    /// one it takes. False if the object is not plain or a member was refused.
    mutating func members(_ member: (inout Self, Key) -> Bool) -> Bool {
        guard let nonEmpty = openObject() else { return false }
        guard nonEmpty else { return true }
        while true {
            guard let key = key(), member(&self, key), let more = nextMember() else { return false }
            if !more { return true }
        }
    }

    /// Reads an object of exactly one member (how Swift writes an enum case): the value `member` makes of it.
    mutating func single<Value>(_ member: (inout Self, Key) -> Value?) -> Value? {
        guard openObject() == true, let key = key(), let value = member(&self, key), nextMember() == false else {
            return nil
        }
        return value
    }

    /// Reads an object whose one member is `name`, its value read by `read` (a case with one value).
    mutating func onlyMember<Value>(_ name: StaticString, _ read: (inout Self) -> Value?) -> Value? {
        single { parser, key in key == name ? read(&parser) : nil }
    }

    /// Reads `{}` (a case without values).
    mutating func emptyObject() -> Bool { openObject() == false }

    /// A whole number written plainly (optional minus, digits): no fraction, exponent or plus sign, and in range.
    mutating func int() -> Int? {
        skipSpace()
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var magnitude: UInt64 = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
            index += 1
        }
        guard index > start, index == bytes.count || !Self.isNumberByte(bytes[index]) else { return nil }
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { return nil }
            return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
        }
        return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
    }

    /// A finite number as a `Double`, read as the general decoder reads it.
    mutating func double() -> Double? {
        skipSpace()
        let start = index
        while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
        guard index > start,
            let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)),
            value.isFinite
        else { return nil }
        return value
    }

    /// `[1, 2, …]`: whole numbers only.
    mutating func intArray() -> [Int]? {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        var items: [Int] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return items
        }
        while true {
            guard let item = int() else { return nil }
            items.append(item)
            skipSpace()
            guard index < bytes.count else { return nil }
            index += 1
            if bytes[index - 1] == UInt8(ascii: "]") { return items }
            guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
        }
    }

    mutating func bool() -> Bool? {
        skipSpace()
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "t") { return (try? expect("true")).map { true } }
        if bytes[index] == UInt8(ascii: "f") { return (try? expect("false")).map { false } }
        return nil
    }

    /// Reads `null` if it comes next.
    mutating func null() -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "n") else { return false }
        return (try? expect("null")) != nil
    }

    /// A string: made straight from the frame's bytes when it has no escapes, else read by the general parser;
    /// nil for bytes that are not UTF-8.
    mutating func text() -> String? {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        var end = index + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else {
            guard (try? string()) != nil else { return nil }
            return json.string(json.values.count - 1)
        }
        guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[index + 1..<end]), as: UTF8.self)
        else { return nil }
        index = end + 1
        return text
    }

    /// Whether only white space is left.
    mutating func atEnd() -> Bool {
        skipSpace()
        return index == bytes.count
    }

    /// Reads the envelope `{"version": 1, "payload": …}` (members in any order) that fills the bytes, with
    /// `payload` reading the payload; nil for another version (the general path names it) or any other form.
    mutating func envelope<Payload>(_ payload: (inout Self) -> Payload?) -> Payload? {
        var version: Int?
        var value: Payload?
        guard
            members({ parser, key in
                if key == "version", version == nil {
                    version = parser.int()
                    return version != nil
                }
                if key == "payload", value == nil {
                    value = payload(&parser)
                    return value != nil
                }
                return false
            }), version == Frame.version, atEnd()
        else { return nil }
        return value
    }
}
