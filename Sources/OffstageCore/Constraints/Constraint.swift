/// What a constraint sees when it judges a request: the device, the settings, the app and the time.
/// Built by the system for each evaluation; constraints never keep state of their own.
public struct ConstraintContext: Sendable {
    public var now: Instant
    /// The policy, shared with the system rather than copied into every context (it is hundreds of bytes).
    public var policy: Policy {
        get { sharedPolicy.value }
        set { sharedPolicy = SharedPolicy(newValue) }
    }
    var sharedPolicy: SharedPolicy
    public var device: DeviceState
    public var settings: UserSettings
    public var wallClock: WallClock
    public var app: BundleID
    public var appState: AppState
    /// Whether the user swiped the app away since they last opened it.
    public var appForceQuit: Bool
    /// Identifiers of the app's tasks running now.
    public var runningIdentifiers: Set<String>
    /// The kind of work judged: the request's own kind, or the push or legacy fetch a probe request stands for.
    public var work: WorkKind = .appRefresh
    /// Usage, quota, budgets and wakefulness, for the judgement constraints.
    public var judgement: JudgementContext
}

/// A constraint's answer for one request.
public enum Verdict: Hashable, Sendable {
    case satisfied
    /// Blocked for `reason`; `until` is when it lifts by itself, nil when it waits for a change.
    case blocked(reason: BlockerReason, until: Instant?)
}

/// Why a constraint blocks, in words: written at once (a string literal or interpolation), or rendered from the
/// verdict's numbers when first read (`init(rendering:)`), since most verdicts are never shown (a lean run records
/// none, and the launch prediction's words were a tenth of its replay's time). Equal when the words are.
public struct BlockerReason: Hashable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    private enum Words: Sendable {
        case written(String)
        case rendered(@Sendable () -> String)
    }

    private let words: Words

    public init(stringLiteral value: String) { words = .written(value) }
    public init(stringInterpolation: DefaultStringInterpolation) {
        words = .written(String(stringInterpolation: stringInterpolation))
    }
    /// Words rendered from a verdict's values only when read.
    public init(rendering render: @escaping @Sendable () -> String) { words = .rendered(render) }

    /// The reason in words.
    public var text: String {
        switch words {
        case .written(let text): text
        case .rendered(let render): render()
        }
    }

    public var description: String { text }
    public static func == (a: BlockerReason, b: BlockerReason) -> Bool { a.text == b.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// One condition a request must meet before it runs, judged on its own and explained in words.
/// A request is eligible when every constraint that applies to it is satisfied (Android's "controllers").
public protocol Constraint: Sendable {
    /// A short stable name, e.g. `deviceIdle`: what `explain` and the records show.
    var name: String { get }
    /// Whether the constraint judges requests of this kind.
    func applies(to request: TaskRequest) -> Bool
    /// The WWDC20 factor the constraint embodies, if any: then `FactorTable.standard` decides the work it holds.
    var factor: WorkFactor? { get }
    /// Whether the constraint judges this kind of work at all; by default, for a factor, the table's answer, and
    /// otherwise the work judged as a request (refresh, processing and legacy fetch).
    func applies(to work: WorkKind) -> Bool
    /// Whether the request may start now.
    func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict
    /// Why a task already running must be expired now, or nil to let it go on.
    func interrupts(_ request: TaskRequest, in context: ConstraintContext) -> String?
    /// What, besides the time (its `until`) and the app's own events, can lift its blocked verdict: the
    /// system-wide changes that should review the app. Empty when it reads only the time and its own app.
    func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts
    /// When a `satisfied` verdict turns by the passing of time alone, the context otherwise the same; nil
    /// when it holds until the context changes. (A `blocked` verdict holds until its `until`.)
    func satisfactionEnds(for request: TaskRequest, in context: ConstraintContext) -> Instant?
    /// Whether a blocked verdict with a time holds until that time whatever happens, the request the same (an
    /// earliest begin date, a spacing from the last run): nothing can start the request sooner, so it is not
    /// judged again before then. False by default.
    var holdsUntilItsTime: Bool { get }
}

extension Constraint {
    public var factor: WorkFactor? { nil }
    public func applies(to work: WorkKind) -> Bool {
        if let factor { return FactorTable.standard.holds(factor, work) }
        return work == .appRefresh || work == .processing || work == .backgroundFetch
    }
    public func interrupts(_ request: TaskRequest, in context: ConstraintContext) -> String? { nil }
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { .sharedChange }
    public func satisfactionEnds(for request: TaskRequest, in context: ConstraintContext) -> Instant? { nil }
    public var holdsUntilItsTime: Bool { false }
}

/// A constraint that blocks a request, as `explain` lists it.
public struct Blocker: Hashable, Sendable, Codable, CustomStringConvertible {
    public var constraint: String
    /// Why it blocks, in words (rendered when first read, if the constraint gave them so).
    public var reason: String {
        get { words.text }
        set { words = BlockerReason(stringLiteral: newValue) }
    }
    private var words: BlockerReason
    public var until: Instant?

    public init(constraint: String, reason: String, until: Instant?) {
        self.init(constraint: constraint, words: BlockerReason(stringLiteral: reason), until: until)
    }

    /// A blocker whose words are rendered when read.
    init(constraint: String, words: BlockerReason, until: Instant?) {
        self.constraint = constraint
        self.words = words
        self.until = until
    }

    /// The blocker with its words written once: one that is kept (in a record, an explanation) is read again and
    /// again, and rendered words would be rendered at every read.
    var withWordsWritten: Blocker { Blocker(constraint: constraint, reason: reason, until: until) }

    private enum CodingKeys: String, CodingKey { case constraint, reason, until }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            constraint: try container.decode(String.self, forKey: .constraint),
            reason: try container.decode(String.self, forKey: .reason),
            until: try container.decodeIfPresent(Instant.self, forKey: .until))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(constraint, forKey: .constraint)
        try container.encode(reason, forKey: .reason)
        try container.encodeIfPresent(until, forKey: .until)
    }

    public var description: String { "\(constraint): \(reason)" }

    /// The blocker in words, with the wall-clock time it lifts by itself, if it does.
    public func explained(on clock: WallClock) -> String { [self].explained(on: clock) }

    /// The UTF-8 bytes `explained(on:)` takes.
    func explainedLength(on clock: WallClock) -> Int {
        let words = constraint.utf8.count + 2 + reason.utf8.count
        return until.map { words + 9 + clock.timestampLength(at: $0) } ?? words  // " (until " … ")"
    }

    /// Writes the blocker's words: the one place they are written, for one blocker or a list.
    func write(on clock: WallClock, to text: inout TextWriter) {
        text.write(constraint)
        text.write(": ")
        text.write(reason)
        guard let until else { return }
        text.write(" (until ")
        clock.writeTimestamp(at: until, to: &text)
        text.write(byte: UInt8(ascii: ")"))
    }
}

