/// Decodes `Decodable` values from the protocol's JSON (see `WireJSON`), as Foundation's `JSONDecoder` does:
/// missing optionals are nil, integers must be whole and in range, errors are `DecodingError`s with the path.
package enum WireDecoder {
    package static func decode<Value: Decodable>(_ type: Value.Type, from bytes: UnsafeBufferPointer<UInt8>) throws
        -> Value
    {
        try decode(type, from: WireDocument(try WireJSON.parse(bytes)))
    }

    /// Decodes a `Value` from JSON already parsed (a frame's, read once whatever its payload turns out to be).
    static func decode<Value: Decodable>(_ type: Value.Type, from document: WireDocument) throws -> Value {
        try Value(from: WireDecoding(document, 0))
    }
}

/// A parsed frame shared by the decoders of its values, which hold only an index into it.
final class WireDocument {
    let json: WireJSON

    init(_ json: WireJSON) { self.json = json }

    /// The coding path of the value at `target`, worked out from the root only when an error names it.
    func codingPath(to target: Int) -> [any CodingKey] {
        var path: [any CodingKey] = []
        var container = 0
        while container != target {
            let isObject = json.values[container].kind == .object
            let children = json.children(of: container).enumerated()
            guard
                let (position, child) = children.first(where: {
                    let value = isObject ? $0.element + 1 : $0.element
                    return value <= target && target < json.next(after: value)
                })
            else { break }
            path.append(isObject ? WireKey(json.string(child)) : WireKey(index: position))
            container = isObject ? child + 1 : child
        }
        return path
    }

    /// A type-mismatch error naming what was found at `index`.
    func mismatch(_ type: Any.Type, at index: Int) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath(to: index), debugDescription: "expected \(type), found \(json.found(index))"))
    }

    func bool(_ index: Int) throws -> Bool {
        switch json.values[index].kind {
        case .trueValue: true
        case .falseValue: false
        default: throw mismatch(Bool.self, at: index)
        }
    }

    func string(_ index: Int) throws -> String {
        switch json.values[index].kind {
        case .string, .escapedString: json.string(index)
        default: throw mismatch(String.self, at: index)
        }
    }

    func floatingPoint<Value: BinaryFloatingPoint & LosslessStringConvertible>(_ type: Value.Type, _ index: Int) throws
        -> Value
    {
        guard json.values[index].kind == .number, let value = Value(json.text(index)) else {
            throw mismatch(type, at: index)
        }
        return value
    }

    /// A whole number that fits `type`: digits read in place, other forms (`7.0`, `1e3`) through `Double`.
    func integer<Value: FixedWidthInteger>(_ type: Value.Type, _ index: Int) throws -> Value {
        guard json.values[index].kind == .number else { throw mismatch(type, at: index) }
        let written = json.rawBytes(index)
        if WireJSON.Parser.isPlainInteger(written), written.count <= 18 {
            let negative = written.first == UInt8(ascii: "-")
            let magnitude = written.dropFirst(negative ? 1 : 0).reduce(Int64(0)) { $0 * 10 + Int64($1 - 48) }
            if let value = Value(exactly: negative ? -magnitude : magnitude) { return value }
        }
        let text = json.text(index)
        if let value = Value(text) { return value }
        guard let double = Double(text), double.rounded() == double, let value = Value(exactly: double) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath(to: index), debugDescription: "\(text) does not fit in \(type)"))
        }
        return value
    }
}

/// A key in an error's coding path: a member's name or an array item's place ("Index 3", as Foundation writes it).
struct WireKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ name: String) { stringValue = name }
    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}

/// One JSON value being decoded: the `Decoder` a type's `init(from:)` receives.
struct WireDecoding: Decoder {
    let document: WireDocument
    let index: Int
    var codingPath: [any CodingKey] { document.codingPath(to: index) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ document: WireDocument, _ index: Int) {
        self.document = document
        self.index = index
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard document.json.values[index].kind == .object else {
            throw document.mismatch([String: Any].self, at: index)
        }
        return KeyedDecodingContainer(WireKeyedDecoder<Key>(document: document, object: index))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard document.json.values[index].kind == .array else { throw document.mismatch([Any].self, at: index) }
        return WireUnkeyedDecoder(document: document, array: index)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { WireSingleDecoder(decoding: self) }
}

/// The members of an object being decoded, looked up by name in the parsed frame.
struct WireKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let document: WireDocument
    let object: Int
    var codingPath: [any CodingKey] { document.codingPath(to: object) }

