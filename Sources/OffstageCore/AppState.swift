/// The life-cycle states of an app, as iOS names them.
/// `suspended` keeps the process alive with no CPU; `notRunning` has no process.
public enum AppState: String, Hashable, Sendable, Codable, CaseIterable {
    case notRunning = "not running"
    case inactive
    case active
    case background
    case suspended

    /// Whether the app has a process (alive, suspended or not).
    public var hasProcess: Bool { self != .notRunning }
    /// Whether the app is on screen (active or inactive).
    public var isForeground: Bool { self == .active || self == .inactive }
}

/// The `UIApplicationDelegate` life-cycle callbacks the system delivers, in iOS's names, and an app extension's
/// start (`NSExtensionRequestHandling.beginRequest(with:)`: an extension has no app delegate).
public enum LifecycleCallback: String, Hashable, Sendable, Codable, CaseIterable {
    case willFinishLaunching = "application(_:willFinishLaunchingWithOptions:)"
    case didFinishLaunching = "application(_:didFinishLaunchingWithOptions:)"
    case didBecomeActive = "applicationDidBecomeActive(_:)"
    case willResignActive = "applicationWillResignActive(_:)"
    case didEnterBackground = "applicationDidEnterBackground(_:)"
    case willEnterForeground = "applicationWillEnterForeground(_:)"
    case willTerminate = "applicationWillTerminate(_:)"
    case beginRequest = "beginRequest(with:)"

    /// The state the app is in while this callback runs.
    var stateDuring: AppState? {
        switch self {
        case .willFinishLaunching, .didFinishLaunching, .willTerminate, .beginRequest: nil
        case .didBecomeActive: .active
        case .willResignActive, .willEnterForeground: .inactive
        case .didEnterBackground: .background
        }
    }
}

/// Who hears a life-cycle callback in the app's process: what its record names.
public enum CallbackReceiver: Hashable, Sendable, Codable {
    /// The app delegate (`UIApplicationDelegate`).
    case appDelegate
    /// A scene-based app's scene delegate, in place of the app delegate; `connecting` when the window scene
    /// connects first (`scene(_:willConnectTo:options:)`).
    case sceneDelegate(connecting: Bool)
    /// A scene-based app with no scene connected (launched in the background): no delegate method is called.
    case noScene
    /// An app extension's principal object, which iOS starts with `beginRequest(with:)`.
    case appExtension

    /// The methods called, in order, as the records name them.
    public func words(for callback: LifecycleCallback) -> String {
        switch self {
        case .appDelegate, .appExtension: return callback.rawValue
        case .noScene:
            guard callback != .willTerminate else { return callback.rawValue }
            return "no callback: a scene-based app with no scene connected (\(callback.rawValue) is not called)"
        case .sceneDelegate(let connecting):
            let willConnect = connecting ? ["scene(_:willConnectTo:options:)"] : []
            let methods: [String] =
                switch callback {
                case .willEnterForeground: ["sceneWillEnterForeground(_:)"]
                case .didBecomeActive:
                    (connecting ? ["sceneWillEnterForeground(_:)"] : []) + ["sceneDidBecomeActive(_:)"]
                case .willResignActive: ["sceneWillResignActive(_:)"]
                case .didEnterBackground: ["sceneDidEnterBackground(_:)"]
                case .willTerminate: ["sceneDidDisconnect(_:)", callback.rawValue]
                case .willFinishLaunching, .didFinishLaunching, .beginRequest: [callback.rawValue]
                }
            return (willConnect + methods).joined(separator: ", ")
        }
    }
}

/// Why the system launched an app's process.
public enum LaunchReason: String, Hashable, Sendable, Codable {
    /// The user tapped it: a foreground launch.
    case user
    /// The system launched it in the background to run a task.
    case backgroundTask = "background task"
}

/// Why an app's process ended.
public enum TerminationReason: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The user swiped it away in the app switcher.
    case userForceQuit
    /// Jetsam reclaimed its memory.
    case memoryPressure
    /// A watchdog fired: a callback, an assertion or a task overran its time.
    case watchdog(String)
    /// The app broke an API rule and crashed with iOS's message.
    case crash(String)
    /// The process exited or died on its own.
    case exited(String)
    // MARK: Resource limits
    /// The app went over a CPU or memory limit in the background (iOS's `EXC_RESOURCE`).
    case resourceLimit(String)
    // MARK: Empty battery
    /// The battery ran empty and the device shut down: every process ended, none by its own fault.
    case deviceShutdown

    public var description: String {
        switch self {
        case .userForceQuit: "swiped away in the app switcher"
        case .memoryPressure: "memory pressure (jetsam)"
        case .watchdog(let why): "watchdog: \(why)"
        case .crash(let message): "crash: \(message)"
        case .exited(let why): "exited: \(why)"
        case .resourceLimit(let why): why
        case .deviceShutdown: "the battery is empty: the device shut down"
        }
    }
}