extension Array where Element == any Constraint {
    /// The constraints of §5, in the order `explain` lists them: the gates first, then the judgement
    /// (usage tier, quota, rate limit, launch prediction, budgets) and last coalescing, which decides when.
    public static var standard: [any Constraint] {
        [
            EarliestBeginDateConstraint(), BackgroundAppRefreshConstraint(), LowPowerModeConstraint(),
            CriticalBatteryConstraint(), ThermalConstraint(), NetworkConstraint(), ExternalPowerConstraint(),
            DeviceIdleConstraint(), ForceQuitConstraint(), ForegroundConstraint(), NotAlreadyRunningConstraint(),
            UsageTierConstraint(), QuotaConstraint(), RateLimitConstraint(), ProcessingPaceConstraint(),
            LittleKnownConstraint(), LaunchPredictionConstraint(),
            EnergyBudgetConstraint(),
            CellularDataBudgetConstraint(), CoalescingConstraint(),
        ]
    }

    /// The blocked constraints for `request`, judged as `work` (by default its own kind), in order; empty
    /// means eligible. Pushes and legacy fetches are judged on a probe request as their own kind of work.
    public func blockers(
        for request: TaskRequest, as work: WorkKind? = nil, in context: ConstraintContext
    ) -> [Blocker] {
        judge(request, as: work, in: context).blockers.map(\.withWordsWritten)
    }

    /// The blocked constraints for `request`; the earliest time any verdict turns by time alone (a
    /// blocker lifts or a satisfied constraint stops being so: until then, in the same context, the
    /// judgement is the same); and how the request waits (see `RequestWait`).
    func judge(
        _ request: TaskRequest, as work: WorkKind? = nil, in context: ConstraintContext
    ) -> (blockers: [Blocker], turnsAt: Instant?, wait: RequestWait) {
        let work = work ?? WorkKind(request.kind)
        guard context.work == work else {
            // The context judged is immutable: each constraint is handed it where it lies, where a mutable copy
            // was copied whole again for every constraint asked.
            var judged = context
            judged.work = work
            return judge(request, as: work, in: judged)
        }
        var blockers: [Blocker] = []  // most judgements find a few blockers, or none: no room made up front
        var turnsAt: Instant?
        var wait = RequestWait()
        // By index, each constraint used where it lies: binding one to a name would copy it out of the array.
        for index in indices where self[index].applies(to: work) && self[index].applies(to: request) {
            let turns: Instant?
            switch self[index].evaluate(request, in: context) {
            case .satisfied: turns = self[index].satisfactionEnds(for: request, in: context)
            case .blocked(let reason, let until):
                if blockers.isEmpty { blockers.reserveCapacity(4) }  // one allocation for the usual few
                blockers.append(Blocker(constraint: self[index].name, words: reason, until: until))
                wait.note(
                    until: until, lifts: self[index].lifts(request, in: context),
                    fixed: self[index].holdsUntilItsTime)
                turns = until
            }
            if let turns, turnsAt.map({ turns < $0 }) ?? true { turnsAt = turns }
        }
        return (blockers, turnsAt, wait)
    }

