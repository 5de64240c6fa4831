/// A value the protocol writes and reads by hand: the JSON Swift's synthesized coding gives it (members in
/// declaration order, nil optionals left out, an enum case as `{"name": {members}}`), written straight into a
/// frame's bytes and read in place, with an error that names the field when the input is wrong.
package protocol WireCoded: SendableMetatype {
    /// Appends the value's JSON to `out`; throws for a number JSON cannot hold (infinity, NaN).
    func write(to out: inout [UInt8]) throws(WireError)

    /// Reads the value's JSON where `reader` stands; throws naming what is wrong.
    init(reading reader: inout WireReader) throws(WireError)

    /// Whether the value is left out where it is a member (a nil optional).
    var isAbsent: Bool { get }

    /// The value of a member that is left out, if it may be (nil for an optional); nil: the member is required.
    static var absent: Self? { get }
}

extension WireCoded {
    package var isAbsent: Bool { false }
    package static var absent: Self? { nil }
}

/// Why a value could not be written or read: the problem, and the path from the envelope to the field it is in.
package struct WireError: Error, CustomStringConvertible {
    /// The members (`name`) and items (`[index]`) from the envelope to the value, outermost first.
    var path: [String] = []
    var problem: String

    init(_ problem: String) { self.problem = problem }

    /// This error one level out: `step`, the member or item it happened in, put in front of the path.
    func inside(_ step: String) -> WireError {
        var error = self
        error.path.insert(step, at: 0)
        return error
    }

    /// `at payload.body.call.call.register: no member "identifier"`.
    package var description: String {
        guard let first = path.first else { return problem }
        let rest = path.dropFirst().map { $0.hasPrefix("[") ? $0 : "." + $0 }.joined()
        return "at \(first)\(rest): \(problem)"
    }
}

// MARK: Writing

/// The members of an object being written into a frame's bytes: each after a comma but the first, nil
/// optionals left out.
struct WireMembers {
    fileprivate var out: [UInt8] = []
    private var count = 0

    /// Appends the member `key` with `value`, unless the value is absent (a nil optional).
    mutating func field<Value: WireCoded>(_ key: StaticString, _ value: Value) throws(WireError) {
        try out.member(key, value, after: &count)
    }

    /// Appends each member `(key, value)` in order, the absent ones left out: a struct's members, listed once.
    mutating func fields<each Value: WireCoded>(_ fields: repeat (StaticString, each Value)) throws(WireError) {
        repeat try field((each fields).0, (each fields).1)
    }
}

extension [UInt8] {
    /// Appends an object whose members `members` writes.
    mutating func object(_ members: (inout WireMembers) throws(WireError) -> Void) throws(WireError) {
        var writer = WireMembers()
        swap(&writer.out, &self)
        defer { swap(&writer.out, &self) }
        writer.out.put("{")
        try members(&writer)
        writer.out.put("}")
    }

    /// Appends the member `key` with `value` after the `count` members its object has, unless the value is
    /// absent (a nil optional), counting it.
    @inline(__always)
    fileprivate mutating func member<Value: WireCoded>(_ key: StaticString, _ value: Value, after count: inout Int)
        throws(WireError)
    {
        guard !value.isAbsent else { return }
        put(count == 0 ? "\"" : ",\"")
        count += 1
        put(key)
        put("\":")
        try value.write(to: &self)
    }

    /// Appends the enum case `name` without values as Swift writes it, `{"name":{}}`.
    mutating func enumCase(_ name: StaticString) {
        put("{\"")
        put(name)
        put("\":{}}")
    }

    /// Appends the enum case `name` with the member `a`, `{"name":{"key":value}}` (`{"name":{}}` if it is absent).
    mutating func enumCase<A: WireCoded>(_ name: StaticString, _ a: (StaticString, A)) throws(WireError) {
        var count = openCase(name)
        try member(a.0, a.1, after: &count)
        put("}}")
    }

    /// Appends the enum case `name` with the members `a` and `b` in order, the absent ones left out.
    mutating func enumCase<A: WireCoded, B: WireCoded>(
        _ name: StaticString, _ a: (StaticString, A), _ b: (StaticString, B)
    ) throws(WireError) {
        var count = openCase(name)
        try member(a.0, a.1, after: &count)
        try member(b.0, b.1, after: &count)
        put("}}")
    }

    /// Appends the enum case `name` with the members `a`, `b` and `c` in order, the absent ones left out.
    mutating func enumCase<A: WireCoded, B: WireCoded, C: WireCoded>(
        _ name: StaticString, _ a: (StaticString, A), _ b: (StaticString, B), _ c: (StaticString, C)
    ) throws(WireError) {
        var count = openCase(name)
        try member(a.0, a.1, after: &count)
        try member(b.0, b.1, after: &count)
        try member(c.0, c.1, after: &count)
        put("}}")
    }

    /// Writes `{"name":{`, returning the count of the case object's members so far (none).
    @inline(__always)
    private mutating func openCase(_ name: StaticString) -> Int {
        put("{\"")
        put(name)
        put("\":{")
        return 0
    }
}

// MARK: Enums

