public import OpenCombine

/// SwiftUI's `@State`: a value a view or app owns. Nothing is drawn, so nothing is re-rendered when it changes:
/// the value is kept in a box so that the struct holding it can change it from its (non-mutating) body or actions.
@propertyWrapper
public struct State<Value>: @unchecked Sendable {
    private let box: Box<Value>

    public init(wrappedValue value: Value) { box = Box(value) }
    public init(initialValue value: Value) { box = Box(value) }

    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }

    /// `$value`: a binding to the state.
    public var projectedValue: Binding<Value> {
        let box = box
        return Binding(get: { box.value }, set: { box.value = $0 })
    }
}

extension State where Value: ExpressibleByNilLiteral {
    public init() { self.init(wrappedValue: nil) }
}

/// The storage of a `@State` value.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// SwiftUI's `Binding`: reads and writes a value owned elsewhere.
@propertyWrapper
public struct Binding<Value>: @unchecked Sendable {
    private let get: () -> Value
    private let set: (Value) -> Void

    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }

    /// A binding to a value that never changes.
    public static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }

    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }

    public var projectedValue: Binding<Value> { self }
}

/// SwiftUI's `@StateObject`: an `ObservableObject` a view or app owns, made once when first read (as SwiftUI
/// makes it when the view first appears; here, when code first reads it).
@propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: @unchecked Sendable {
    private let object: Lazy<ObjectType>

    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { object = Lazy(thunk) }

    public var wrappedValue: ObjectType { object.value }

    public var projectedValue: ObservedObject<ObjectType>.Wrapper { ObservedObject.Wrapper(object.value) }
}

/// A value made the first time it is read.
final class Lazy<Value> {
    private var made: Value?
    private let make: () -> Value
    init(_ make: @escaping () -> Value) { self.make = make }

    var value: Value {
        if let made { return made }
        let value = make()
        made = value
        return value
    }
}

/// SwiftUI's `@ObservedObject`: an `ObservableObject` owned elsewhere, passed to a view.
@propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: @unchecked Sendable {
    public let wrappedValue: ObjectType

    public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }
    public init(initialValue: ObjectType) { wrappedValue = initialValue }

    public var projectedValue: Wrapper { Wrapper(wrappedValue) }

    /// `$object`: bindings to the object's properties (`$model.name`).
    @dynamicMemberLookup
    public struct Wrapper {
        let object: ObjectType
        init(_ object: ObjectType) { self.object = object }

        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>)
            -> Binding<Subject>
        {
            let object = object
            return Binding(get: { object[keyPath: keyPath] }, set: { object[keyPath: keyPath] = $0 })
        }
    }
}
