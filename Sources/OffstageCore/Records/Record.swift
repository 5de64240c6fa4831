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
    /// A refresh started because the user is likely to open its app soon: the likelihood and its signal.
    case prediction
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

    // MARK: Background URLSession (issue 16, item 8)
    /// A background transfer was taken over, waited, ran, finished or was cancelled, or its events' wake waited.
    case transfer

    // MARK: Local notifications
    /// A local notification was scheduled, removed, delivered (to the app or shown by the system) or tapped.
    case notification
}

/// One structured entry of the system's decision log: when, which app, what, which task, and why.
/// The same records feed the timeline, the JSON report, `explain` and the tests; reports read `detail`,
/// the typed fact, and show `reason`, the words rendered from it (or written directly for a plain note).
public struct Record: Hashable, Sendable, Codable {
    public var at: Instant
    public var app: BundleID?
    public var kind: RecordKind
    public var task: String?
    /// What the record says as typed facts (blockers, launch reason, task kind, assertion, content age…);
    /// nil for a note whose words are all it says.
    public var detail: RecordDetail?
    /// How the record is put into words: written with it, or rendered from `detail` when read, so that a run
    /// that only counts its records (an evaluation's) never pays for words no one reads.
    private var words: Words

    /// A note's own words, or the wall clock a typed fact's times are read on.
    private enum Words: Hashable, Sendable {
        case written(String)
        case rendered(on: WallClock)
    }

    /// A note: the words are all it says.
    public init(at: Instant, app: BundleID?, kind: RecordKind, task: String? = nil, reason: String) {
        self.at = at
        self.app = app
        self.kind = kind
        self.task = task
        self.detail = nil
        self.words = .written(reason)
    }

    /// A typed fact, its words rendered from it (times on `clock`) when read.
    public init(
        at: Instant, app: BundleID?, kind: RecordKind, task: String? = nil, detail: RecordDetail, on clock: WallClock
    ) {
        self.at = at
        self.app = app
        self.kind = kind
        self.task = task
        self.detail = detail
        self.words = .rendered(on: clock)
    }

    /// The record's words: the note's, or the typed fact's rendered now (each read renders them anew).
    public var reason: String {
        switch words {
        case .written(let text): text
        case .rendered(let clock): detail?.text(on: clock) ?? ""
        }
    }

    /// Records are equal when they say the same, in the same words, however the words are kept (a record
    /// read back from JSON keeps them written).
    public static func == (a: Record, b: Record) -> Bool {
        a.at == b.at && a.app == b.app && a.kind == b.kind && a.task == b.task && a.detail == b.detail
            && a.reason == b.reason
    }

    /// Hashes what equality compares, but the words, which follow from the rest or were written with it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(at)
        hasher.combine(app)
        hasher.combine(kind)
        hasher.combine(task)
        hasher.combine(detail)
    }

    /// The kind of task a `started` record starts, so reports count runs by kind without reading words.
    public var taskKind: TaskKind? {
        if case .started(let kind, _) = detail { kind } else { nil }
    }

    /// A number the record measures, for reports: a content age in seconds (nil if never refreshed).
    public var value: Double? {
        if case .contentAge(let seconds) = detail { seconds } else { nil }
    }

    private enum CodingKeys: String, CodingKey { case at, app, kind, task, reason, detail, value, taskKind }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        at = try container.decode(Instant.self, forKey: .at)
        app = try container.decodeIfPresent(BundleID.self, forKey: .app)
        kind = try container.decode(RecordKind.self, forKey: .kind)
        task = try container.decodeIfPresent(String.self, forKey: .task)
        detail = try container.decodeIfPresent(RecordDetail.self, forKey: .detail)
        words = .written(try container.decode(String.self, forKey: .reason))
    }

    /// The stored fields and the typed detail, with `value` and `taskKind` spelled out for readers of the JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(at, forKey: .at)
        try container.encodeIfPresent(app, forKey: .app)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(task, forKey: .task)
        try container.encode(reason, forKey: .reason)
        try container.encodeIfPresent(detail, forKey: .detail)
        try container.encodeIfPresent(value, forKey: .value)
        try container.encodeIfPresent(taskKind, forKey: .taskKind)
    }
}

extension Array where Element == Effect {
    /// The records among these effects, in order.
    public var records: [Record] {
        compactMap { if case .record(let record) = $0 { record } else { nil } }
    }
}
