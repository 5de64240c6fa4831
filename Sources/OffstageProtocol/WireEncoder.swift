/// Encodes `Encodable` values as the protocol's JSON (see `WireJSON`): the same shapes as Foundation's
/// `JSONEncoder` (Swift's synthesized coding decides them), keys in encoding order, nil optionals left out.
/// Coding paths are not kept (building them costs more than the rest): the one error, a number JSON cannot
/// hold (infinity, NaN), names the value only.
package enum WireEncoder {
    package static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        try WireEncoding.tree(of: value, at: []).write(to: &out)
        return out
    }
}

/// One value being encoded: the `Encoder` its `encode(to:)` receives; it holds the value once made.
final class WireEncoding: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var value: WireJSON?

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    /// The tree of `value`, encoded at `path`.
    static func tree<Value: Encodable>(of value: Value, at path: [any CodingKey]) throws -> WireJSON {
        let encoding = WireEncoding(codingPath: path)
        try value.encode(to: encoding)
        return encoding.value ?? .object(WireObject())
    }

    /// A number's JSON text; infinities and NaN have none.
    static func number<Value: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: Value, at path: [any CodingKey]
    ) throws -> WireJSON {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: path, debugDescription: "\(value) is not a JSON number"))
        }
        return .number(value.description)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: WireObject
        if case .object(let existing) = value {
            object = existing
        } else {
            object = WireObject()
            value = .object(object)
        }
        return KeyedEncodingContainer(WireKeyedEncoder<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: WireArray
        if case .array(let existing) = value {
            array = existing
        } else {
            array = WireArray()
            value = .array(array)
        }
        return WireUnkeyedEncoder(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { WireSingleEncoder(encoding: self) }
}

/// The members of an object being encoded.
struct WireKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: WireObject
    let codingPath: [any CodingKey]

    private func put(_ value: WireJSON, _ key: Key) { object.pairs.append((key.stringValue, value)) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        put(try WireEncoding.number(value, at: codingPath), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        put(try WireEncoding.number(value, at: codingPath), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.number(String(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.number(String(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.number(String(value)), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        put(try WireEncoding.tree(of: value, at: codingPath), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = WireObject()
        put(.object(nested), key)
        return KeyedEncodingContainer(WireKeyedEncoder<NestedKey>(object: nested, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = WireArray()
        put(.array(nested), key)
        return WireUnkeyedEncoder(array: nested, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let encoding = WireEncoding(codingPath: codingPath)
        put(.deferred(encoding), key)
        return encoding
    }
}

/// The items of an array being encoded.
struct WireUnkeyedEncoder: UnkeyedEncodingContainer {
    let array: WireArray
    let codingPath: [any CodingKey]
    var count: Int { array.items.count }

    mutating func encodeNil() throws { array.items.append(.null) }
    mutating func encode(_ value: Bool) throws { array.items.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.items.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.items.append(try WireEncoding.number(value, at: codingPath)) }
    mutating func encode(_ value: Int) throws { array.items.append(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        array.items.append(try WireEncoding.tree(of: value, at: codingPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = WireObject()
        array.items.append(.object(nested))
        return KeyedEncodingContainer(WireKeyedEncoder<NestedKey>(object: nested, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = WireArray()
        array.items.append(.array(nested))
        return WireUnkeyedEncoder(array: nested, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        let encoding = WireEncoding(codingPath: codingPath)
        array.items.append(.deferred(encoding))
        return encoding
    }
}

/// A single value being encoded.
struct WireSingleEncoder: SingleValueEncodingContainer {
    let encoding: WireEncoding
    var codingPath: [any CodingKey] { encoding.codingPath }

    mutating func encodeNil() throws { encoding.value = .null }
    mutating func encode(_ value: Bool) throws { encoding.value = .bool(value) }
    mutating func encode(_ value: String) throws { encoding.value = .string(value) }
    mutating func encode(_ value: Double) throws { encoding.value = try WireEncoding.number(value, at: codingPath) }
    mutating func encode(_ value: Float) throws { encoding.value = try WireEncoding.number(value, at: codingPath) }
    mutating func encode(_ value: Int) throws { encoding.value = .number(String(value)) }
    mutating func encode(_ value: Int64) throws { encoding.value = .number(String(value)) }
    mutating func encode(_ value: Int32) throws { encoding.value = .number(String(value)) }
    mutating func encode(_ value: UInt32) throws { encoding.value = .number(String(value)) }
    mutating func encode(_ value: Int8) throws { encoding.value = .number(String(value)) }
    mutating func encode(_ value: Int16) throws { encoding.value = .number(String(value)) }
    mutating func encode(_ value: UInt) throws { encoding.value = .number(String(value)) }
    mutating func encode(_ value: UInt8) throws { encoding.value = .number(String(value)) }
    mutating func encode(_ value: UInt16) throws { encoding.value = .number(String(value)) }
    mutating func encode(_ value: UInt64) throws { encoding.value = .number(String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        encoding.value = try WireEncoding.tree(of: value, at: codingPath)
    }
}

/// The coding key of an array item.
struct WireIndexKey: CodingKey {
    var stringValue: String { "Index \(intValue ?? 0)" }
    var intValue: Int?
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
