/// When an app's local notification is to be delivered, as the app's `UNUserNotificationCenter` worked it out
/// from its trigger: the next wall-clock times (a calendar trigger that repeats gives several), then every
/// `repeatEvery` seconds after the last one if its time-interval trigger repeats.
public struct LocalNotificationSchedule: Hashable, Sendable, Codable {
    /// The request's identifier: adding another with the same identifier replaces it, as on iOS.
    public var identifier: String
    /// Wall-clock seconds since 1970 of the next deliveries, ascending.
    public var fireEpochs: [Double]
    /// Seconds between deliveries after the last of `fireEpochs` (a repeating time-interval trigger); nil: none.
    public var repeatEvery: Double?
    /// What the notification shows, which the system keeps for a tap that launches the app.
    public var text: NotificationText

    public init(identifier: String, fireEpochs: [Double], repeatEvery: Double? = nil, text: NotificationText = .init())
    {
        self.identifier = identifier
        self.fireEpochs = fireEpochs
        self.repeatEvery = repeatEvery
        self.text = text
    }
}

/// The words a notification shows (its content's `title`, `subtitle` and `body`): the system keeps them, so that
/// a tap that launches the app hands it the notification as it was shown. `userInfo` stays in the app's process.
public struct NotificationText: Hashable, Sendable, Codable {
    public var title: String
    public var subtitle: String
    public var body: String

    public init(title: String = "", subtitle: String = "", body: String = "") {
        self.title = title
        self.subtitle = subtitle
        self.body = body
    }
}

/// What the app's code is told of a notification: shown while it is in the foreground (`willPresent`), or the
/// user tapped it (`didReceive`). The app's center finds the request by its identifier.
public enum NotificationPresentation: Hashable, Sendable, Codable {
    case willPresent(identifier: String)
    case didReceive(identifier: String, text: NotificationText)
}

/// A fact about a local notification, for the records.
public enum NotificationFact: Hashable, Sendable, Codable {
    /// The app scheduled it, first due at `at`.
    case scheduled(identifier: String, at: Instant)
    /// It came due: handed to the app in the foreground (`inForeground`), else shown by the system.
    case delivered(identifier: String, inForeground: Bool)
    /// The user tapped it: its app opens (launching if needed) and gets `didReceive`.
    case tapped(identifier: String)
    /// The app removed pending requests: these identifiers (nil: all of them).
    case removed(identifiers: [String]?)

    /// The fact in words.
    var words: String {
        switch self {
        case .scheduled(let identifier, _): "local notification \"\(identifier)\" scheduled"
        case .delivered(let identifier, true): "notification \"\(identifier)\" delivered in the foreground: willPresent"
        case .delivered(let identifier, false): "notification \"\(identifier)\" shown by the system"
        case .tapped(let identifier): "the user tapped notification \"\(identifier)\": the app opens with it"
        case .removed(let identifiers?): "pending notifications removed: \(identifiers.joined(separator: ", "))"
        case .removed(nil): "all pending notifications removed"
        }
    }
}

/// The local notifications the system holds for apps: those waiting for their time, in the order they were
/// added, and those delivered and still in Notification Center (the newest `deliveredKept` per app). Its state is
/// private: transitions take `now` and what they read and return the facts to record.
struct LocalNotifications: Sendable {
    /// One scheduled request: its app, its next delivery, and the deliveries after it.
    struct Pending: Sendable {
        var app: BundleID
        var identifier: String
        var next: Instant
        var later: [Instant]
        var repeatEvery: Double?
        var text: NotificationText
    }

    /// A notification shown in Notification Center, waiting for a tap.
    struct Shown: Sendable {
        var identifier: String
        var text: NotificationText
    }

    /// How many delivered notifications Notification Center keeps per app (ours: Apple gives no number).
    static let deliveredKept = 64
    /// How many deliveries of one request the system keeps ahead (iOS keeps 64 pending requests per app).
    static let deliveriesKept = 64
    /// The shortest interval of a repeating notification (iOS requires at least 60 s).
    static let shortestRepeat = 60.0