    var allKeys: [Key] { document.json.children(of: object).compactMap { Key(stringValue: document.json.string($0)) } }
    func contains(_ key: Key) -> Bool { document.json.member(key.stringValue, of: object) != nil }

    /// The index of the member `key`'s value.
    private func value(_ key: Key) throws -> Int {
        guard let value = document.json.member(key.stringValue, of: object) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { document.json.values[try value(key)].kind == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try document.bool(try value(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try document.string(try value(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try document.floatingPoint(type, try value(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try document.floatingPoint(type, try value(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try document.integer(type, try value(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try document.integer(type, try value(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try document.integer(type, try value(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try document.integer(type, try value(key)) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: WireDecoding(document, try value(key)))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try WireDecoding(document, try value(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try WireDecoding(document, try value(key)).unkeyedContainer()
    }

    /// The member `super` (the protocol's types have no superclass): it must be present to be read.
    func superDecoder() throws -> any Decoder {
        guard let value = document.json.member("super", of: object) else {
            throw DecodingError.keyNotFound(
                WireKey("super"), DecodingError.Context(codingPath: codingPath, debugDescription: "no value for super"))
        }
        return WireDecoding(document, value)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { WireDecoding(document, try value(key)) }
}

/// The items of an array being decoded, in order.
struct WireUnkeyedDecoder: UnkeyedDecodingContainer {
    let document: WireDocument
    let array: Int
    /// The index of the next item's value in the parsed frame.
    private var item: Int
    var codingPath: [any CodingKey] { document.codingPath(to: array) }
    var currentIndex = 0
    let count: Int?
    var isAtEnd: Bool { item >= document.json.values[array].end }

    init(document: WireDocument, array: Int) {
        self.document = document
        self.array = array
        item = array + 1
        count = document.json.children(of: array).count
    }

    /// The next item's index, stepping past it.
    private mutating func next() throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self,
                DecodingError.Context(
                    codingPath: codingPath + [WireKey(index: currentIndex)],
                    debugDescription: "the array has no more items"))
        }
        let current = item
        item = document.json.next(after: item)
        currentIndex += 1
        return current
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, document.json.values[item].kind == .null else { return false }
        _ = try next()
        return true
    }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try document.bool(try next()) }
    mutating func decode(_ type: String.Type) throws -> String { try document.string(try next()) }
    mutating func decode(_ type: Double.Type) throws -> Double { try document.floatingPoint(type, try next()) }
    mutating func decode(_ type: Int.Type) throws -> Int { try document.integer(type, try next()) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: WireDecoding(document, try next())) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try WireDecoding(document, try next()).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try WireDecoding(document, try next()).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { WireDecoding(document, try next()) }
}

/// A single value being decoded.
struct WireSingleDecoder: SingleValueDecodingContainer {
    let decoding: WireDecoding
    var codingPath: [any CodingKey] { decoding.codingPath }
    private var document: WireDocument { decoding.document }
    private var index: Int { decoding.index }

    func decodeNil() -> Bool { document.json.values[index].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try document.bool(index) }
    func decode(_ type: String.Type) throws -> String { try document.string(index) }
    func decode(_ type: Double.Type) throws -> Double { try document.floatingPoint(type, index) }
    func decode(_ type: Float.Type) throws -> Float { try document.floatingPoint(type, index) }
    func decode(_ type: Int.Type) throws -> Int { try document.integer(type, index) }
    func decode(_ type: Int8.Type) throws -> Int8 { try document.integer(type, index) }
    func decode(_ type: Int16.Type) throws -> Int16 { try document.integer(type, index) }
    func decode(_ type: Int32.Type) throws -> Int32 { try document.integer(type, index) }
    func decode(_ type: Int64.Type) throws -> Int64 { try document.integer(type, index) }
    func decode(_ type: UInt.Type) throws -> UInt { try document.integer(type, index) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try document.integer(type, index) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try document.integer(type, index) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try document.integer(type, index) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try document.integer(type, index) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoding) }
}
