/// Members the wire reader has read, handed by name to a core type's `Decodable` initializer: the one public way to
/// make a value whose memberwise initializer the core keeps internal (`ContinuedProcessingUI`). No JSON is read
/// here; a member is taken as the type asks for it, and one left out is absent (nil for an optional).
struct WireReadMembers: Decoder {
    let members: [String: any Sendable]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ members: [String: any Sendable]) { self.members = members }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Members(members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Self.notMembers }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Self.notMembers }

    /// What a type that asks for anything but its members is told.
    static var notMembers: DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: [], debugDescription: "only an object's members are handed over"))
    }

    /// The members, looked up by the key the type asks for.
    struct Members<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: any Sendable]
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }
        func decodeNil(forKey key: Key) -> Bool { members[key.stringValue] == nil }

        /// The member `key`, as the type the initializer asks for.
        private func member<T>(_ key: Key) throws -> T {
            guard let value = members[key.stringValue] as? T else {
                throw DecodingError.keyNotFound(
                    key, DecodingError.Context(codingPath: [], debugDescription: "no \(T.self) member \(key)"))
            }
            return value
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key) }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            throw WireReadMembers.notMembers
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw WireReadMembers.notMembers
        }
        func superDecoder() throws -> any Decoder { throw WireReadMembers.notMembers }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw WireReadMembers.notMembers }
    }
}

extension Decodable {
    /// The value made by its `Decodable` initializer from `members`; a member it asks for and does not find is a
    /// `WireError` naming it.
    init(reading members: WireReadMembers) throws(WireError) {
        do { try self.init(from: members) } catch { throw WireError("\(error)") }
    }
}
