import Foundation

/// `UIScene`: one instance of the app's user interface, with its own life cycle. Offstage has no interface, so a
/// scene here is its life cycle alone: the state iOS gives it and the delegate that hears of every change.
open class UIScene: UIResponder, @unchecked Sendable {
    /// `UIScene.ActivationState`, with iOS's raw values.
    public enum ActivationState: Int, Sendable {
        case unattached = -1
        case foregroundActive = 0
        case foregroundInactive = 1
        case background = 2
    }

    /// `UIScene.ConnectionOptions`: why the scene connects; empty here (no URLs, shortcuts or activities).
    /// Unchecked because its members have UIKit's types, `AnyHashable` (not `Sendable`); they are constants, empty.
    public final class ConnectionOptions: @unchecked Sendable {
        public let urlContexts: Set<AnyHashable> = []
        public let userActivities: Set<AnyHashable> = []
        public let shortcutItem: AnyHashable? = nil
        init() {}
    }

    public let session: UISceneSession
    public internal(set) var activationState: ActivationState = .unattached
    /// The scene's delegate, made from the configuration's `delegateClass` when the scene connects.
    public var delegate: (any UISceneDelegate)?
    public var title: String?

    public required init(session: UISceneSession, connectionOptions: ConnectionOptions) {
        self.session = session
        super.init()
    }
}

/// `UIWindowScene`: the scene of an app's windows (the only kind iOS apps connect for the application role).
open class UIWindowScene: UIScene, @unchecked Sendable {
    /// The scene's windows; a window joins when it is made with `UIWindow(windowScene:)`.
    public internal(set) var windows: [UIWindow] = []
}

/// `UIWindow`, reduced to what a scene delegate's `scene(_:willConnectTo:options:)` does with it.
open class UIWindow: UIResponder, @unchecked Sendable {
    public weak var windowScene: UIWindowScene?
    public var rootViewController: AnyObject?
    public private(set) var isKeyWindow = false

    public init(windowScene: UIWindowScene) {
        self.windowScene = windowScene
        super.init()
        windowScene.windows.append(self)
    }

    public override init() { super.init() }

    public func makeKeyAndVisible() { isKeyWindow = true }
}

/// `UISceneSession`: what persists of a scene between connections: its role, configuration and identifier.
/// Unchecked because of UIKit's settable `userInfo` and the weak `scene`, set and read on the main thread as on iOS.
public final class UISceneSession: @unchecked Sendable {
    /// `UISceneSession.Role`.
    public struct Role: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The main interface of an iOS app (`UIWindowSceneSessionRoleApplication`).
        public static let windowApplication = Role(rawValue: "UIWindowSceneSessionRoleApplication")
    }

    public let role: Role
    public let configuration: UISceneConfiguration
    public let persistentIdentifier: String
    public internal(set) weak var scene: UIScene?
    public var userInfo: [String: Any]?

    init(role: Role, configuration: UISceneConfiguration, persistentIdentifier: String) {
        self.role = role
        self.configuration = configuration
        self.persistentIdentifier = persistentIdentifier
    }
}

/// `UISceneConfiguration`: which classes make a scene of a role, from the Info.plist's scene manifest or from
/// the app delegate's `application(_:configurationForConnecting:options:)`.
/// Unchecked because of UIKit's settable `sceneClass` and `delegateClass`, set on the main thread as on iOS.
public final class UISceneConfiguration: @unchecked Sendable {
    public let name: String?
    public let role: UISceneSession.Role
    public var sceneClass: AnyClass?
    public var delegateClass: AnyClass?

    /// As on iOS, the entry of the app's scene manifest with this name (the role's first for nil) fills in the
    /// classes it names; with no such entry they stay nil for the app to set.
    public convenience init(name: String?, sessionRole: UISceneSession.Role) {
        self.init(name: name, sessionRole: sessionRole, manifest: AppRuntime.currentIfBound?.scenes.manifest)
    }

    init(name: String?, sessionRole: UISceneSession.Role, manifest: OffstageSceneManifest?) {
        self.name = name
        role = sessionRole
        let entry = manifest?.configuration(named: name, role: sessionRole.rawValue)
        delegateClass = entry?.delegateClassName.flatMap(NSClassFromString)
        sceneClass = entry?.sceneClassName.flatMap(NSClassFromString)
    }
}

/// `UISceneDelegate`: the life-cycle callbacks of one scene. A scene-based app gets these in place of the app
/// delegate's foreground and background callbacks. Every method is optional, as in UIKit.
@preconcurrency @MainActor public protocol UISceneDelegate: AnyObject {
    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions)
    func sceneDidDisconnect(_ scene: UIScene)
    func sceneDidBecomeActive(_ scene: UIScene)
    func sceneWillResignActive(_ scene: UIScene)
    func sceneWillEnterForeground(_ scene: UIScene)
    func sceneDidEnterBackground(_ scene: UIScene)
}

extension UISceneDelegate {
    public func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions
    ) {}
    public func sceneDidDisconnect(_ scene: UIScene) {}
    public func sceneDidBecomeActive(_ scene: UIScene) {}
    public func sceneWillResignActive(_ scene: UIScene) {}
    public func sceneWillEnterForeground(_ scene: UIScene) {}
    public func sceneDidEnterBackground(_ scene: UIScene) {}
}

/// `UIWindowSceneDelegate`: a scene delegate that keeps the scene's window.
public protocol UIWindowSceneDelegate: UISceneDelegate {
    var window: UIWindow? { get set }
}
