/// The kind of network the device is on.
public enum NetworkKind: String, Hashable, Sendable, Codable, CaseIterable {
    case none, wifi, cellular
}

/// `ProcessInfo.ThermalState`'s levels.
public enum ThermalState: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    case nominal, fair, serious, critical

    private var rank: Int { Self.allCases.firstIndex(of: self)! }
    public static func < (lhs: ThermalState, rhs: ThermalState) -> Bool { lhs.rank < rhs.rank }
}

/// The device as the system sees it: power, network, heat and whether someone is using it.
/// Hosts report changes as events; constraints read it.
public struct DeviceState: Hashable, Sendable, Codable {
    /// Battery level, 0–1.
    public var batteryLevel: Double = 0.8
    public var isCharging: Bool = false
    public var network: NetworkKind = .wifi
    public var thermalState: ThermalState = .nominal
    public var isScreenOn: Bool = true
    public var isLocked: Bool = false
    /// Whether the device has a GPU that continued-processing tasks may use in the background.
    public var hasBackgroundGPU: Bool = false
    /// What a suspended app hears when the system resumes it in the background for an event (SPEC §2).
    public var resumeCallback: ResumeCallback = .didEnterBackground
    /// When the screen went off and the device locked (nil while in use, as the device starts).
    public var idleSince: Instant? = nil

    // MARK: Energy
    /// The battery's capacity and charging curve.
    public var battery = Battery()
    /// Whether the system models the battery level itself (the simulator) instead of taking readings through
    /// `SystemEvent.setBattery` (the daemon): every joule charged then drains it, and the charger fills it.
    public var simulatesBattery = false

    // MARK: Empty battery
    /// The simulated battery ran empty off the charger and the device shut down; it starts up on the charger.
    public var isShutDown = false

    public init() {}

    /// The user is using the device: screen on, unlocked, not idle.
    mutating func wake() {
        isLocked = false
        isScreenOn = true
        idleSince = nil
    }

    /// What differs from `before`, as the changes that lift blockers: the screen lit (or unlocked) or dark (or
    /// locked), the network, the charger, the battery's level, and anything else as one change.
    func changes(since before: DeviceState) -> BlockerLifts {
        var changes: BlockerLifts = []
        if (isScreenOn && !before.isScreenOn) || (!isLocked && before.isLocked) { changes.insert(.screenLit) }
        if (!isScreenOn && before.isScreenOn) || (isLocked && !before.isLocked)
            || (idleSince != nil && before.idleSince == nil)
        {
            changes.insert(.screenDark)
        }
        if network != before.network { changes.insert(.network) }
        if isCharging != before.isCharging { changes.insert(.charger) }
        if batteryLevel != before.batteryLevel { changes.insert(.batteryLevel) }
        var rest = self
        (rest.isScreenOn, rest.isLocked, rest.idleSince) = (before.isScreenOn, before.isLocked, before.idleSince)
        (rest.network, rest.isCharging, rest.batteryLevel) = (before.network, before.isCharging, before.batteryLevel)
        if rest != before { changes.insert(.otherDeviceState) }
        return changes
    }

    /// A simulated battery empty off the charger shuts the device down at `now`, as an iPhone powers off: locked,
    /// the screen dark, idle from now unless it already was. Returns whether it did (a device off stays off).
    mutating func shutDownIfBatteryEmpty(at now: Instant) -> Bool {
        guard simulatesBattery, !isCharging, !isShutDown, batteryLevel <= 0 else { return false }
        isShutDown = true
        isLocked = true
        isScreenOn = false
        if idleSince == nil { idleSince = now }
        return true
    }

    /// A device shut down by its empty battery starts up once it is on the charger, still locked with the screen
    /// dark. Returns whether it did.
    mutating func startUpIfCharging() -> Bool {
        guard isShutDown, isCharging else { return false }
        isShutDown = false
        return true
    }

    /// The screen of a locked device goes dark again after a glance at `now`: the device is idle from then.
    mutating func dimWhileLocked(at now: Instant) {
        guard isScreenOn else { return }
        isScreenOn = false
        idleSince = now
    }
}

/// What a suspended app hears when the system resumes it in the background for a task or an event: Apple's
/// documented order, or the one field reports describe, so that an app can be tested both ways (SPEC §2).
public enum ResumeCallback: String, Hashable, Sendable, Codable, CaseIterable {
    /// `applicationDidEnterBackground` (a scene's `sceneDidEnterBackground`) again, then the event: Apple's order
    /// ("About the background execution sequence"), the default.
    case didEnterBackground
    /// The event alone, with no life-cycle callback first: what field reports describe.
    case none
}

/// The user's settings that govern background work (§8).
public struct UserSettings: Hashable, Sendable, Codable {
    /// Background App Refresh, the global switch.
    public var backgroundAppRefresh: Bool = true
    /// Background App Refresh cannot be changed by the user (parental controls): status `restricted`.
    public var backgroundAppRefreshRestricted: Bool = false
    /// Apps whose own Background App Refresh switch is off.
    public var backgroundAppRefreshOff: Set<BundleID> = []
    /// Apps whose continued-processing tasks the user has turned off.
    public var continuedProcessingOff: Set<BundleID> = []
    public var lowPowerMode: Bool = false
    public var lowDataMode: Bool = false
    /// Keyboard extensions the user gave full access ("Allow Full Access"): with `RequestsOpenAccess` in their
    /// Info.plist, they have open access.
    public var fullAccessKeyboards: Set<BundleID> = []

    public init() {}

    /// Background App Refresh as `UIApplication.backgroundRefreshStatus` reports it to `app` under these
    /// settings: they alone decide it, so a change that leaves them equal changes no app's status.
    public func backgroundRefreshStatus(for app: BundleID) -> BackgroundRefreshStatus {
        if backgroundAppRefreshRestricted { return .restricted }
        let on = backgroundAppRefresh && !backgroundAppRefreshOff.contains(app) && !lowPowerMode
        return on ? .available : .denied
    }

    private enum CodingKeys: String, CodingKey {
        case backgroundAppRefresh, backgroundAppRefreshRestricted, backgroundAppRefreshOff, continuedProcessingOff
        case lowPowerMode, lowDataMode, fullAccessKeyboards
    }

    /// Decodes settings; the keys added since the first stored settings may be missing (their defaults).
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        backgroundAppRefresh = try values.decode(Bool.self, forKey: .backgroundAppRefresh)
        backgroundAppRefreshRestricted = try values.decode(Bool.self, forKey: .backgroundAppRefreshRestricted)
        backgroundAppRefreshOff = try values.decode(Set<BundleID>.self, forKey: .backgroundAppRefreshOff)
        continuedProcessingOff = try values.decode(Set<BundleID>.self, forKey: .continuedProcessingOff)
        lowPowerMode = try values.decode(Bool.self, forKey: .lowPowerMode)
        lowDataMode = try values.decode(Bool.self, forKey: .lowDataMode)
        fullAccessKeyboards = try values.decodeIfPresent(Set<BundleID>.self, forKey: .fullAccessKeyboards) ?? []
    }
}

/// `UIApplication.BackgroundRefreshStatus`, with iOS's raw values.
public enum BackgroundRefreshStatus: Int, Hashable, Sendable, Codable {
    case restricted = 0
    case denied = 1
    case available = 2
}
