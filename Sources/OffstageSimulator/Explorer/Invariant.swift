public import OffstageCore

/// What happened in one explored history: its disturbances, every record of its run, and the system as the run
/// left it. Invariants read it.
public struct HistoryOutcome: Sendable {
    /// The app explored.
    public var app: BundleID
    public var events: [HistoryEvent]
    public var records: [Record]
    /// The system at the end of the run (pending requests, outstanding assertions, states).
    public var system: BackgroundSystem
    /// When the history ended.
    public var end: Instant

    /// The explored app's records, oldest first.
    public var appRecords: [Record] { records.filter { $0.app == app } }
}

/// A broken invariant: when (if it has a moment) and what went wrong, in words for the report.
public struct Violation: Hashable, Sendable, CustomStringConvertible {
    public var at: Instant?
    public var what: String

    public init(at: Instant?, _ what: String) {
        self.at = at
        self.what = what
    }

    public var description: String { at.map { "\(Self.clock($0.seconds)): \(what)" } ?? what }

    /// Seconds from the start as `h:mm:ss.mmm`, as the explorer's timelines print moments.
    static func clock(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        func padded(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        let (h, m, s) = (milliseconds / 3_600_000, milliseconds / 60_000 % 60, milliseconds / 1000 % 60)
        return "\(h):\(padded(m, 2)):\(padded(s, 2)).\(padded(milliseconds % 1000, 3))"
    }
}

/// Something that must hold in every explored history, by name: `check` returns the first violation, or nil.
/// The explorer checks the built-in ones (`Invariant.standard`) and any an app's test adds.
public struct Invariant: Sendable {
    public var name: String
    public var check: @Sendable (HistoryOutcome) -> Violation?

    public init(_ name: String, check: @escaping @Sendable (HistoryOutcome) -> Violation?) {
        self.name = name
        self.check = check
    }

    /// The invariants every app's background code must keep, most specific first (a history is reported
    /// against the first one it breaks).
    public static let standard: [Invariant] = [
        noCrash, expirationHandlerEndsItsTask, noWorkAfterExpiration, everyTaskIsCompleted,
        everyBackgroundTaskIsEnded, noWatchdogKill, refreshIsScheduledAgain,
    ]

    /// Seconds an app may take to call `setTaskCompleted` after its expiration handler ran, before the work it
    /// did meanwhile counts as work after expiration (ours: Apple says only that the handler should end the
    /// work at once).
    public static let expirationSlack = 1.0

    /// Seconds before a history's end in which a task may start and still be running when it ends (ours: half
    /// an hour, longer than any task's runtime without a charger).
    public static let settlingTime = 1_800.0

    /// The app never crashes (an API misuse iOS crashes on, such as registering a launch handler after launch).
    public static let noCrash = Invariant("no crash") { outcome in
        outcome.appRecords.lazy.compactMap { record -> Violation? in
            guard case .terminated(_, .crash(let message)) = record.detail else { return nil }
            return Violation(at: record.at, "the app crashed: \(message)")
        }.first
    }

    /// The watchdog never ends the app.
    public static let noWatchdogKill = Invariant("no watchdog kill") { outcome in
        outcome.appRecords.lazy.compactMap { record -> Violation? in
            guard case .terminated(_, .watchdog(let why)) = record.detail else { return nil }
            return Violation(at: record.at, "the watchdog killed the app: \(why)")
        }.first
    }

    /// Every task started is completed by the app (`setTaskCompleted`) before the watchdog ends it, and none
    /// started before the history's last `settlingTime` is left running at its end; a task whose process was
    /// killed from outside is excused.
    public static let everyTaskIsCompleted = Invariant("every started task is completed") { outcome in
        // Runs of one identifier may overlap (a new request launched while the last runs): each ends the oldest.
        var running: [String: [Instant]] = [:]
        for record in outcome.appRecords {
            guard let task = record.task else { continue }
            switch record.detail {
            case .started: running[task, default: []].append(record.at)
            case .completed: running[task]?.removeFirst()
            case .killed(.watchdog(let why)):
                if let started = running[task]?.first {
                    return Violation(
                        at: record.at,
                        "task \(task) started at \(Violation.clock(started.seconds)) never called setTaskCompleted: "
                            + "killed (watchdog: \(why))")
                }
            case .killed: running[task] = []
            default: break
            }
        }
        // A task started in the history's last half hour may rightly be running still.
        let oldest = running.compactMap { task, starts in starts.first.map { (task, $0) } }
            .filter { outcome.end - $0.1 > settlingTime }.min { $0.1 < $1.1 }
        return oldest.map { task, started in
            Violation(at: started, "task \(task) never called setTaskCompleted: still running when the history ended")
        }
    }

