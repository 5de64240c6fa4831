public import Foundation
import OffstageCore

// The notification names are `nonisolated`, as the iOS 18 SDK declares them: observers register from any thread.
nonisolated extension UIApplication {
    public static let didFinishLaunchingNotification = Notification.Name("UIApplicationDidFinishLaunchingNotification")
    public static let didBecomeActiveNotification = Notification.Name("UIApplicationDidBecomeActiveNotification")
    public static let willResignActiveNotification = Notification.Name("UIApplicationWillResignActiveNotification")
    public static let didEnterBackgroundNotification = Notification.Name("UIApplicationDidEnterBackgroundNotification")
    public static let willEnterForegroundNotification = Notification.Name(
        "UIApplicationWillEnterForegroundNotification")
    public static let willTerminateNotification = Notification.Name("UIApplicationWillTerminateNotification")
    public static let backgroundRefreshStatusDidChangeNotification = Notification.Name(
        "UIApplicationBackgroundRefreshStatusDidChangeNotification")

    /// UIKit's notification for a life-cycle callback, posted after the delegate's method returns.
    static func notification(after callback: LifecycleCallback) -> Notification.Name? {
        switch callback {
        case .willFinishLaunching, .beginRequest: nil
        case .didFinishLaunching: didFinishLaunchingNotification
        case .didBecomeActive: didBecomeActiveNotification
        case .willResignActive: willResignActiveNotification
        case .didEnterBackground: didEnterBackgroundNotification
        case .willEnterForeground: willEnterForegroundNotification
        case .willTerminate: willTerminateNotification
        }
    }
}

extension UIScene {
    public static let willConnectNotification = Notification.Name("UISceneWillConnectNotification")
    public static let didDisconnectNotification = Notification.Name("UISceneDidDisconnectNotification")
    public static let didActivateNotification = Notification.Name("UISceneDidActivateNotification")
    public static let willDeactivateNotification = Notification.Name("UISceneWillDeactivateNotification")
    public static let willEnterForegroundNotification = Notification.Name("UISceneWillEnterForegroundNotification")
    public static let didEnterBackgroundNotification = Notification.Name("UISceneDidEnterBackgroundNotification")
}

extension UIApplication {
    /// The application objects of ended processes (see `AppRuntime.deinit`).
    private nonisolated static let retired = LockedValue<[UIApplication]>([])

    nonisolated static func retire(_ application: UIApplication) {
        application.delegateStorage.value = nil
        retired.withValue { $0.append(application) }
    }
}

extension NotificationCenter {
    /// Posts one of UIKit's notifications from the main queue, as UIKit does. On the real main thread (a process
    /// under the daemon) at once; elsewhere (the simulator's stand-in for the main queue, which is not the main
    /// thread) as main-queue work now: Foundation's `post` hands an observer registered with
    /// `queue: .main` to that queue and waits for it unless the poster runs on `OperationQueue.main` itself.
    package static func postFromMainQueue(_ name: Notification.Name, object: AnyObject) {
        nonisolated(unsafe) let object = object
        guard !Thread.isMainThread else { return NotificationCenter.default.post(name: name, object: object) }
        OperationQueue.main.addOperation { NotificationCenter.default.post(name: name, object: object) }
    }
}