    private var pending: [Pending] = []
    private var delivered: [BundleID: [Shown]] = [:]

    /// `add(_:)`: keeps the app's request (replacing one with the same identifier) for its first valid time, on
    /// `wallClock`, no sooner than `now`; times that are not finite, and a repeat shorter than iOS allows, are
    /// refused rather than kept. Returns the fact to record, or nil when no valid time is left (nothing is kept).
    mutating func add(
        _ schedule: LocalNotificationSchedule, of app: BundleID, at now: Instant, on wallClock: WallClock
    ) -> NotificationFact? {
        let times = schedule.fireEpochs.filter(\.isFinite).prefix(Self.deliveriesKept)
            .map { wallClock.instant(forEpoch: $0) }.sorted()
        let repeatEvery = schedule.repeatEvery.flatMap { $0.isFinite && $0 >= Self.shortestRepeat ? $0 : nil }
        guard let first = times.first else { return nil }
        let (identifier, next) = (schedule.identifier, max(first, now))
        pending.removeAll { $0.app == app && $0.identifier == identifier }
        pending.append(
            Pending(
                app: app, identifier: identifier, next: next, later: Array(times.dropFirst()), repeatEvery: repeatEvery,
                text: schedule.text))
        return .scheduled(identifier: identifier, at: next)
    }

    /// `removePendingNotificationRequests(withIdentifiers:)` of the app, or all of them (`identifiers` nil);
    /// returns the fact to record.
    mutating func removePending(_ identifiers: [String]?, of app: BundleID) -> NotificationFact {
        pending.removeAll { $0.app == app && (identifiers?.contains($0.identifier) ?? true) }
        return .removed(identifiers: identifiers)
    }

    /// When the next notification comes due, for `nextDueTime`.
    var nextDueTime: Instant? { pending.lazy.map(\.next).min() }

    /// Takes the notifications due by `now`, in the order they come due (then the order they were added),
    /// keeping repeating ones with their next time.
    mutating func takeDue(by now: Instant) -> [(app: BundleID, shown: Shown)] {
        guard !pending.isEmpty else { return [] }  // asked after every entry point; most devices have none
        var due: [(at: Instant, order: Int, app: BundleID, shown: Shown)] = []
        for index in pending.indices where pending[index].next <= now {
            let entry = pending[index]
            due.append((entry.next, index, entry.app, Shown(identifier: entry.identifier, text: entry.text)))
            pending[index].advance()
        }
        pending.removeAll { $0.next == Instant(seconds: .infinity) }
        return due.sorted { ($0.at, $0.order) < ($1.at, $1.order) }.map { ($0.app, $0.shown) }
    }

    /// Notes a notification shown by the system, for a later tap.
    mutating func noteShown(_ shown: Shown, of app: BundleID) {
        var list = delivered[app, default: []]
        list.removeAll { $0.identifier == shown.identifier }
        list.append(shown)
        if list.count > Self.deliveredKept { list.removeFirst(list.count - Self.deliveredKept) }
        delivered[app] = list
    }

    /// Takes a delivered notification off Notification Center for a tap: the one named, or the newest.
    mutating func takeDelivered(_ identifier: String?, of app: BundleID) -> Shown? {
        guard var list = delivered[app],
            let index = identifier.map({ name in list.lastIndex { $0.identifier == name } }) ?? list.indices.last
        else { return nil }
        let taken = list.remove(at: index)
        delivered[app] = list
        return taken
    }
}

extension LocalNotifications.Pending {
    /// Moves on to the next delivery; `Instant(seconds: .infinity)` when there is none.
    mutating func advance() {
        if !later.isEmpty {
            next = later.removeFirst()
        } else if let repeatEvery, repeatEvery > 0 {
            next = next + repeatEvery
        } else {
            next = Instant(seconds: .infinity)
        }
    }
}