    /// After a task's expiration, the app completes it (its expiration handler ends the work) before the watchdog.
    public static let expirationHandlerEndsItsTask = Invariant("an expiration handler ends its task") { outcome in
        afterExpirations(in: outcome) { task, expired, end in
            switch end?.detail {
            case .completed?: return nil
            case .killed(.watchdog)?:
                return Violation(
                    at: expired, "task \(task) expired and was never completed: the watchdog killed the app")
            case .killed?: return nil
            default: return Violation(at: expired, "task \(task) expired and was never completed")
            }
        }
    }

    /// After a task's expiration, no work goes on: the app completes it within `expirationSlack` seconds.
    public static let noWorkAfterExpiration = Invariant("no work after expiration") { outcome in
        afterExpirations(in: outcome) { task, expired, end in
            guard let end, case .completed = end.detail, end.at - expired > expirationSlack else { return nil }
            return Violation(
                at: expired,
                "task \(task) expired but its work went on \(end.at - expired) s before setTaskCompleted")
        }
    }

    /// Every `beginBackgroundTask` is ended: no assertion outlives its background time (the watchdog kills the
    /// app then), and none is left outstanding while the app is not on screen when the history ends.
    public static let everyBackgroundTaskIsEnded = Invariant("every beginBackgroundTask is ended") { outcome in
        var begun: [Int: Instant] = [:]
        for record in outcome.appRecords {
            switch record.detail {
            case .assertionBegan(let number, _): begun[number] = record.at
            case .assertionEnded(let number): begun[number] = nil
            case .terminated(_, .watchdog(let why)) where !begun.isEmpty:
                let (number, at) = begun.min { $0.value < $1.value }!
                return Violation(
                    at: at, "background task \(number) was never ended: the watchdog killed the app (\(why))")
            case .terminated: begun = [:]
            default: break
            }
        }
        let outstanding = outcome.system.app(outcome.app).outstandingAssertions
        guard let number = outstanding.first, outcome.system.app(outcome.app).state != .active else { return nil }
        return Violation(at: begun[number], "background task \(number) was never ended")
    }

    /// Every app refresh that ran is followed by a new refresh request (the app schedules its next one; a request
    /// the system refuses counts), unless its process was ended from outside first.
    public static let refreshIsScheduledAgain = Invariant("the refresh is scheduled again") { outcome in
        var unanswered: (task: String, at: Instant)?
        for record in outcome.appRecords {
            switch record.detail {
            case .started(.appRefresh, _): unanswered = unanswered ?? (record.task ?? "", record.at)
            case .submitted(.appRefresh, _): unanswered = nil
            // Refused (Background App Refresh off, Low Power Mode): the app did ask.
            case nil where record.kind == .rejected && record.task == unanswered?.task: unanswered = nil
            case .terminated(_, let reason) where reason.isFromOutside: unanswered = nil
            default: break
            }
        }
        return unanswered.map { Violation(at: $0.at, "refresh \($0.task) ran and no new refresh was scheduled") }
    }

    /// Calls `judge` with each expiration of the app's tasks: the task, when it expired, and the record that
    /// ended it afterwards (nil if none did); returns the first violation.
    private static func afterExpirations(
        in outcome: HistoryOutcome, _ judge: (String, Instant, Record?) -> Violation?
    ) -> Violation? {
        let records = outcome.appRecords
        for (index, record) in records.enumerated() {
            guard case .expired = record.detail, let task = record.task else { continue }
            let end = records[(index + 1)...].first { later in
                guard later.task == task else { return false }
                if case .completed = later.detail { return true }
                if case .killed = later.detail { return true }
                return false
            }
            if let violation = judge(task, record.at, end) { return violation }
        }
        return nil
    }
}

extension TerminationReason {
    /// Whether something outside the app ended it (the user, jetsam, a shutdown, an exit the host saw), not the
    /// app's own fault (a crash, a watchdog, a resource limit).
    var isFromOutside: Bool {
        switch self {
        case .userForceQuit, .memoryPressure, .deviceShutdown, .exited: true
        case .watchdog, .crash, .resourceLimit: false
        }
    }
}
