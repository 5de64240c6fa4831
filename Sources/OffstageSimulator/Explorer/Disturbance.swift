public import OffstageCore

/// One thing that happens to the device or the app in an explored history: the user, the world or the system
/// acting at a moment the explorer drew. Typed, so that each one is both a timeline action and a command.
public enum Disturbance: Hashable, Sendable {
    /// The user opens the app, goes home, locks or unlocks the device.
    case open, home, lock, unlock
    /// The charger is plugged in or out.
    case plug, unplug
    /// The network changes (`none`: the connection is lost).
    case network(NetworkKind)
    case lowPowerMode(Bool)
    case thermal(ThermalState)
    /// The user swipes the app away in the switcher.
    case forceQuit
    /// Memory pressure large enough that jetsam ends every app not on screen.
    case jetsam
    /// The system starts the app's pending request now (`_simulateLaunchForTaskWithIdentifier`).
    case launchTask(String)
    /// The system expires the app's running task now (`_simulateExpirationForTaskWithIdentifier`).
    case expireTask(String)
    /// The user taps one of the app's controls.
    case tap(String)

    /// The bytes jetsam is asked to free: more than any app holds, so every app off screen is ended.
    static let jetsamBytes = 64_000_000_000

    /// The timeline action it is, for `app`.
    public func action(for app: BundleID) -> UserAction {
        switch self {
        case .open: .system(.open(app))
        case .home: .system(.home)
        case .lock: .system(.lock)
        case .unlock: .system(.unlock)
        case .plug: .system(.setCharging(true))
        case .unplug: .system(.setCharging(false))
        case .network(let kind): .system(.setNetwork(kind))
        case .lowPowerMode(let on): .system(.setLowPowerMode(on))
        case .thermal(let state): .system(.setThermalState(state))
        case .forceQuit: .system(.swipeAway(app))
        case .jetsam: .system(.memoryPressure(bytes: Self.jetsamBytes))
        case .launchTask(let identifier): .system(.simulateLaunch(app, identifier: identifier))
        case .expireTask(let identifier): .system(.simulateExpiration(app, identifier: identifier))
        case .tap(let control): .tap(app, action: control)
        }
    }

    /// The timeline command that does the same (`UserCommand.parse` reads it back), for `app`.
    public func command(for app: BundleID) -> String {
        switch self {
        case .open: "open \(app)"
        case .home: "home"
        case .lock: "lock"
        case .unlock: "unlock"
        case .plug: "plug"
        case .unplug: "unplug"
        case .network(let kind): "network \(kind.rawValue)"
        case .lowPowerMode(let on): "low-power \(on ? "on" : "off")"
        case .thermal(let state): "thermal \(state.rawValue)"
        case .forceQuit: "swipe \(app)"
        case .jetsam: "memory-pressure \(Self.jetsamBytes)"
        case .launchTask(let identifier): "simulate-launch \(app) \(identifier)"
        case .expireTask(let identifier): "simulate-expiration \(app) \(identifier)"
        case .tap(let control): "tap \(app) \(control)"
        }
    }
}

/// A disturbance at a moment of an explored history, in seconds from its start.
public struct HistoryEvent: Hashable, Sendable {
    public var at: Double
    public var disturbance: Disturbance

    public init(at: Double, _ disturbance: Disturbance) {
        self.at = at
        self.disturbance = disturbance
    }
}
