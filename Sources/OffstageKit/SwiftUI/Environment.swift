public import Foundation

/// SwiftUI's `ScenePhase`.
public enum ScenePhase: Comparable, Hashable, Sendable {
    case background
    case inactive
    case active
}

/// SwiftUI's `EnvironmentValues`, with the one value the background surface reads.
public struct EnvironmentValues: Sendable {
    /// The phase of the app's scenes, as the system moved the app last.
    public var scenePhase: ScenePhase

    /// The environment of the app whose code is running (`.background` outside any app).
    static var current: EnvironmentValues {
        EnvironmentValues(
            scenePhase: (AppRuntime.currentIfBound?.application.delegateStorage.value as? any SwiftUIHosting)?.phase
                ?? .background)
    }
}

/// SwiftUI's `@Environment(\.keyPath)`: reads the app's environment when the property is read.
@propertyWrapper
public struct Environment<Value>: @unchecked Sendable {
    let keyPath: KeyPath<EnvironmentValues, Value>

    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }

    public var wrappedValue: Value { EnvironmentValues.current[keyPath: keyPath] }
}

/// SwiftUI's `@UIApplicationDelegateAdaptor(AppDelegate.self)`: the app's `UIApplicationDelegate`, an `NSObject`
/// (a `UIResponder` or not) made by the system with the `App` and given the delegate's callbacks.
@propertyWrapper
public struct UIApplicationDelegateAdaptor<DelegateType: NSObject & UIApplicationDelegate>: @unchecked Sendable {
    public let wrappedValue: DelegateType

    public init(_ delegateType: DelegateType.Type = DelegateType.self) {
        guard let delegate = NSObject.made(delegateType) else {
            preconditionFailure("\(delegateType): this Foundation cannot make an NSObject from its class")
        }
        wrappedValue = delegate
    }

    public var projectedValue: DelegateType { wrappedValue }
}

/// What the adaptor gives the host: the delegate, whatever its type.
protocol DelegateAdaptor { var delegate: any UIApplicationDelegate { get } }

extension UIApplicationDelegateAdaptor: DelegateAdaptor { var delegate: any UIApplicationDelegate { wrappedValue } }
