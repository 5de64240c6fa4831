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

/// What happens to the local notifications: an app's call, a notification shown for an app (a scenario's or a
/// trace's, sent by the app's server), the user's tap in Notification Center, or time passing.
enum NotificationInput: Sendable {
    /// `add(_:)` from the app's code.
    case schedule(LocalNotificationSchedule, from: BundleID)
    /// `removePendingNotificationRequests(withIdentifiers:)` from the app's code, or the removal of all (nil).
    case removePending([String]?, from: BundleID)
    /// A notification the app's server sent comes up now, known by `identifier` only.
    case shown(BundleID, identifier: String)
    /// The user tapped a notification of the app in Notification Center: the one named, or the newest.
    case tapped(BundleID, identifier: String?)
    /// Time passed: the notifications due by now come up.
    case timePassed
}

/// What a local-notification transition asks the system to carry out, in order. The notifications never see the
/// system: `BackgroundSystem.handleNotifications` does each.
enum NotificationAction: Sendable, Equatable {
    /// Record this fact about the app's notification, of this kind, with the task column `task`.
    case note(BundleID, RecordKind, task: String?, NotificationFact)
    /// Record these words about the app in the log: a call or a tap that changed nothing.
    case log(BundleID, String)
    /// Hand the app's code this presentation (`Effect.presentNotification`).
    case present(BundleID, NotificationPresentation)
    /// The system showed a notification: a sleeping device wakes, as for the user.
    case wakeDevice
    /// Open the app for the user, as from its icon: the device unlocks on the way.
    case open(BundleID)
}

/// The local notifications the system holds for apps: those waiting for their time, in the order they were
/// added, and those delivered and still in Notification Center (the newest `deliveredKept` per app). Its state is
/// private: `take` takes what happened, `now` and what it reads, and returns what the system carries out.
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

    /// Takes what happened at `now` (wall clock `wallClock`); `inForeground` says whether an app is on screen with
    /// a live process, whose delegate then gets a notification that comes up (`willPresent`) instead of the
    /// system showing it. Returns what to carry out, in order.
    mutating func take(
        _ input: NotificationInput, now: Instant, wallClock: WallClock, inForeground: (BundleID) -> Bool
    ) -> [NotificationAction] {
        switch input {
        case .schedule(let schedule, let app):
            guard let fact = add(schedule, of: app, at: now, on: wallClock) else {
                return [.log(app, "notification \"\(schedule.identifier)\" has no valid delivery time: not scheduled")]
            }
            return [.note(app, .notification, task: schedule.identifier, fact)]
        case .removePending(let identifiers, let app):
            return [.note(app, .notification, task: nil, removePending(identifiers, of: app))]
        case .shown(let app, let identifier):
            return deliver(Shown(identifier: identifier, text: NotificationText()), to: app, inForeground: inForeground)
        case .tapped(let app, let identifier):
            return tap(identifier, of: app)
        case .timePassed:
            guard !pending.isEmpty else { return [] }  // asked after every entry point; most devices have none
            var actions: [NotificationAction] = []
            for (app, shown) in takeDue(by: now) { actions += deliver(shown, to: app, inForeground: inForeground) }
            return actions
        }
    }

    /// A notification of the app comes up: the app in the foreground gets `willPresent`; otherwise the system
    /// shows it (in Notification Center, for a tap), which wakes a sleeping device.
    private mutating func deliver(_ shown: Shown, to app: BundleID, inForeground: (BundleID) -> Bool)
        -> [NotificationAction]
    {
        let (identifier, foreground) = (shown.identifier, inForeground(app))
        let delivered = NotificationAction.note(
            app, .notification, task: identifier, .delivered(identifier: identifier, inForeground: foreground))
        guard !foreground else { return [delivered, .present(app, .willPresent(identifier: identifier))] }
        noteShown(shown, of: app)
        return [delivered, .wakeDevice]
    }

    /// The user tapped a notification of the app in Notification Center (the one named, or the newest): the app
    /// opens as from its icon, and its delegate gets `didReceive` once it has launched.
    private mutating func tap(_ identifier: String?, of app: BundleID) -> [NotificationAction] {
        guard let tapped = takeDelivered(identifier, of: app) else {
            let which = identifier.map { "\"\($0)\"" } ?? "any"
            return [.log(app, "tap: no delivered notification \(which) of the app to tap")]
        }
        return [
            .note(app, .user, task: tapped.identifier, .tapped(identifier: tapped.identifier)), .open(app),
            .present(app, .didReceive(identifier: tapped.identifier, text: tapped.text)),
        ]
    }

    /// `add(_:)`: keeps the app's request (replacing one with the same identifier) for its first valid time, on
    /// `wallClock`, no sooner than `now`; times that are not finite, and a repeat shorter than iOS allows, are
    /// refused rather than kept. Returns the fact to record, or nil when no valid time is left (nothing is kept).
    private mutating func add(
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
    private mutating func removePending(_ identifiers: [String]?, of app: BundleID) -> NotificationFact {
        pending.removeAll { $0.app == app && (identifiers?.contains($0.identifier) ?? true) }
        return .removed(identifiers: identifiers)
    }

    /// When the next notification comes due, for `nextDueTime`.
    var nextDueTime: Instant? { pending.lazy.map(\.next).min() }

    /// Takes the notifications due by `now`, in the order they come due (then the order they were added),
    /// keeping repeating ones with their next time.
    private mutating func takeDue(by now: Instant) -> [(app: BundleID, shown: Shown)] {
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
    private mutating func noteShown(_ shown: Shown, of app: BundleID) {
        var list = delivered[app, default: []]
        list.removeAll { $0.identifier == shown.identifier }
        list.append(shown)
        if list.count > Self.deliveredKept { list.removeFirst(list.count - Self.deliveredKept) }
        delivered[app] = list
    }

    /// Takes a delivered notification off Notification Center for a tap: the one named, or the newest.
    private mutating func takeDelivered(_ identifier: String?, of app: BundleID) -> Shown? {
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
