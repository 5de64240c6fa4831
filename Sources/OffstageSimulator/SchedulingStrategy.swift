public import OffstageCore

/// Which policy decides when discretionary work runs: Offstage's judgement, or one of the baselines a policy
/// is measured against (`offstage evaluate`). The core knows none of them: each is the set of constraints it
/// is given (`constraints(knowing:)`), the standard ones less what the baseline leaves out, plus its timing.
public enum SchedulingStrategy: Hashable, Sendable, Codable {
    /// Offstage's policy: every constraint of §5, the judgement included (usage tier, quota, launch
    /// prediction, budgets, coalescing).
    case judgement
    /// A literal reading of the API: a request runs as soon as its `earliestBeginDate` passes and the
    /// conditions allow (power, network, thermal, settings…), with none of the judgement.
    case literal
    /// A fixed period, like Android's WorkManager: an app's discretionary work runs at most once per
    /// `seconds` (the first run as soon as the conditions allow), whatever `earliestBeginDate` asks.
    case fixedPeriod(seconds: Double)
    /// A fixed period that keeps the API's contract: like `fixedPeriod`, but a request never runs before the
    /// `earliestBeginDate` its app asked for (the timer a careful app developer could build on the API).
    case fixedPeriodWithinContract(seconds: Double)
    /// The oracle, the limit no real policy can beat: a refresh runs `lead` seconds before each launch of
    /// the user's future (the scenario's timeline), whatever `earliestBeginDate` asks.
    case oracle(lead: Double)
    /// The oracle within the API's contract, the ceiling for a policy that keeps it: like `oracle`, but a
    /// refresh never runs before the `earliestBeginDate` its app asked for (it runs `lead` before the next
    /// launch, or at that date when it comes later and still before the launch).
    case oracleWithinContract(lead: Double)

    /// About how many refreshes an app runs a day under the strategy, the bulk of a replay's work, so that an
    /// evaluation starts the heaviest replays first (the literal API: as often as apps ask, 15 min for most;
    /// the judgement and the oracles: about what they ran on generated traces).
    var refreshesPerAppDay: Double {
        switch self {
        case .fixedPeriod(let seconds), .fixedPeriodWithinContract(let seconds): 86_400 / seconds
        case .literal: 96
        case .judgement: 18
        case .oracle, .oracleWithinContract: 5
        }
    }

    /// The judgement's constraints, which only `judgement` applies.
    static let judgementConstraints: Set<String> = Set(
        ([
            UsageTierConstraint(), QuotaConstraint(), RateLimitConstraint(), ProcessingPaceConstraint(),
            LittleKnownConstraint(), LaunchPredictionConstraint(),
            EnergyBudgetConstraint(), CellularDataBudgetConstraint(), CoalescingConstraint(),
        ] as [any Constraint]).map(\.name))

    /// The constraints the core applies under this strategy, in `explain`'s order; `launches` are the
    /// user's launches of each app ahead, in time order, which only the oracle reads.
    public func constraints(knowing launches: [BundleID: [Instant]]) -> [any Constraint] {
        let standard = [any Constraint].standard
        let conditions = standard.filter { !Self.judgementConstraints.contains($0.name) }
        let timeless = conditions.filter { $0.name != EarliestBeginDateConstraint().name }
        switch self {
        case .judgement: return standard
        case .literal: return conditions
        case .fixedPeriod(let seconds): return timeless + [FixedPeriodConstraint(period: seconds)]
        case .fixedPeriodWithinContract(let seconds): return conditions + [FixedPeriodConstraint(period: seconds)]
        case .oracle(let lead): return timeless + [AnnouncedLaunchConstraint(lead: lead, launches: launches)]
        case .oracleWithinContract(let lead):
            return conditions + [AnnouncedLaunchConstraint(lead: lead, launches: launches)]
        }
    }
}

/// The fixed-period baseline's timing: an app's discretionary work starts at most once per period,
/// counted from its previous run; the first run needs only the conditions.
struct FixedPeriodConstraint: Constraint, SeesOnlyWhetherForeground {
    let period: Double
    /// Why a request waits, worded once: the blocker is met at every review of a waiting request.
    private let reason: BlockerReason
    var name: String { "fixedPeriod" }

    init(period: Double) {
        self.period = period
        reason = "runs once every \(Int((period / 60).rounded())) min (fixed period)"
    }

    /// Its time is fixed: a period from a run that already started.
    var holdsUntilItsTime: Bool { true }
    /// It reads only the time and its own app.
    func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { [] }
    func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        guard let last = context.judgement.lastRunStarted else { return .satisfied }
        let next = last + period
        guard context.now < next else { return .satisfied }
        return .blocked(reason: reason, until: next)
    }
}

/// The oracles' timing: a refresh runs in the `lead` before the user's next launch not yet served (one
/// no refresh started within the lead before); with no launch ahead it waits.
struct AnnouncedLaunchConstraint: Constraint, SeesOnlyWhetherForeground {
    let lead: Double
    /// Each app's launches, in time order.
    let launches: [BundleID: [Instant]]
    var name: String { "oracle" }
    /// Its time is fixed: the announced launch, which only a run of the app's own moves later.
    var holdsUntilItsTime: Bool { true }
    /// It reads only the time and its own app.
    func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { [] }
    func applies(to request: TaskRequest) -> Bool { request.kind == .appRefresh }
    func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        // A refresh started at `served - lead` serves every launch up to `served`.
        let served = context.judgement.lastRunStarted.map { $0 + lead }
        let ahead = launches[context.app]?.first { launch in
            launch >= context.now && (served.map { launch > $0 } ?? true)
        }
        guard let launch = ahead else { return .blocked(reason: "no launch announced ahead (oracle)", until: nil) }
        let opens = launch + (-lead)
        guard context.now < opens else { return .satisfied }
        return .blocked(reason: "runs just before the user's announced next launch (oracle)", until: opens)
    }
}
