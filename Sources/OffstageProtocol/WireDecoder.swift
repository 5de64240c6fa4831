/// Decodes `Decodable` values from the protocol's JSON (see `WireJSON`), as Foundation's `JSONDecoder` does:
/// missing optionals are nil, integers must be whole and in range, errors are `DecodingError`s with the path.
package enum WireDecoder {
    package static func decode<Value: Decodable>(_ type: Value.Type, from bytes: UnsafeBufferPointer<UInt8>) throws
        -> Value
    {
        try decode(type, from: try WireJSON.parse(bytes))
    }

    /// Decodes a `Value` from JSON already parsed (a frame's, read once whatever its payload turns out to be).
    static func decode<Value: Decodable>(_ type: Value.Type, from tree: WireJSON) throws -> Value {
        try Value(from: WireDecoding(tree, path: nil))
    }
}

/// Where a value sits in the message, as a chain to its parent: the array of keys is built only when an
/// error names it (building it at every level costs more than the decoding).
final class WirePath {
    let parent: WirePath?
    let key: any CodingKey

    init(_ parent: WirePath?, _ key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    static func keys(_ path: WirePath?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var step = path
        while let current = step {
            keys.append(current.key)
            step = current.parent
        }
        return keys.reversed()
    }
}

/// One JSON value being decoded: the `Decoder` a type's `init(from:)` receives.
struct WireDecoding: Decoder {
    let node: WireJSON
    let path: WirePath?
    var codingPath: [any CodingKey] { WirePath.keys(path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ node: WireJSON, path: WirePath?) {
        self.node = node
        self.path = path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = node else { throw mismatch([String: Any].self, node, codingPath) }
        return KeyedDecodingContainer(WireKeyedDecoder<Key>(object: object, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = node else { throw mismatch([Any].self, node, codingPath) }
        return WireUnkeyedDecoder(items: array.items, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { WireSingleDecoder(decoding: self) }
}

/// A type-mismatch error naming what was found.
func mismatch(_ type: Any.Type, _ node: WireJSON, _ path: [any CodingKey]) -> DecodingError {
    let found =
        switch node {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let text): "the number \(text)"
        case .string: "a string"
        case .array: "an array"
        case .object, .deferred: "an object"
        }
    return DecodingError.typeMismatch(
        type, DecodingError.Context(codingPath: path, debugDescription: "expected \(type), found \(found)"))
}

/// Scalars from a node: booleans, strings and numbers of every width (whole numbers only for integers).
extension WireJSON {
    func bool(at path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let value) = self else { throw mismatch(Bool.self, self, path()) }
        return value
    }

    func string(at path: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let value) = self else { throw mismatch(String.self, self, path()) }
        return value
    }

    func floatingPoint<Value: BinaryFloatingPoint & LosslessStringConvertible>(
        _ type: Value.Type, at path: @autoclosure () -> [any CodingKey]
    ) throws -> Value {
        guard case .number(let text) = self, let value = Value(text) else { throw mismatch(type, self, path()) }
        return value
    }

    func integer<Value: FixedWidthInteger>(_ type: Value.Type, at path: @autoclosure () -> [any CodingKey]) throws
        -> Value
    {
        guard case .number(let text) = self else { throw mismatch(type, self, path()) }
        if let value = Value(text) { return value }
        guard let double = Double(text), double.rounded() == double, let value = Value(exactly: double) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: path(), debugDescription: "\(text) does not fit in \(type)"))
        }
        return value
    }
}

/// The members of an object being decoded.
struct WireKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: WireObject
    let path: WirePath?
    var codingPath: [any CodingKey] { WirePath.keys(path) }

    /// The path of the member `key`, built only when an error names it.
    private func at(_ key: Key) -> [any CodingKey] { codingPath + [key] }
    private func child(_ key: Key) -> WirePath { WirePath(path, key) }

    var allKeys: [Key] { object.pairs.compactMap { Key(stringValue: $0.0) } }
    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func node(_ key: Key) throws -> WireJSON {
        guard let node = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
        }
        return node
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try node(key) { true } else { false }
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try node(key).bool(at: at(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try node(key).string(at: at(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try node(key).floatingPoint(type, at: at(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try node(key).floatingPoint(type, at: at(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try node(key).integer(type, at: at(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try node(key).integer(type, at: at(key))
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try node(key).integer(type, at: at(key))
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: WireDecoding(try node(key), path: child(key)))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try WireDecoding(try node(key), path: child(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try WireDecoding(try node(key), path: child(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        WireDecoding(object["super"] ?? .null, path: path)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        WireDecoding(object[key.stringValue] ?? .null, path: child(key))
    }
}

/// The items of an array being decoded, in order.
struct WireUnkeyedDecoder: UnkeyedDecodingContainer {
    let items: [WireJSON]
    let parent: WirePath?
    var codingPath: [any CodingKey] { WirePath.keys(parent) }
    var currentIndex = 0
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    init(items: [WireJSON], path: WirePath?) {
        self.items = items
        parent = path
    }

    /// The path of the current item: built only when an error names it.
    private var here: [any CodingKey] { codingPath + [WireIndexKey(intValue: currentIndex)] }
    private func path(of index: Int) -> [any CodingKey] { codingPath + [WireIndexKey(intValue: index)] }
    private var child: WirePath { WirePath(parent, WireIndexKey(intValue: currentIndex)) }

    private mutating func next() throws -> WireJSON {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, DecodingError.Context(codingPath: here, debugDescription: "the array has no more items"))
        }
        defer { currentIndex += 1 }
        return items[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = items[currentIndex] else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let index = currentIndex
        return try next().bool(at: path(of: index))
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let index = currentIndex
        return try next().string(at: path(of: index))
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let index = currentIndex
        return try next().floatingPoint(type, at: path(of: index))
    }
    mutating func decode(_ type: Int.Type) throws -> Int {
        let index = currentIndex
        return try next().integer(type, at: path(of: index))
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let at = child
        return try T(from: WireDecoding(try next(), path: at))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let at = child
        return try WireDecoding(try next(), path: at).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let at = child
        return try WireDecoding(try next(), path: at).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let at = child
        return WireDecoding(try next(), path: at)
    }
}

/// A single value being decoded.
struct WireSingleDecoder: SingleValueDecodingContainer {
    let decoding: WireDecoding
    var codingPath: [any CodingKey] { decoding.codingPath }

    func decodeNil() -> Bool { if case .null = decoding.node { true } else { false } }
    func decode(_ type: Bool.Type) throws -> Bool { try decoding.node.bool(at: codingPath) }
    func decode(_ type: String.Type) throws -> String { try decoding.node.string(at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try decoding.node.floatingPoint(type, at: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try decoding.node.floatingPoint(type, at: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try decoding.node.integer(type, at: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoding.node.integer(type, at: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoding.node.integer(type, at: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoding.node.integer(type, at: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoding.node.integer(type, at: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoding.node.integer(type, at: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoding.node.integer(type, at: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoding.node.integer(type, at: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoding.node.integer(type, at: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoding.node.integer(type, at: codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoding) }
}
