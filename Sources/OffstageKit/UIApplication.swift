@_exported public import Foundation
import OffstageCore

/// The base of UIKit's responder chain; app and scene delegates inherit from it, as on iOS (an `NSObject`).
/// Its `init()` is not `required`, as in UIKit: the system makes delegates through `NSObject.made(_:)`.
open class UIResponder: NSObject {
    public override init() { super.init() }
}

/// `UIBackgroundTaskIdentifier`: the token of a `beginBackgroundTask` assertion.
/// `.invalid` (0) means background running is not possible.
public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}

/// `UIBackgroundRefreshStatus`: whether the user lets this app refresh in the background.
public enum UIBackgroundRefreshStatus: Int, Sendable {
    case restricted = 0
    case denied = 1
    case available = 2
}

/// The background subset of UIKit's `UIApplication`: state, background time and refresh status.
/// Main-actor as UIKit declares it (`beginBackgroundTask`/`endBackgroundTask` are `nonisolated` there and here), and
/// pre-concurrency as Objective-C imports it: code that breaks the isolation gets warnings (from Swift 6.3 in Swift 6
/// mode too). Each app has its own `UIApplication.shared`, even when several run in one simulator.
@preconcurrency @MainActor public final class UIApplication: Sendable {
    /// `UIApplication.State`, with iOS's raw values.
    public enum State: Int, Sendable {
        case active = 0
        case inactive = 1
        case background = 2
    }

    /// Keys of the `launchOptions` dictionary.
    public struct LaunchOptionsKey: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let remoteNotification = LaunchOptionsKey(
            rawValue: "UIApplicationLaunchOptionsRemoteNotificationKey")
        public static let location = LaunchOptionsKey(rawValue: "UIApplicationLaunchOptionsLocationKey")
        public static let bluetoothCentrals = LaunchOptionsKey(
            rawValue: "UIApplicationLaunchOptionsBluetoothCentralsKey")
    }

    /// `UIApplication.OpenURLOptionsKey`: the keys of the options `application(_:open:options:)` receives. App
    /// delegates declare that method with this type; no scenario opens a URL, so nothing calls it.
    public struct OpenURLOptionsKey: RawRepresentable, Hashable, Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let sourceApplication = OpenURLOptionsKey(
            rawValue: "UIApplicationOpenURLOptionsSourceApplicationKey")
        public static let annotation = OpenURLOptionsKey(rawValue: "UIApplicationOpenURLOptionsAnnotationKey")
        public static let openInPlace = OpenURLOptionsKey(rawValue: "UIApplicationOpenURLOptionsOpenInPlaceKey")
    }

    nonisolated unowned let runtime: AppRuntime
    /// The delegate behind `delegate`, which the system sets and reads from the app's callbacks on any thread.
    nonisolated let delegateStorage = LockedValue<(any UIApplicationDelegate)?>(nil)
    /// The app's delegate, set by the system at launch.
    public var delegate: (any UIApplicationDelegate)? {
        get { delegateStorage.value }
        set { delegateStorage.value = newValue }
    }

    /// Whether the app registered for remote notifications (`registerForRemoteNotifications()`).
    nonisolated let remoteRegistration = LockedValue(false)
    /// The quick actions the app set (`shortcutItems`).
    nonisolated let shortcuts = LockedValue<[UIApplicationShortcutItem]?>(nil)
    /// The number on the app's icon (`applicationIconBadgeNumber`, `setBadgeCount(_:)`).
    nonisolated let badge = LockedValue(0)

    /// Made by the app's runtime wherever the host creates it; everything it holds is behind locks.
    nonisolated init(runtime: AppRuntime) { self.runtime = runtime }

    /// The application object of the app whose code is running.
    public class var shared: UIApplication { AppRuntime.current.application }

    public var applicationState: State {
        guard case .state(let state) = runtime.send(.applicationState) else { return .background }
        switch state {
        case .active: return .active
        case .inactive: return .inactive
        default: return .background
        }
    }

    /// Asks for background time to finish work; the handler runs on the main queue shortly before the time ends.
    /// Callable from any thread, as UIKit's (`nonisolated`); the handler is `@MainActor @Sendable`, as there.
    public nonisolated func beginBackgroundTask(
        withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier {
        guard case .backgroundTask(let number) = runtime.send(.beginBackgroundTask(name: taskName)), number != 0 else {
            return .invalid
        }
        // Hosts call expiration handlers on the app's main queue (the simulator's stand-in for it, or the real one).
        if let handler { runtime.setAssertionHandler({ MainActor.assumeIsolated { handler() } }, for: number) }
        return UIBackgroundTaskIdentifier(rawValue: number)
    }

    /// `beginBackgroundTask(withName:expirationHandler:)` with no name; `nonisolated`, as in UIKit.
    public nonisolated func beginBackgroundTask(
        expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier {
        beginBackgroundTask(withName: nil, expirationHandler: handler)
    }

    /// Ends an assertion; an unknown identifier is logged by the system and otherwise ignored. `nonisolated`, as in
    /// UIKit: callable from the queue that finished the work.
    public nonisolated func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {
        runtime.setAssertionHandler(nil, for: identifier.rawValue)
        runtime.send(.endBackgroundTask(identifier.rawValue))
    }

    /// Seconds of background time left; `Double.greatestFiniteMagnitude` in the foreground.
    public var backgroundTimeRemaining: TimeInterval {
        guard case .timeRemaining(let seconds) = runtime.send(.backgroundTimeRemaining) else { return 0 }
        return seconds
    }

    public var backgroundRefreshStatus: UIBackgroundRefreshStatus {
        guard case .refreshStatus(let status) = runtime.send(.backgroundRefreshStatus) else { return .denied }
        return UIBackgroundRefreshStatus(rawValue: status.rawValue) ?? .denied
    }
}

/// The life-cycle methods of `UIApplicationDelegate` that background execution concerns.
/// Every method is optional, as in UIKit.
@preconcurrency @MainActor public protocol UIApplicationDelegate: AnyObject {
    func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool
    func applicationDidBecomeActive(_ application: UIApplication)
    func applicationWillResignActive(_ application: UIApplication)
    func applicationDidEnterBackground(_ application: UIApplication)
    func applicationWillEnterForeground(_ application: UIApplication)
    func applicationWillTerminate(_ application: UIApplication)
    /// Scene-based apps: the configuration of a scene about to connect (default: the Info.plist's).
    func application(
        _ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
        options: UIScene.ConnectionOptions
    ) -> UISceneConfiguration

    // MARK: Background pushes and legacy fetch (§7); defaults in UIApplicationDelegate+Background.swift
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void)
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]
    ) async -> UIBackgroundFetchResult
    func application(
        _ application: UIApplication,
        performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void)

    // MARK: Remote-notification registration; defaults in UIApplication+RemoteNotifications.swift
    func application(
        _ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)
    func application(
        _ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error)

    // MARK: Background URLSession (issue 16, item 8); default in Network/BackgroundSessions.swift
    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void)
}

extension UIApplicationDelegate {
    public func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { true }
    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { true }
    public func applicationDidBecomeActive(_ application: UIApplication) {}
    public func applicationWillResignActive(_ application: UIApplication) {}
    public func applicationDidEnterBackground(_ application: UIApplication) {}
    public func applicationWillEnterForeground(_ application: UIApplication) {}
    public func applicationWillTerminate(_ application: UIApplication) {}
    public func application(
        _ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
        options: UIScene.ConnectionOptions
    ) -> UISceneConfiguration { connectingSceneSession.configuration }
}
