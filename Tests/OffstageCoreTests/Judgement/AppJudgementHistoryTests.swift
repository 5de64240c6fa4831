import Testing

@testable import OffstageCore

/// One app's judgement history (`AppJudgementHistory`): its use, the usage tier it keeps, its cooperation, its
/// content age and its wakes change only through its own methods, and a use never leaves a stale tier behind.
@Suite struct AppJudgementHistoryTests {
    let policy = JudgementPolicy()
    let clock = WallClock(epochAtZero: 0)

    @Test func aNewHistoryIsOfAnAppNeverUsedWithFullCooperation() {
        let history = AppJudgementHistory()
        #expect(history.usage.lastUsed == nil)
        #expect(history.usageTier(at: Instant(seconds: 10), clock: clock, policy: policy) == .never)
        #expect(history.cooperation.score == 1)
        #expect(history.contentUpdatedAt == nil && history.wakeUps == 0)
    }

    @Test func anOpeningForgetsTheKeptTierSoTheTierIsTheFreshOne() {
        var history = AppJudgementHistory()
        let now = Instant(seconds: 100)
        history.refreshUsageTier(at: now, clock: clock, policy: policy)  // kept: never (no use yet)
        history.noteOpened(at: now, keeping: policy.historyWindow)
        #expect(history.usageTier(at: now, clock: clock, policy: policy) == .active)
        history.noteLeft(at: now + 60)
        let later = now + policy.activeWithin + 120  // past the active limit: no longer active
        #expect(history.usageTier(at: later, clock: clock, policy: policy) > .active)
        #expect(history.usage.launches == [now] && history.usage.foregroundSeconds == 60)
    }

    @Test func aKeptTierIsTheOneWorkedOutAgainUntilItIsForgotten() {
        var history = AppJudgementHistory()
        history.noteOpened(at: Instant(seconds: 0), keeping: policy.historyWindow)
        history.noteLeft(at: Instant(seconds: 60))
        let now = Instant(seconds: 120)
        history.refreshUsageTier(at: now, clock: clock, policy: policy)
        let fresh = UsageTier.of(history.usage, at: now, clock: clock, policy: policy)
        #expect(history.usageTier(at: now, clock: clock, policy: policy) == fresh)
        // A stricter policy: the kept tier would still say `fresh` until forgotten, as a policy change does.
        var strict = policy
        strict.activeWithin = 0
        strict.workingSetWithin = 0
        strict.frequentWithin = 0
        strict.rareWithin = 0
        #expect(history.usageTier(at: now, clock: clock, policy: strict) == fresh)
        history.forgetUsageTier()
        #expect(history.usageTier(at: now, clock: clock, policy: strict) == .never)
    }

    @Test func anOutcomeMovesTheCooperationScoreItReturns() {
        var history = AppJudgementHistory()
        let score = history.noteOutcome(.ignoredExpiration, policy)
        #expect(score == 1 - policy.cooperationWeight)
        #expect(history.cooperation.score == score && history.cooperation.judged == 1)
    }

    @Test func aRefreshAndAWakeAreRemembered() {
        var history = AppJudgementHistory()
        history.noteRefreshed(at: Instant(seconds: 42))
        history.noteWake()
        history.noteWake()
        #expect(history.contentUpdatedAt == Instant(seconds: 42))
        #expect(history.wakeUps == 2)
    }
}
