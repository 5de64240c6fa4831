/// `UIBackgroundFetchResult`, with iOS's raw values: what a push or fetch handler reports.
/// The system reads it to judge the app: failed fetches lower the app's future fetch frequency.
public enum BackgroundFetchResult: Int, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case newData = 0
    case noData = 1
    case failed = 2

    public var description: String {
        switch self {
        case .newData: "newData"
        case .noData: "noData"
        case .failed: "failed"
        }
    }
}

/// A location event the system delivers: a significant location change, or a monitored region crossed.
/// Either one relaunches (or resumes) the app in the background for a short window (§7).
public enum LocationEvent: Hashable, Sendable, Codable, CustomStringConvertible {
    case significantChange
    case enteredRegion(String)
    case exitedRegion(String)

    /// The monitored region the event concerns, if any.
    public var region: String? {
        switch self {
        case .significantChange: nil
        case .enteredRegion(let region), .exitedRegion(let region): region
        }
    }

    public var description: String {
        switch self {
        case .significantChange: "significant location change"
        case .enteredRegion(let region): "entered region \(region)"
        case .exitedRegion(let region): "exited region \(region)"
        }
    }
}

/// Something the system hands an app's code outside the life-cycle callbacks and `BGTask`s (§7):
/// a background push, a legacy background fetch, or a location event.
public enum BackgroundEvent: Hashable, Sendable, Codable {
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` with this payload.
    case remoteNotification(payload: String)
    /// `application(_:performFetchWithCompletionHandler:)`.
    case fetch
    /// A `CLLocationManagerDelegate` callback.
    case location(LocationEvent)
    /// The events of a background `URLSession`'s finished transfers (`tasks`, by `taskIdentifier`); `wakesApp` when
    /// the app was woken for them and gets `application(_:handleEventsForBackgroundURLSession:completionHandler:)`.
    case urlSessionEvents(session: String, tasks: [Int], wakesApp: Bool)

    /// The short name records use in their task column.
    public var label: String {
        switch self {
        case .remoteNotification: "remote-notification"
        case .fetch: "background-fetch"
        case .location: "location"
        case .urlSessionEvents(let session, _, _): session
        }
    }

    /// The app-facing method that receives the event, in Apple's name.
    public var method: String {
        switch self {
        case .remoteNotification: "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"
        case .fetch: "application(_:performFetchWithCompletionHandler:)"
        case .location(.significantChange): "locationManager(_:didUpdateLocations:)"
        case .location(.enteredRegion): "locationManager(_:didEnterRegion:)"
        case .location(.exitedRegion): "locationManager(_:didExitRegion:)"
        case .urlSessionEvents(_, _, wakesApp: true):
            "application(_:handleEventsForBackgroundURLSession:completionHandler:)"
        case .urlSessionEvents(_, _, wakesApp: false): "urlSession(_:task:didCompleteWithError:)"
        }
    }

    /// Whether the app must call a completion handler (push and fetch) rather than just get some time.
    var hasCompletionHandler: Bool {
        if case .location = self { false } else { true }
    }
}

/// One background event on its way to the app or being handled: created when the system decides
/// to deliver it (waking the app), handed over once the app is ready, ended by its handler or its deadline.
struct BackgroundDelivery: Hashable, Sendable {
    /// The token the app's completion handler answers with.
    var token: Int
    var event: BackgroundEvent
    /// When the event was handed to the app's code; nil while the app is still being woken.
    var deliveredAt: Instant?
    /// When the completion handler must have been called (push, fetch) or the window ends (location).
    var deadline: Instant?
}

/// The newest background push the system holds for an app, waiting until delivery is allowed.
public struct HeldPush: Hashable, Sendable, Codable {
    public var payload: String
    public var arrivedAt: Instant

    public init(payload: String, arrivedAt: Instant) {
        self.payload = payload
        self.arrivedAt = arrivedAt
    }
}

/// A background push held for an app, and every reason it waits: what `heldPushes()` reports.
public struct HeldPushStatus: Hashable, Sendable {
    public var app: BundleID
    public var payload: String
    public var arrivedAt: Instant
    /// Empty when it is delivered at the next opportunity (the next settle).
    public var blockers: [Blocker]
}

/// An app's legacy background fetch schedule and every reason the next fetch waits: what `backgroundFetches()` reports.
public struct BackgroundFetchStatus: Hashable, Sendable {
    public var app: BundleID
    /// The interval the app asked for with `setMinimumBackgroundFetchInterval(_:)`.
    public var requestedInterval: Double
    /// The interval the system uses: the requested one (at least the policy's minimum) times `backoff`.
    public var effectiveInterval: Double
    /// The factor slow or failed fetches have multiplied the interval by (1 after a good fetch).
    public var backoff: Double
    /// Whether a fetch is being handled now.
    public var inProgress: Bool
    public var blockers: [Blocker]
}

/// Everything §7 keeps for one app: the held push and recent push wake-ups, the legacy fetch schedule,
/// location monitoring (which outlive the process), and the deliveries and active modes (which do not).
struct BackgroundWorkState: Sendable {
    var heldPush: HeldPush?
    /// When background pushes woke the app, for the rate limit; only the last window is kept.
    var pushWakes: [Instant] = []
    /// The interval from `setMinimumBackgroundFetchInterval(_:)`; nil is `backgroundFetchIntervalNever`.
    var fetchInterval: Double?
    /// When the fetch interval starts counting: when it was set, or when the last fetch ended.
    var fetchSince: Instant = .zero
    /// The fetch interval's multiplier after slow or failed fetches.
    var fetchBackoff: Double = 1
    /// `startMonitoringSignificantLocationChanges()` is on: location changes relaunch the app.
    var significantLocationChanges = false
    /// Regions monitored with `startMonitoring(for:)`, by identifier.
    var monitoredRegions: Set<String> = []
    /// Events on their way to the app's code or being handled (process state).
    var deliveries: [BackgroundDelivery] = []
    /// Continuous background modes whose work is going on now (audio playing, a call…; process state).
    var activeModes: Set<BackgroundMode> = []
    /// The blocker names last recorded for the held push and for the next fetch, so only changes are logged.
    var lastPushBlockers: [String] = []
    var lastFetchBlockers: [String] = []

    /// Forgets what lives only as long as the process: deliveries in flight die with it, modes stop.
    mutating func clearProcess() {
        deliveries = []
        activeModes = []
    }
}
