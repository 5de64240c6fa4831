import Foundation

/// What the environment reads of a SwiftUI app's host.
protocol SwiftUIHosting: AnyObject {
    var phase: ScenePhase { get }
}

/// Runs a SwiftUI `App` as the system sees an app: the delegate UIKit gives the system's callbacks, which makes the
/// `App`, hands its `@UIApplicationDelegateAdaptor` delegate every callback, registers its `.backgroundTask`
/// actions before launch ends, and moves its scene phase. Not an Apple API: give it to a `SwiftAppCatalog`
/// (`{ SwiftUIAppHost<MyApp>() }`); under the daemon, `@main` on the `App` uses it.
public final class SwiftUIAppHost<AppType: App>: UIApplicationDelegate, SwiftUIHosting, @unchecked Sendable {
    private var adapted: (any UIApplicationDelegate)?
    /// The body's `onChange(of: scenePhase)` actions (main-actor code, called on the app's main queue).
    private var phaseObservers: [(ScenePhase) -> Void] = []
    /// Read by `@Environment` from any thread; written on the main queue as the system moves the app.
    nonisolated(unsafe) private(set) var phase: ScenePhase = .background

    public init() {}

    public func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        // The app's structure is main-actor code; delegate callbacks run on the app's main queue (in the
        // simulator, its stand-in for it), where the main actor's isolation holds, as in UIKit.
        MainActor.assumeIsolated {
            let app = AppType()
            adapted =
                Mirror(reflecting: app).children.lazy.compactMap { ($0.value as? any DelegateAdaptor)?.delegate }
                .first
            let visitor = SceneVisitor()
            visitor.visit(app.body)
            phaseObservers = visitor.phaseObservers
            for handler in visitor.backgroundTasks { register(handler) }
        }
        return adapted?.application(application, willFinishLaunchingWithOptions: launchOptions) ?? true
    }

    /// Registers a `.backgroundTask` action: the task runs it in a Swift task and completes when it returns;
    /// at expiration the Swift task is cancelled (the action sees `Task.isCancelled`).
    private func register(_ handler: BackgroundTaskHandler) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: handler.identifier, using: nil) { task in
            let work = Task {
                await handler.action()
                task.setTaskCompleted(success: !Task.isCancelled)
            }
            task.expirationHandler = { work.cancel() }
        }
    }

    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { adapted?.application(application, didFinishLaunchingWithOptions: launchOptions) ?? true }

    public func applicationDidBecomeActive(_ application: UIApplication) {
        adapted?.applicationDidBecomeActive(application)
        move(to: .active)
    }

    public func applicationWillResignActive(_ application: UIApplication) {
        adapted?.applicationWillResignActive(application)
        move(to: .inactive)
    }

    public func applicationDidEnterBackground(_ application: UIApplication) {
        adapted?.applicationDidEnterBackground(application)
        move(to: .background)
    }

    public func applicationWillEnterForeground(_ application: UIApplication) {
        adapted?.applicationWillEnterForeground(application)
        move(to: .inactive)
    }

    public func applicationWillTerminate(_ application: UIApplication) {
        adapted?.applicationWillTerminate(application)
    }

    public func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        guard let adapted else { return completionHandler(.noData) }
        adapted.application(
            application, didReceiveRemoteNotification: userInfo, fetchCompletionHandler: completionHandler)
    }

    public func application(
        _ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data
    ) { adapted?.application(application, didRegisterForRemoteNotificationsWithDeviceToken: deviceToken) }

    public func application(
        _ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error
    ) { adapted?.application(application, didFailToRegisterForRemoteNotificationsWithError: error) }

    public func application(
        _ application: UIApplication,
        performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        guard let adapted else { return completionHandler(.noData) }
        adapted.application(application, performFetchWithCompletionHandler: completionHandler)
    }

    public func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        adapted?.application(
            application, handleEventsForBackgroundURLSession: identifier, completionHandler: completionHandler)
    }

    /// The scene phase changes: `onChange(of: scenePhase)` observers hear of it, in the order of the body.
    private func move(to new: ScenePhase) {
        guard new != phase else { return }
        phase = new
        for observer in phaseObservers { observer(new) }
    }
}
