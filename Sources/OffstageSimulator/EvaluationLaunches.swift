public import OffstageCore

/// What kind of launch a user made, for the evaluation's split: content matters most where the person
/// has not just seen it. The classes are exclusive, taken in this order: first, low battery, reopened, cold.
public enum LaunchClass: String, Hashable, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    /// The user's first launch of the app in the trace: it has never run, so it never asked for a refresh.
    case first
    /// The battery was below the policy's critical level (20 %) off the charger: discretionary work waits.
    case lowBattery = "low battery"
    /// The app comes back within `Evaluation.freshWithin` (15 min) of leaving the screen.
    case reopened
    /// Any other launch: the app was last used more than 15 minutes before.
    case cold

    /// The table's column heading.
    var heading: String {
        switch self {
        case .first: "first"
        case .lowBattery: "low batt."
        case .reopened: "re-open"
        case .cold: "cold"
        }
    }
}

/// One launch of the trace as a policy's replay saw it: when, which app, the content's age and its class.
public struct LaunchOutcome: Hashable, Sendable, Codable {
    /// Seconds since 1970 (UTC).
    public var epoch: Double
    public var app: BundleID
    /// Seconds since the content's last background refresh; nil when it was never refreshed.
    public var contentAge: Double?
    public var launchClass: LaunchClass
    /// Seconds since the app last left the screen, where it fetched what the user saw; nil for its first launch.
    public var sinceLastUse: Double?

    /// The age of what the user sees at the launch: foreground use refreshes too, so the content is as recent as
    /// the later of the last background refresh and the app's last time on screen; nil when neither happened.
    public var seenAge: Double? {
        switch (contentAge, sinceLastUse) {
        case (let background?, let foreground?): min(background, foreground)
        case (let age?, nil), (nil, let age?): age
        case (nil, nil): nil
        }
    }

    /// Whether the user sees content at most `Evaluation.freshWithin` old (foreground use counting as a refresh).
    public var isFresh: Bool { seenAge.map { $0 <= Evaluation.freshWithin } ?? false }
    /// Whether a background refresh alone made the content fresh: what background work earned at this launch.
    public var isFreshFromBackground: Bool { contentAge.map { $0 <= Evaluation.freshWithin } ?? false }
}

/// How often the user opens an app (its launches a day over the replay), for the evaluation's split by
/// popularity: the long tail of rarely used apps must be served at least as well as a timer would.
public enum PopularityBucket: String, Hashable, Sendable, Codable, CaseIterable, CodingKeyRepresentable {
    case daily10 = "10+/day"
    case daily3 = "3-10/day"
    case daily1 = "1-3/day"
    case occasional = "0.3-1/day"
    case rare = "<0.3/day"

    /// The bucket of an app opened `launchesPerDay` times a day.
    init(launchesPerDay: Double) {
        switch launchesPerDay {
        case 10...: self = .daily10
        case 3..<10: self = .daily3
        case 1..<3: self = .daily1
        case 0.3..<1: self = .occasional
        default: self = .rare
        }
    }
}

/// A launch the trace asks for, before any replay: when, which app, and how long since the app left the
/// screen (nil for the user's first launch of it).
struct TraceLaunch: Hashable, Sendable {
    var epoch: Double
    var app: BundleID
    var sinceLastUse: Double?

    /// The launches in one user's rows, in time order: each `opened` of an app that is not on screen.
    static func launches(in rows: [TraceEvent]) -> [TraceLaunch] {
        var onScreen: BundleID?
        var lastUse: [BundleID: Double] = [:]
        var launches: [TraceLaunch] = []
        for row in rows {
            guard let app = row.app else { continue }
            switch row.kind {
            case .opened:
                guard onScreen != app else { continue }
                if let previous = onScreen { lastUse[previous] = row.epoch }
                launches.append(
                    TraceLaunch(epoch: row.epoch, app: app, sinceLastUse: lastUse[app].map { row.epoch - $0 }))
                onScreen = app
            case .closed:
                lastUse[app] = row.epoch
                onScreen = nil
            case .notification, .screenOn, .unlock, .screenOff:
                continue
            }
        }
        return launches
    }

    /// The launch's class, given the battery at that moment.
    func launchClass(battery: BatteryHistory.Sample?, criticalLevel: Double) -> LaunchClass {
        guard let sinceLastUse else { return .first }
        if let battery, !battery.isCharging, battery.level < criticalLevel { return .lowBattery }
        return sinceLastUse <= Evaluation.freshWithin ? .reopened : .cold
    }
}

/// What an evaluation keeps of a lean run's records as they come (`Simulation.recordObserver`): the content
/// age recorded at each launch and the count of refresh runs per app; the rest is dropped, so memory stays bounded.
final class RecordSummary {
    /// A `contentAge` record: when, which app, and the age (nil when never refreshed).
    struct ContentAge {
        var at: Instant
        var app: BundleID?
        var value: Double?
    }

    /// Whether `note` reads records of this kind: the run need not hand over any other.
    @Sendable static func reads(_ kind: RecordKind) -> Bool {
        switch kind {
        case .contentAge, .started: true
        default: false
        }
    }

    private(set) var contentAges: [ContentAge] = []
    /// `started` records of app-refresh tasks, per app.
    private(set) var refreshRecords: [BundleID: Int] = [:]

    func note(_ record: Record) {
        if record.kind == .contentAge {
            contentAges.append(ContentAge(at: record.at, app: record.app, value: record.value))
        }
        if record.taskKind == .appRefresh, let app = record.app { refreshRecords[app, default: 0] += 1 }
    }
}