/// One case of an enum as it is read: its name, and the reading of its values (the object under the name) into
/// the case. An enum's table of them (`WireEnum.wireCases`) reads it by name.
package struct WireCase<Enum>: Sendable {
    let name: StaticString
    let read: @Sendable (inout WireReader) throws(WireError) -> Enum

    /// A case without values, `{"name":{}}`.
    init(_ name: StaticString, _ value: Enum) where Enum: Sendable {
        self.name = name
        read = { reader throws(WireError) in
            try reader.members { _, _ in false }
            return value
        }
    }

    /// A case with one value, the member `key`.
    init<A: WireCoded>(_ name: StaticString, _ key: StaticString, _ make: @escaping @Sendable (A) -> Enum) {
        self.name = name
        read = { reader throws(WireError) in make(try reader.field((key, A.self))) }
    }

    /// A case with two values, the members `keys`.
    init<A: WireCoded, B: WireCoded>(
        _ name: StaticString, _ keys: (StaticString, StaticString), _ make: @escaping @Sendable (A, B) -> Enum
    ) {
        self.name = name
        read = { reader throws(WireError) in
            let (a, b) = try reader.fields((keys.0, A.self), (keys.1, B.self))
            return make(a, b)
        }
    }

    /// A case with three values, the members `keys`.
    init<A: WireCoded, B: WireCoded, C: WireCoded>(
        _ name: StaticString, _ keys: (StaticString, StaticString, StaticString),
        _ make: @escaping @Sendable (A, B, C) -> Enum
    ) {
        self.name = name
        read = { reader throws(WireError) in
            let (a, b, c) = try reader.fields((keys.0, A.self), (keys.1, B.self), (keys.2, C.self))
            return make(a, b, c)
        }
    }
}

/// An enum on the wire, as Swift codes it (`{"name":{members}}`): written by one `switch` over its cases
/// (`write(to:)` through `enumCase`, the payload borrowed), read by the table of its cases by name (`wireCases`,
/// the frequent ones first). `WireEnumTests` fails when the two do not name the same cases with the same members.
package protocol WireEnum: WireCoded {
    static var wireCases: [WireCase<Self>] { get }
}

extension WireEnum {
    package init(reading reader: inout WireReader) throws(WireError) {
        self = try reader.enumCase { key throws(WireError) in
            guard let wireCase = Self.wireCases.first(where: { key == $0.name }) else {
                throw WireError("\"\(key.text)\" is not a case of \(Self.self)")
            }
            return wireCase.read
        }
    }
}

// MARK: Values

/// The member of an unused slot of `WireReader.fields` (named by the empty key): its value, if an object has one,
/// is skipped, and it may be left out.
struct WireNothing: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {}
    package init(reading reader: inout WireReader) throws(WireError) { _ = try reader.valueBytes() }
    private init() {}
    package static var absent: Self? { WireNothing() }
}

extension Optional: WireCoded where Wrapped: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        guard let self else { return out.put("null") }
        try self.write(to: &out)
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        self = try reader.null() ? nil : Wrapped(reading: &reader)
    }

    package var isAbsent: Bool { self == nil }
    package static var absent: Self? { .some(nil) }
}

extension Array: WireCoded where Element: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        out.put("[")
        for (index, element) in enumerated() {
            if index > 0 { out.put(",") }
            try element.write(to: &out)
        }
        out.put("]")
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        var elements: [Element] = []
        try reader.items { reader throws(WireError) in elements.append(try Element(reading: &reader)) }
        self = elements
    }
}

extension String: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) { out.put(string: self) }
    package init(reading reader: inout WireReader) throws(WireError) { self = try reader.string() }
}

extension Bool: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) { out.put(self) }
    package init(reading reader: inout WireReader) throws(WireError) { self = try reader.bool() }
}

extension Double: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        guard out.put(self) else { throw WireError("\(self) is not a JSON number") }
    }
    package init(reading reader: inout WireReader) throws(WireError) { self = try reader.double() }
}

/// A whole number on the wire, read as Foundation reads it (`7` or `7.0`, in range).
package protocol WireInteger: WireCoded, FixedWidthInteger {}

extension WireInteger {
    package func write(to out: inout [UInt8]) throws(WireError) { out.put(self) }
    package init(reading reader: inout WireReader) throws(WireError) { self = try reader.integer(Self.self) }
}

extension Int: WireInteger {}
extension Int32: WireInteger {}
extension Int64: WireInteger {}
extension UInt64: WireInteger {}

/// Text values (a `String` enum's cases, a bundle identifier) are written as their raw text.
extension WireCoded where Self: RawRepresentable, RawValue == String {
    package func write(to out: inout [UInt8]) throws(WireError) { out.put(string: rawValue) }
    package init(reading reader: inout WireReader) throws(WireError) {
        let text = try reader.string()
        guard let value = Self(rawValue: text) else { throw WireError("\"\(text)\" is not a \(Self.self)") }
        self = value
    }
}

/// Numbered values (an `Int` enum's cases) are written as their raw number.
extension WireCoded where Self: RawRepresentable, RawValue == Int {
    package func write(to out: inout [UInt8]) throws(WireError) { out.put(rawValue) }
    package init(reading reader: inout WireReader) throws(WireError) {
        let number = try reader.integer(Int.self)
        guard let value = Self(rawValue: number) else { throw WireError("\(number) is not a \(Self.self)") }
        self = value
    }
}
