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

    /// Whether the content was refreshed within `Evaluation.freshWithin` before the launch.
    public var isFresh: Bool { contentAge.map { $0 <= Evaluation.freshWithin } ?? false }
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
/// age recorded at each launch and the count of refresh runs; the rest is dropped, so memory stays bounded.
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
    /// `started` records of app-refresh tasks.
    private(set) var refreshRecords = 0

    func note(_ record: Record) {
        if record.kind == .contentAge {
            contentAges.append(ContentAge(at: record.at, app: record.app, value: record.value))
        }
        if record.taskKind == .appRefresh { refreshRecords += 1 }
    }
}
