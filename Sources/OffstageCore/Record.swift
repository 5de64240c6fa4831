/// What kind of decision or fact a `Record` keeps.
public enum RecordKind: String, Hashable, Sendable, Codable, CaseIterable {
    case installed
    case launched
    case callback
    case state
    case suspended
    case resumed
    case terminated
    case crashed
    case register
    case submitted
    case rejected
    case replaced
    case cancelled
    case deferred
    case started
    case expired
    case completed
    case killed
    case assertionBegan = "assertion began"
    case assertionEnded = "assertion ended"
    case assertionExpired = "assertion expired"
    case log
    case user
    case device
    case setting
    /// The age of an app's content when the user opened it (`value`: seconds, nil if never refreshed).
    case contentAge = "content age"
    /// The system woke the sleeping device to run discretionary work.
    case wake
    /// A task's outcome moved its app's cooperation score.
    case cooperation

    // MARK: Continued processing and resource limits
    /// The continued-processing progress UI appeared, showed an outcome, or went away.
    case progressUI = "progress UI"
    /// The system asked the user whether a slow continued-processing task should go on.
    case askedUser = "asked user"
    /// A background app went over a CPU or memory limit.
    case resourceLimit = "resource limit"

    // MARK: Background pushes, legacy fetch and background modes (§7)
    /// A background push arrived.
    case push
    /// A location event arrived.
    case location
    /// A push or location event was thrown away (no mode, force-quit, coalesced, not monitored).
    case dropped
    /// A push, fetch or location event was handed to the app's code.
    case delivered
    /// The app called the completion handler, or the event's window ended.
    case handled
    /// A continuous background mode (audio, location, VoIP…) started or stopped.
    case backgroundMode = "background mode"

    // MARK: Restarts of the host (the daemon's re-adoption)
    /// A restarted system took over a live process that a previous run started.
    case adopted
}

/// One structured entry of the system's decision log: when, which app, what, which task, and why.
/// The same records feed the timeline, the JSON report, `explain` and the tests.
public struct Record: Hashable, Sendable, Codable {
    public var at: Instant
    public var app: BundleID?
    public var kind: RecordKind
    public var task: String?
    public var reason: String
    /// A number the record measures, for reports (e.g. a content age in seconds).
    public var value: Double?
    /// The kind of task a `started` record starts, so reports count runs by kind without reading words.
    public var taskKind: TaskKind?

    public init(
        at: Instant, app: BundleID?, kind: RecordKind, task: String? = nil, reason: String, value: Double? = nil,
        taskKind: TaskKind? = nil
    ) {
        self.at = at
        self.app = app
        self.kind = kind
        self.task = task
        self.reason = reason
        self.value = value
        self.taskKind = taskKind
    }
}

extension Array where Element == Effect {
    /// The records among these effects, in order.
    public var records: [Record] {
        compactMap { if case .record(let record) = $0 { record } else { nil } }
    }
}
