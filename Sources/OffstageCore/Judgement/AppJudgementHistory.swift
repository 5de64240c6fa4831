/// One app's history as the judgement reads it (§5), kept across its processes, and the only code that changes it:
/// the user's use of the app and the usage tier it gives, how its tasks ended, its content's age, its wakes.
struct AppJudgementHistory: Sendable {
    /// The user's use of the app: launches, time on screen, last use.
    private(set) var usage = UsageHistory()
    /// Its usage tier as last worked out, while it holds (see `UsageTier.Kept`); any use forgets it.
    private var tier: UsageTier.Kept?
    /// How the app's tasks have ended.
    private(set) var cooperation = Cooperation()
    /// When a background refresh last completed successfully: the age of the content it shows.
    private(set) var contentUpdatedAt: Instant?
    /// Maintenance wakes its work started (the device was asleep).
    private(set) var wakeUps = 0

    // MARK: Use

    /// The user opened the app at `time`; launches older than `window` seconds are forgotten.
    mutating func noteOpened(at time: Instant, keeping window: Double) {
        usage.opened(at: time, keeping: window)
        tier = nil
    }

    /// The app is on screen again from `time` without being opened anew (a restarted host adopting it).
    mutating func noteCameBack(at time: Instant) {
        usage.cameBack(at: time)
        tier = nil
    }

    /// The app left the screen at `time` (its use changes only if it was there).
    mutating func noteLeft(at time: Instant) {
        usage.left(at: time)
        tier = nil
    }

    // MARK: Usage tier

    /// The app's usage tier at `now`: the one kept while it holds, else worked out again (and not kept).
    func usageTier(at now: Instant, clock: WallClock, policy: JudgementPolicy) -> UsageTier {
        if let tier, tier.holds(at: now, clock: clock) { return tier.tier }
        return UsageTier.of(usage, at: now, clock: clock, policy: policy)
    }

    /// Works the usage tier out again if the kept one no longer holds at `now`, and keeps it.
    mutating func refreshUsageTier(at now: Instant, clock: WallClock, policy: JudgementPolicy) {
        if let tier, tier.holds(at: now, clock: clock) { return }
        tier = UsageTier.kept(usage, at: now, clock: clock, policy: policy)
    }

    /// Forgets the kept usage tier: the policy or the wall clock it was worked out with changed.
    mutating func forgetUsageTier() { tier = nil }

    // MARK: Runs

    /// A maintenance wake started the app's work.
    mutating func noteWake() { wakeUps += 1 }

    /// A background refresh of the app completed successfully at `time`: its content is fresh.
    mutating func noteRefreshed(at time: Instant) { contentUpdatedAt = time }

    /// One of its discretionary tasks ended with `outcome`; returns the cooperation score it moved to.
    mutating func noteOutcome(_ outcome: TaskOutcome, _ policy: JudgementPolicy) -> Double {
        cooperation.note(outcome, policy)
        return cooperation.score
    }

    // MARK: Memory

    /// Puts back what a snapshot remembers of the app (see `AppHistory`).
    mutating func restore(_ history: AppHistory) {
        usage = UsageHistory(
            launches: history.launches, foregroundSeconds: history.foregroundSeconds, lastUsed: history.lastUsed)
        tier = nil
        cooperation = Cooperation(score: history.cooperation, judged: history.judgedRuns)
        contentUpdatedAt = history.contentUpdatedAt
        wakeUps = history.wakeUps
    }
}
