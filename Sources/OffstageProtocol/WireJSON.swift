/// JSON as the protocol writes and reads it: a small tree (`WireJSON`), a parser with a depth limit and a
/// writer. Frames go through `WireEncoder`/`WireDecoder` instead of Foundation's `JSONEncoder`/`JSONDecoder`,
/// which cost several microseconds per message on Linux: the wire format is the same JSON, only faster to make.
enum WireJSON {
    case null
    case bool(Bool)
    /// A number as written, converted when a type asks for it (so integers never pass through `Double`).
    case number(String)
    case string(String)
    case array(WireArray)
    case object(WireObject)
    /// A value a super-encoder will write, resolved when the tree is written.
    case deferred(WireEncoding)

    /// Nested objects or arrays deeper than this are refused (a hostile frame must not exhaust the stack).
    static let maxDepth = 128

    /// Why bytes are not the JSON the protocol takes.
    struct SyntaxError: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: Writing

    /// The tree as compact UTF-8 JSON, keys in the order they were encoded.
    func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .number(let text): out += Array(text.utf8)
        case .string(let text): Self.write(string: text, to: &out)
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, item) in array.items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in object.pairs.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(string: key, to: &out)
                out.append(UInt8(ascii: ":"))
                value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .deferred(let encoding): (encoding.value ?? .object(WireObject())).write(to: &out)
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    static func write(string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    // MARK: Parsing

    /// Parses one JSON value that must fill `bytes` (white space around it allowed).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> WireJSON {
        var parser = Parser(bytes: bytes)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.error("unexpected bytes after the value") }
        return value
    }

    /// A recursive-descent parser over the frame's bytes.
    struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        func error(_ what: String) -> SyntaxError { SyntaxError(description: "\(what) at byte \(index)") }

        mutating func skipSpace() {
            while index < bytes.count,
                bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
            {
                index += 1
            }
        }

        mutating func expect(_ literal: String) throws(SyntaxError) {
            for byte in literal.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw error("expected \(literal)") }
                index += 1
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> WireJSON {
            guard depth < WireJSON.maxDepth else { throw error("nested deeper than \(WireJSON.maxDepth)") }
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                let object = WireObject()
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(object)
                }
                var keys = DistinctKeys()
                while true {
                    skipSpace()
                    let keyStart = index
                    let key = try string()
                    guard keys.insert(key, of: object) else {
                        index = keyStart
                        throw error("the key \"\(key)\" appears twice in one object")
                    }
                    skipSpace()
                    try expect(":")
                    object.pairs.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard index < bytes.count else { throw error("unterminated object") }
                    index += 1
                    if bytes[index - 1] == UInt8(ascii: "}") { return .object(object) }
                    guard bytes[index - 1] == UInt8(ascii: ",") else { throw error("expected , or }") }
                }
            case UInt8(ascii: "["):
                index += 1
                let array = WireArray()
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(array)
                }
                while true {
                    array.items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw error("unterminated array") }
                    index += 1
                    if bytes[index - 1] == UInt8(ascii: "]") { return .array(array) }
                    guard bytes[index - 1] == UInt8(ascii: ",") else { throw error("expected , or ]") }
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try expect("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            default: return .number(try number())
            }
        }

        mutating func number() throws(SyntaxError) -> String {
            let start = index
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
            guard index > start else { throw error("unexpected character") }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let value = Double(text) else { throw error("malformed number \(text)") }
            guard value.isFinite else {
                index = start
                throw error("the number \(text) is beyond what a 64-bit float holds")
            }
            return text
        }

        static func isNumberByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                true
            default: false
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string") }
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                index += 1
            }
            guard index < bytes.count else { throw error("unterminated string") }
            var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            while bytes[index] == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { throw error("unterminated string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar), index + 1 < bytes.count,
                        bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = try hex4()
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    utf8 += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
                default: throw error("bad escape")
                }
                while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                    utf8.append(bytes[index])
                    index += 1
                }
                guard index < bytes.count else { throw error("unterminated string") }
            }
            guard let text = String(validating: utf8, as: UTF8.self) else {
                index = start - 1
                throw error("the string is not valid UTF-8")
            }
            index += 1
            return text
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count,
                let value = UInt32(
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + 4]), as: UTF8.self),
                    radix: 16)
            else { throw error("bad \\u escape") }
            index += 4
            return value
        }
    }
}

/// The keys an object being parsed already has, to refuse one given twice: a linear search while the object is
/// small (as the protocol's are), a set once it is large (a hostile frame must not make the check quadratic).
struct DistinctKeys {
    private var large: Set<String>?

    /// Adds `key` to those of `object` (whose members so far are the keys seen); false if it is already there.
    mutating func insert(_ key: String, of object: WireObject) -> Bool {
        if large == nil {
            guard !object.pairs.contains(where: { $0.0 == key }) else { return false }
            if object.pairs.count < 16 { return true }
            large = Set(object.pairs.map(\.0))
        }
        return large!.insert(key).inserted
    }
}

/// An object's members in order (objects are small: a linear search finds a key quickly).
final class WireObject {
    var pairs: [(String, WireJSON)] = []

    subscript(key: String) -> WireJSON? { pairs.first { $0.0 == key }?.1 }
}

/// An array's items.
final class WireArray {
    var items: [WireJSON] = []
}
