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
        kept(history, at: now, clock: clock, policy: policy).tier
    }

    /// A tier worked out once and kept with how long it holds: the same history gives the same tier until
    /// the idle time crosses the next recency limit or the local day ends (the days of use are counted by
    /// day). A new use, or a change of the policy or the wall clock, makes it anew (its keeper forgets it).
    struct Kept: Sendable {
        var tier: UsageTier
        /// The last instant the tier holds by recency; nil when only a new use changes it.
        var recencyHoldsUntil: Instant? = nil
        /// The local day whose count of days of use it was made with; nil when it did not count them.
        var day: Int? = nil

        /// Whether the tier still holds at `now`, with `clock`.
        func holds(at now: Instant, clock: WallClock) -> Bool {
            recencyHoldsUntil.map { now <= $0 } ?? true && day.map { clock.localDay(at: now) == $0 } ?? true
        }
    }

    /// The tier of `history` at `now`, kept with how long it holds (see `Kept`).
    static func kept(_ history: UsageHistory, at now: Instant, clock: WallClock, policy: JudgementPolicy) -> Kept {
        guard let last = history.lastUsed else { return Kept(tier: .never) }
        if history.foregroundSince != nil { return Kept(tier: .active) }
        let idle = now - last
        let limits: [(within: Double, tier: UsageTier)] = [
            (policy.activeWithin, .active), (policy.workingSetWithin, .workingSet),
            (policy.frequentWithin, .frequent), (policy.rareWithin, .rare),
        ]
        guard let (within, byRecency) = limits.first(where: { idle <= $0.within }) else {
            return Kept(tier: .never)
        }
        let days = history.daysUsed(inLast: 7, before: now, clock: clock)
        let byFrequency: UsageTier =
            days >= policy.dailyUseDays ? .workingSet : days >= policy.regularUseDays ? .frequent : .rare
        return Kept(
            tier: min(byRecency, byFrequency), recencyHoldsUntil: last + within,
            day: clock.localDay(at: now))
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