    /// The first reason a running task must be expired, if any.
    public func interruption(for request: TaskRequest, in context: ConstraintContext) -> String? {
        lazy.filter { $0.applies(to: WorkKind(request.kind)) && $0.applies(to: request) }.compactMap {
            $0.interrupts(request, in: context)
        }.first
    }
}

extension Array where Element == Blocker {
    /// The blockers in words, as `explained(on:)` gives each, joined by "; ": how a wait is recorded.
    /// Written into one string of the right length at once: a request's wait is recorded at every change.
    public func explained(on clock: WallClock) -> String {
        var length = Swift.max(0, count - 1) * 2
        for blocker in self { length += blocker.explainedLength(on: clock) }
        return TextWriter.string(capacity: length) { text in
            for (position, blocker) in enumerated() {
                if position > 0 { text.write("; ") }
                blocker.write(on: clock, to: &text)
            }
        }
    }

    /// When the work these blockers hold should be judged again with no event: when the last blocker that
    /// lifts by itself lifts (none can run sooner). Untimed blockers wait for an event, which reviews it.
    var earliestEligibility: Instant? {
        var latest: Instant?
        for blocker in self {
            if let until = blocker.until, latest.map({ until > $0 }) ?? true { latest = until }
        }
        return latest
    }
}

/// What can lift a blocker before its `until`, besides the app's own events (which always review it): the
/// system-wide changes after which the app it holds is judged again. Typed, so no blocker is known by its name.
public struct BlockerLifts: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The device waking: a maintenance wake, or another app's run keeping it awake.
    public static let wake = BlockerLifts(rawValue: 1 << 1)
    /// A budget refilling: a run giving back what it did not use of its reservation.
    public static let budgetRefill = BlockerLifts(rawValue: 1 << 2)
    /// The screen lighting or the device unlocking: the user wakes the device.
    public static let screenLit = BlockerLifts(rawValue: 1 << 3)
    /// The screen going dark or the device locking: the device starts to be idle.
    public static let screenDark = BlockerLifts(rawValue: 1 << 4)
    /// Another app (or none) on screen.
    public static let foregroundApp = BlockerLifts(rawValue: 1 << 5)
    /// The network: Wi-Fi, cellular or none.
    public static let network = BlockerLifts(rawValue: 1 << 6)
    /// The charger plugged in or unplugged.
    public static let charger = BlockerLifts(rawValue: 1 << 7)
    /// The battery's level.
    public static let batteryLevel = BlockerLifts(rawValue: 1 << 8)
    /// The user's settings (Background App Refresh, Low Power Mode, Low Data Mode…).
    public static let settings = BlockerLifts(rawValue: 1 << 9)
    /// Anything else of the device (its heat, its power state…).
    public static let otherDeviceState = BlockerLifts(rawValue: 1 << 10)
    /// Any change of shared state (the device, the settings, the screen): what a constraint that does not say
    /// more precisely reads.
    public static let sharedChange: BlockerLifts = [
        .screenLit, .screenDark, .foregroundApp, .network, .charger, .batteryLevel, .settings, .otherDeviceState,
    ]
}

/// How one blocked request waits: until when nothing but its own events can start it (the latest `until` of
/// its blockers that nothing shared lifts), and then which system-wide changes can lift all the others.
struct RequestWait: Sendable {
    /// Whether some blocker lifts only by time or the app's own events.
    private var heldByItsOwn = false
    /// Whether one of those waits for an event of the app, with no time of its own.
    private var heldUntilItsOwnEvent = false
    private var latestOwnUntil: Instant?
    private var latestUntil: Instant?
    /// The latest time of a blocker that holds until its time whatever happens (`holdsUntilItsTime`).
    private(set) var heldWhateverHappensUntil: Instant?
    private var lifts: BlockerLifts = []

    /// Counts in one blocker: the time it lifts by itself, what else lifts it, and whether it holds until that
    /// time whatever happens (`fixed`).
    mutating func note(until: Instant?, lifts blockerLifts: BlockerLifts, fixed: Bool = false) {
        if let until, latestUntil.map({ until > $0 }) ?? true { latestUntil = until }
        if fixed, let until, heldWhateverHappensUntil.map({ until > $0 }) ?? true { heldWhateverHappensUntil = until }
        guard blockerLifts.isEmpty else { return lifts.formUnion(blockerLifts) }
        heldByItsOwn = true
        guard let until else {
            heldUntilItsOwnEvent = true
            return
        }
        if latestOwnUntil.map({ until > $0 }) ?? true { latestOwnUntil = until }
    }

    /// When the request should be judged again with no event: once every blocker only time lifts has lifted
    /// (nothing shared can start it sooner), else when the last timed blocker lifts; nil waits for an event.
    var reviewAt: Instant? {
        guard heldByItsOwn else { return latestUntil }
        return heldUntilItsOwnEvent ? nil : latestOwnUntil
    }

    /// The system-wide changes that can start it now: none while a blocker lifts only by itself.
    var liftedBy: BlockerLifts { heldByItsOwn ? [] : lifts }
}

extension TaskRequest {
    /// Refresh and processing: the discretionary work the scheduler decides on.
    public var isDiscretionary: Bool { kind != .continuedProcessing }
}
