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
/// optionals left out. An enum case's object is opened by its first member (or when the case is finished), so
/// that the cases that do not match write nothing.
struct WireMembers {
    fileprivate var out: [UInt8] = []
    private var count = 0
    /// The case whose `{"name":{` is still to be written.
    private var pendingCase: StaticString?

    fileprivate init(case name: StaticString? = nil) { pendingCase = name }

    /// Appends the member `key` with `value`, unless the value is absent (a nil optional).
    mutating func field<Value: WireCoded>(_ key: StaticString, _ value: Value) throws(WireError) {
        guard !value.isAbsent else { return }
        openCase()
        out.put(count == 0 ? "\"" : ",\"")
        count += 1
        out.put(key)
        out.put("\":")
        try value.write(to: &out)
    }

    /// Appends each member `(key, value)` in order, the absent ones left out: a struct's members, listed once.
    mutating func fields<each Value: WireCoded>(_ fields: repeat (StaticString, each Value)) throws(WireError) {
        repeat try field((each fields).0, (each fields).1)
    }

    /// Writes the pending case's name and opens its object.
    private mutating func openCase() {
        guard let name = pendingCase else { return }
        pendingCase = nil
        out.put("{\"")
        out.put(name)
        out.put("\":{")
    }

    /// Closes the case's object, opening it first if it has no members.
    fileprivate mutating func closeCase() {
        openCase()
        out.put("}}")
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

    /// Appends the enum case `name` as Swift writes it, `{"name":{members}}`, if `members` says the value is
    /// this case (having written its members); false, nothing written, if it is not.
    fileprivate mutating func enumCase(
        _ name: StaticString, _ members: (inout WireMembers) throws(WireError) -> Bool
    ) throws(WireError) -> Bool {
        var writer = WireMembers(case: name)
        swap(&writer.out, &self)
        defer { swap(&writer.out, &self) }
        guard try members(&writer) else { return false }
        writer.closeCase()
        return true
    }
}

// MARK: Enums

/// One case of an enum on the wire: its name, with the writing and reading of its values side by side, so that
/// an enum's coding is one table of its cases (`WireEnum`).
package struct WireCase<Enum>: Sendable {
    let name: StaticString
    /// Writes the case's values if `value` is this case, saying whether it was.
    let write: @Sendable (Enum, inout WireMembers) throws(WireError) -> Bool
    /// Reads the case's values: the object under its name.
    let read: @Sendable (inout WireReader) throws(WireError) -> Enum

    /// A case without values, `{"name":{}}`.
    init(_ name: StaticString, _ value: Enum) where Enum: Equatable & Sendable {
        self.name = name
        write = { candidate, _ in candidate == value }
        read = { reader throws(WireError) in
            try reader.members { _, _ in false }
            return value
        }
    }

    /// A case with one value, the member `key`.
    init<A: WireCoded>(
        _ name: StaticString, _ key: StaticString, _ make: @escaping @Sendable (A) -> Enum,
        _ match: @escaping @Sendable (Enum) -> A?
    ) {
        self.init(name) { value, members throws(WireError) in
            guard let a = match(value) else { return false }
            try members.field(key, a)
            return true
        } read: { reader throws(WireError) in
            make(try reader.field((key, A.self)))
        }
    }

    /// A case with two values, the members `keys`.
    init<A: WireCoded, B: WireCoded>(
        _ name: StaticString, _ keys: (StaticString, StaticString), _ make: @escaping @Sendable (A, B) -> Enum,
        _ match: @escaping @Sendable (Enum) -> (A, B)?
    ) {
        self.init(name) { value, members throws(WireError) in
            guard let (a, b) = match(value) else { return false }
            try members.field(keys.0, a)
            try members.field(keys.1, b)
            return true
        } read: { reader throws(WireError) in
            let (a, b) = try reader.fields((keys.0, A.self), (keys.1, B.self))
            return make(a, b)
        }
    }

    /// A case with three values, the members `keys`.
    init<A: WireCoded, B: WireCoded, C: WireCoded>(
        _ name: StaticString, _ keys: (StaticString, StaticString, StaticString),
        _ make: @escaping @Sendable (A, B, C) -> Enum, _ match: @escaping @Sendable (Enum) -> (A, B, C)?
    ) {
        self.init(name) { value, members throws(WireError) in
            guard let (a, b, c) = match(value) else { return false }
            try members.field(keys.0, a)
            try members.field(keys.1, b)
            try members.field(keys.2, c)
            return true
        } read: { reader throws(WireError) in
            let (a, b, c) = try reader.fields((keys.0, A.self), (keys.1, B.self), (keys.2, C.self))
            return make(a, b, c)
        }
    }

    /// A case whose values are written and read by hand (more than three, or a shape of their own).
    init(
        _ name: StaticString, write: @escaping @Sendable (Enum, inout WireMembers) throws(WireError) -> Bool,
        read: @escaping @Sendable (inout WireReader) throws(WireError) -> Enum
    ) {
        self.name = name
        self.write = write
        self.read = read
    }
}

/// An enum coded as one table of its cases: written as the case that matches, read by the case its one member
/// names.
package protocol WireEnum: WireCoded {
    static var wireCases: [WireCase<Self>] { get }
}

extension WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        for wireCase in Self.wireCases {
            if try out.enumCase(wireCase.name, { members throws(WireError) in try wireCase.write(self, &members) }) {
                return
            }
        }
        preconditionFailure("\(self) has no case in \(Self.self).wireCases")
    }

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
