/// How much the user uses an app, from recency and frequency, like Android's standby buckets.
/// The tier sets the app's quota of discretionary runs; `never` gets no refresh and no processing.
public enum UsageTier: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    case active
    case workingSet = "working set"
    case frequent
    case rare
    case never

    public static func < (a: UsageTier, b: UsageTier) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The tier of an app with this history at `now`: recency gives the tier, and use on several
    /// days of the last week lifts it (an app used every day stays in the working set overnight).
    static func of(_ history: UsageHistory, at now: Instant, clock: WallClock, policy: JudgementPolicy) -> UsageTier {
        guard let last = history.lastUsed else { return .never }
        if history.foregroundSince != nil { return .active }
        let idle = now - last
        let byRecency: UsageTier =
            idle <= policy.activeWithin
            ? .active
            : idle <= policy.workingSetWithin
                ? .workingSet : idle <= policy.frequentWithin ? .frequent : idle <= policy.rareWithin ? .rare : .never
        guard byRecency != .never else { return .never }
        let days = history.daysUsed(inLast: 7, before: now, clock: clock)
        let byFrequency: UsageTier =
            days >= policy.dailyUseDays ? .workingSet : days >= policy.regularUseDays ? .frequent : .rare
        return min(byRecency, byFrequency)
    }

    /// Discretionary runs per quota window for this tier, before the cooperation score scales it.
    func quota(_ policy: JudgementPolicy) -> Int {
        switch self {
        case .active: policy.quotaActive
        case .workingSet: policy.quotaWorkingSet
        case .frequent: policy.quotaFrequent
        case .rare: policy.quotaRare
        case .never: 0
        }
    }
}
