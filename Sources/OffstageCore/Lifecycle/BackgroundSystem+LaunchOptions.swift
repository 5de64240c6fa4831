/// The launch options of §2's launch sequence: why the system launched the app, as
/// `application(_:didFinishLaunchingWithOptions:)` receives it (`UIApplication.LaunchOptionsKey`).
extension BackgroundSystem {
    /// Why the app's process was launched: nothing for the user's tap or a task run (iOS passes no key for
    /// them), the push for a push launch, `location` for a location relaunch: the event kept when the launch
    /// began (`AppLifecycle.launchEvent`), not one that arrived while the app was launching.
    func launchOptions(of id: BundleID) -> LaunchOptions {
        guard apps.contains(id), let event = apps[id].launchEvent else { return LaunchOptions() }
        switch event {
        case .remoteNotification(let payload): return LaunchOptions(remoteNotification: payload)
        case .location: return LaunchOptions(location: true)
        case .fetch, .urlSessionEvents: return LaunchOptions()
        }
    }
}

/// The launch options the system passes to the app's launch callbacks, with the meaning of Apple's
/// `UIApplication.LaunchOptionsKey`s; empty for a launch by the user or for a background task.
public struct LaunchOptions: Hashable, Sendable, Codable {
    /// `.remoteNotification`: the payload of the background push the app was launched to handle.
    public var remoteNotification: String?
    /// `.location`: the app was relaunched for a location event.
    public var location: Bool

    public init(remoteNotification: String? = nil, location: Bool = false) {
        self.remoteNotification = remoteNotification
        self.location = location
    }

    /// No key: the user launched the app, or the system did for a task or a fetch.
    public var isEmpty: Bool { remoteNotification == nil && !location }
}
