/// Which policy decides when discretionary work runs: Offstage's judgement, or one of the baselines a
/// policy is measured against (`offstage evaluate`). Part of `Policy`; the constraints consult it.
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
    /// The oracle, the limit no real policy can beat: a refresh runs `lead` seconds before each launch the
    /// host announced (`SystemEvent.announceLaunch`, from a trace's future), whatever `earliestBeginDate` asks.
    case oracle(lead: Double)

    /// Whether the judgement's constraints (usage tier, quota, launch prediction, budgets, coalescing) apply.
    public var judges: Bool { self == .judgement }

    /// Whether a request waits for its `earliestBeginDate`.
    public var honoursEarliestBeginDate: Bool {
        switch self {
        case .judgement, .literal: true
        case .fixedPeriod, .oracle: false
        }
    }
}
