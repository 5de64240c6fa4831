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

extension AppLifecycle {
    /// Why the process was launched, as `application(_:didFinishLaunchingWithOptions:)` receives it: nothing for
    /// the user's tap or a task run (iOS passes no key for them), the push for a push launch, `location` for a
    /// location relaunch: the event kept when the launch began (`launchEvent`), not one that arrived meanwhile.
    var launchOptions: LaunchOptions {
        switch launchEvent {
        case .remoteNotification(let payload): LaunchOptions(remoteNotification: payload)
        case .location: LaunchOptions(location: true)
        case .fetch, .urlSessionEvents, nil: LaunchOptions()
        }
    }
}
