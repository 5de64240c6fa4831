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

    /// Whether the system wakes a sleeping device for the event: pushes and fetches are discretionary work
    /// it chooses to run (maintenance wakes); a location event comes from the location hardware's own wake.
    var wakesDevice: Bool { hasCompletionHandler }

    /// Whether an app in the background that misses the event's completion-handler deadline is killed (a push or
    /// fetch: the watchdog); a background session's events are only forgotten, as Apple documents no kill for them.
    var killsWhenLate: Bool {
        switch self {
        case .remoteNotification, .fetch: true
        case .location, .urlSessionEvents: false
        }
    }
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

extension BackgroundMode {
    /// The modes whose work keeps an app running in the background while it lasts; the others
    /// (`fetch`, `processing`, `remote-notification`, …) only let the system wake the app for an event.
    public static let continuous: Set<BackgroundMode> = [
        .audio, .location, .voip, .externalAccessory, .bluetoothCentral, .bluetoothPeripheral, .nearbyInteraction,
        .pushToTalk,
    ]
}
