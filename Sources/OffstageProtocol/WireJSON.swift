/// JSON as the protocol checks it: a frame's bytes parsed whole, strictly (depth limit, UTF-8, duplicate keys,
/// numbers a 64-bit float holds), into a flat list of its values in document order, for `Frame` to say why a frame
/// was refused and to refuse a key given twice where `WireReader` skipped a member; `WireReader` steps over values
/// and reads escaped strings with its parser.
struct WireJSON {
    /// One value of the document. A container is followed by its contents (an object's members as key, value,
    /// key, value…) and knows where they end, so a reader steps over it in one move.
    struct Value {
        enum Kind: UInt8 { case null, trueValue, falseValue, number, string, escapedString, array, object }
        let kind: Kind
        /// Where the value's text starts in the bytes (for a string: after its opening quote).
        let start: Int
        /// For a scalar: where its text ends (for a string: at its closing quote). For a string with escapes: its
        /// index in `escaped`. For a container: the index of the value that follows its contents.
        var end: Int
    }

    /// Nested objects or arrays deeper than this are refused (a hostile frame must not exhaust the stack).
    static let maxDepth = 128

    /// Why bytes are not the JSON the protocol takes.
    struct SyntaxError: Error, CustomStringConvertible {
        var description: String
    }

    let bytes: UnsafeBufferPointer<UInt8>
    /// The document's values in order; the first is the root.
    private(set) var values: [Value] = []
    /// The text of the strings written with escapes, worked out once while parsing.
    private(set) var escaped: [String] = []

    /// A document of `bytes` with no values read yet.
    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses one JSON value that must fill `bytes` (white space around it allowed).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> WireJSON {
        var parser = Parser(bytes: bytes)
        parser.json.values.reserveCapacity(bytes.count / 6 + 4)
        try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == bytes.count else { throw parser.error("unexpected bytes after the value") }
        return parser.json
    }

    // MARK: Reading parsed values

    /// The index of the value after the one at `index` and its contents.
    func next(after index: Int) -> Int {
        switch values[index].kind {
        case .array, .object: values[index].end
        default: index + 1
        }
    }

    /// A string value's (or key's) bytes as written, without its quotes.
    func rawBytes(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[values[index].start..<values[index].end])
    }

    /// The text of the string (or key) at `index`, escapes resolved; UTF-8 was checked while parsing.
    func string(_ index: Int) -> String {
        let value = values[index]
        return value.kind == .escapedString ? escaped[value.end] : String(decoding: rawBytes(index), as: UTF8.self)
    }

    /// Whether the key at `index` is `name`: compared as bytes unless the key was written with escapes.
    func key(_ index: Int, is name: String) -> Bool {
        if values[index].kind == .escapedString { return escaped[values[index].end] == name }
        var name = name
        let raw = rawBytes(index)
        return name.withUTF8 { $0.count == raw.count && $0.elementsEqual(raw) }
    }

    /// Whether two keys of one object are the same text.
    func sameKey(_ first: Int, _ second: Int) -> Bool {
        if values[first].kind == .string, values[second].kind == .string {
            return rawBytes(first).elementsEqual(rawBytes(second))
        }
        return string(first) == string(second)
    }

    /// The value of the member `name` of the object at `object`, if it has one.
    func member(_ name: String, of object: Int) -> Int? {
        var key = object + 1
        while key < values[object].end {
            if self.key(key, is: name) { return key + 1 }
            key = next(after: key + 1)
        }
        return nil
    }

    // MARK: Writing

    /// Appends `string` as a JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    static func write(string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { utf8 in
            out.append(UInt8(ascii: "\""))
            var plain = 0
            for (index, byte) in utf8.enumerated()
            where byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plain..<index]))
                plain = index + 1
                switch byte {
                case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
                default: out += [UInt8(ascii: "\\"), byte]
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plain...]))
            out.append(UInt8(ascii: "\""))
        }
    }

    // MARK: Parsing

    /// A recursive-descent parser over a frame's bytes that appends each value it reads to the document.
    struct Parser {
        var json: WireJSON
        var index = 0
        var bytes: UnsafeBufferPointer<UInt8> { json.bytes }

        init(bytes: UnsafeBufferPointer<UInt8>) { json = WireJSON(bytes: bytes) }

        func error(_ what: String) -> SyntaxError { SyntaxError(description: "\(what) at byte \(index)") }

        mutating func skipSpace() {
            while index < bytes.count,
                bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
            {
                index += 1
            }
        }

        mutating func expect(_ literal: StaticString) throws(SyntaxError) {
            let text = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            for byte in text {
                guard index < bytes.count, bytes[index] == byte else { throw error("expected \(literal)") }
                index += 1
            }
        }

        /// Appends a value that has no contents.
        private mutating func scalar(_ kind: Value.Kind, from start: Int, to end: Int) {
            json.values.append(Value(kind: kind, start: start, end: end))
        }

        /// Reads one value (and its contents) nested `depth` containers deep.
        mutating func value(depth: Int) throws(SyntaxError) {
            guard depth < WireJSON.maxDepth else { throw error("nested deeper than \(WireJSON.maxDepth)") }
            skipSpace()
            guard index < bytes.count else { throw error("unexpected end") }
            let start = index
            switch bytes[index] {
            case UInt8(ascii: "{"): try container(.object, depth: depth)
            case UInt8(ascii: "["): try container(.array, depth: depth)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"):
                try expect("true")
                scalar(.trueValue, from: start, to: index)
            case UInt8(ascii: "f"):
                try expect("false")
                scalar(.falseValue, from: start, to: index)
            case UInt8(ascii: "n"):
                try expect("null")
                scalar(.null, from: start, to: index)
            default: try number()
            }
        }

        /// Reads an object or an array (`kind`) and its contents, each member's key checked against the others.
        private mutating func container(_ kind: Value.Kind, depth: Int) throws(SyntaxError) {
            let isObject = kind == .object
            let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let container = json.values.count
            json.values.append(Value(kind: kind, start: index, end: 0))
            index += 1
            defer { json.values[container].end = json.values.count }
            skipSpace()
            if index < bytes.count, bytes[index] == closer {
                index += 1
                return
            }
            var keys = DistinctKeys()
            while true {
                if isObject { try key(distinctFrom: &keys) }
                try value(depth: depth + 1)
                skipSpace()
                guard index < bytes.count else { throw error(isObject ? "unterminated object" : "unterminated array") }
                index += 1
                if bytes[index - 1] == closer { return }
                guard bytes[index - 1] == UInt8(ascii: ",") else {
                    throw error(isObject ? "expected , or }" : "expected , or ]")
                }
            }
        }

        /// Reads a member's key and its colon; a key the object already has is refused.
        private mutating func key(distinctFrom keys: inout DistinctKeys) throws(SyntaxError) {
            skipSpace()
            let keyStart = index
            let key = json.values.count
            try string()
            guard keys.insert(key, in: json) else {
                index = keyStart
                throw error("the key \"\(json.string(key))\" appears twice in one object")
            }
            skipSpace()
            try expect(":")
        }

        private mutating func number() throws(SyntaxError) {
            let start = index
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
            guard index > start else { throw error("unexpected character") }
            // A whole number of up to 300 digits is always a finite Double; anything else is converted to be sure.
            let written = UnsafeBufferPointer(rebasing: bytes[start..<index])
            if !(Self.isPlainInteger(written) && written.count <= 300) {
                let text = String(decoding: written, as: UTF8.self)
                guard let value = Double(text) else { throw error("malformed number \(text)") }
                guard value.isFinite else {
                    index = start
                    throw error("the number \(text) is beyond what a 64-bit float holds")
                }
            }
            scalar(.number, from: start, to: index)
        }

        /// Whether a number is written as a minus sign or none, then digits only.
        static func isPlainInteger(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
            let digits = text.first == UInt8(ascii: "-") ? UnsafeBufferPointer(rebasing: text.dropFirst()) : text
            return !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }

        static func isNumberByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                true
            default: false
            }
        }

        /// Reads a string (a value or a key): checked to be UTF-8, its escapes resolved if it has any.
        mutating func string() throws(SyntaxError) {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string") }
            index += 1
            let start = index
            var ascii = true
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                ascii = ascii && bytes[index] < 0x80
                index += 1
            }
            guard index < bytes.count else { throw error("unterminated string") }
            if bytes[index] == UInt8(ascii: "\"") {
                guard
                    ascii
                        || String(validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self) != nil
                else {
                    index = start - 1
                    throw error("the string is not valid UTF-8")
                }
                scalar(.string, from: start, to: index)
                index += 1
                return
            }
            let text = try escapedString(from: start)
            json.values.append(Value(kind: .escapedString, start: start, end: json.escaped.count))
            json.escaped.append(text)
        }

        /// The rest of a string that holds escapes, from its first backslash (at `index`) to its closing quote.
        private mutating func escapedString(from start: Int) throws(SyntaxError) -> String {
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

        private mutating func hex4() throws(SyntaxError) -> UInt32 {
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
    private var keys: [Int] = []
    private var large: Set<String>?

    /// Adds the key at `key` in `json`; false if the object already has it.
    mutating func insert(_ key: Int, in json: WireJSON) -> Bool {
        if large == nil {
            guard !keys.contains(where: { json.sameKey($0, key) }) else { return false }
            guard keys.count >= 16 else {
                keys.append(key)
                return true
            }
            large = Set(keys.map(json.string))
        }
        return large?.insert(json.string(key)).inserted ?? false
    }
}
