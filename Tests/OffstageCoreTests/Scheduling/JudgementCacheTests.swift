import Testing

@testable import OffstageCore

/// The scheduler skips judging an app's pending requests again when nothing they read has changed
/// (`PendingJudgement`): these prove the skip never hides a change of verdict.
@Suite struct JudgementCacheTests {
    let feed = Fixture.feed

    /// The blockers named by the app's latest `deferred` record.
    func lastWait(_ h: CoreHarness, _ app: BundleID) -> String? {
        h.log.records(.deferred).last { $0.app == app }?.reason
    }

    /// The constraints named by the app's latest `deferred` record.
    func lastBlockers(_ h: CoreHarness, _ app: BundleID) -> [String]? {
        guard case .deferred(let blockers) = h.log.records(.deferred).last(where: { $0.app == app })?.detail else {
            return nil
        }
        return blockers.map(\.constraint)
    }

    @Test func aWaitHeldByItsEarliestBeginDateIsJudgedAgainOnlyAtThatDateWhileExplainShowsItNow() {
        var h = Fixture.harness()
        h.launchAndSuspend(feed)
        h.handle(.lock)
        // Inside the 00:15 maintenance wake's 60 s window: only the earliest begin date (00:16:40) holds it.
        h.advance(to: Instant(seconds: 910))
        h.submit(Fixture.refreshRequest(feed, earliestBeginDate: 1000), from: feed)
        #expect(lastBlockers(h, feed) == ["earliestBeginDate"])
        let waitsRecorded = h.log.records(.deferred).count
        // The window closed at 00:16; the date still holds the request whatever else happens, so a review of the
        // app does not judge it again (nothing it could find would start it), while `explain` judges it now.
        h.advance(to: Instant(seconds: 970))
        h.call(.pendingRequests, from: feed)
        #expect(h.log.records(.deferred).count == waitsRecorded)
        #expect(h.system.explain().first?.blockers.map(\.constraint) == ["earliestBeginDate", "coalescing"])
        // At the date it is judged again, and its wait recorded anew.
        h.advance(to: Instant(seconds: 1000))
        #expect(lastBlockers(h, feed) == ["coalescing"])
    }

    @Test func aReplacedRequestHasItsWaitRecordedAgainEvenWhenIdentical() {
        var h = Fixture.harness()
        h.launchAndSuspend(feed)
        let request = Fixture.refreshRequest(feed, earliestBeginDate: 3600)
        h.submit(request, from: feed)
        h.submit(request, from: feed)
        let waits = h.log.records(.deferred).filter { $0.app == feed && $0.task == request.identifier }
        #expect(h.log.records(.replaced).count == 1)
        #expect(waits.count == 2)
    }

    @Test func aKeptUsageTierIsTheTierWorkedOutAnewAtEveryHourOverTwoMonthsOfUse() {
        let policy = JudgementPolicy()
        let clock = WallClock(epochAtZero: 0, utcOffset: 3600)
        var history = UsageHistory()
        var kept: UsageTier.Kept?
        var seed: UInt64 = 11
        var tiersSeen: Set<UsageTier> = []
        var reused = 0
        // Every hour for 60 days; the app is opened in bursts with gaps of up to two weeks, so every tier
        // and every recency limit is crossed, with and without a new use between two hours.
        for hour in 0..<(60 * 24) {
            let now = Instant(seconds: Double(hour) * 3600)
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let inBurst = (hour / 24) % 20 < 6
            if inBurst && seed % 7 == 0 {
                history.opened(at: now, keeping: policy.historyWindow)
                kept = nil  // as `AppJudgementHistory.noteOpened` does
                if seed % 2 == 0 { history.left(at: now + 600) }
            }
            if let tier = kept, tier.holds(at: now, clock: clock) {
                reused += 1
            } else {
                kept = UsageTier.kept(history, at: now, clock: clock, policy: policy)
            }
            let fresh = UsageTier.of(history, at: now, clock: clock, policy: policy)
            #expect(kept?.tier == fresh, "hour \(hour)")
            tiersSeen.insert(fresh)
        }
        #expect(tiersSeen == Set(UsageTier.allCases))
        #expect(reused > 500)  // the kept tier was used, not made anew every hour
    }

    /// A host's constraint that reads the whole app state: it holds refresh back while the app is suspended.
    struct NotWhileSuspended: Constraint {
        var name: String { "notWhileSuspended" }
        func applies(to request: TaskRequest) -> Bool { true }
        func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
            context.appState == .suspended ? .blocked(reason: "the app is suspended", until: nil) : .satisfied
        }
    }

    @Test func theStandardConstraintsSeeOnlyWhetherTheAppIsInTheForegroundAndAHostsConstraintSeesAll() {
        let standard = AppStateSight([any Constraint].standard)
        #expect(!standard.tells(.background, from: .suspended) && !standard.tells(.notRunning, from: .background))
        #expect(standard.tells(.inactive, from: .background) && !standard.tells(.active, from: .inactive))
        let withHosts = AppStateSight([any Constraint].standard + [NotWhileSuspended()])
        #expect(withHosts.tells(.background, from: .suspended))
    }

    @Test func aKeptJudgementIsMadeAnewWhenTheAppIsSuspendedIfAConstraintReadsTheWholeState() {
        var h = Fixture.harness()
        h.useConstraints([any Constraint].standard + [NotWhileSuspended()])
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed, earliestBeginDate: 3600), from: feed)
        #expect(lastWait(h, feed)?.contains("notWhileSuspended") == false)
        h.handle(.home)  // background, then suspended: only the app's state changes for its request
        #expect(h.system.app(feed).state == .suspended)
        #expect(lastWait(h, feed)?.contains("notWhileSuspended: the app is suspended") == true)
    }

    /// What every judgement reads and no kept judgement compares: a change of it forgets every kept judgement.
    enum SharedChange: CaseIterable {
        case policy, settings, wallClock, constraints

        func apply(to system: inout BackgroundSystem) {
            switch self {
            case .policy: system.policy.judgement.quotaRare += 1
            case .settings: system.settings.backgroundAppRefresh = false
            case .wallClock: system.wallClock = WallClock(epochAtZero: 86_400)
            case .constraints: system.constraints = .standard
            }
        }
    }

    /// Feed and mail, each suspended with a refresh that waits for its begin date: each keeps its judgement.
    func twoAppsKeepingJudgements() -> BackgroundSystem {
        var h = Fixture.harness([feed, Fixture.mail])
        for app in [feed, Fixture.mail] {
            h.launchAndSuspend(app)
            h.submit(Fixture.refreshRequest(app, earliestBeginDate: 3600), from: app)
        }
        return h.system
    }

    @Test(arguments: SharedChange.allCases)
    func aChangeOfWhatEveryJudgementReadsForgetsEveryKeptJudgement(_ change: SharedChange) {
        var system = twoAppsKeepingJudgements()
        #expect(system.apps[feed].judgement != nil && system.apps[Fixture.mail].judgement != nil)
        change.apply(to: &system)
        #expect(system.apps[feed].judgement == nil && system.apps[Fixture.mail].judgement == nil)
    }

    @Test func aChangeOfSettingsForgetsEveryKeptJudgementSoTheNextReviewSeesIt() {
        var system = twoAppsKeepingJudgements()
        system.settings.backgroundAppRefresh = false  // no event: nothing but the kept judgement's loss reviews it
        // A call that may change the app's requests reviews it (one that only reads, such as `pendingRequests`, does
        // not); cancelling an identifier it never submitted changes nothing else.
        let (_, effects) = system.call(.cancel(identifier: "never.submitted"), from: feed, at: Instant(seconds: 100))
        let wait = effects.records.last { $0.kind == .deferred && $0.app == feed }
        guard case .deferred(let blockers) = wait?.detail else {
            Issue.record("the refresh's wait was not recorded again")
            return
        }
        #expect(blockers.map(\.constraint).contains("backgroundAppRefresh"))
    }

    /// A call that only reads the system (the app's state, its pending requests, its launch options…) changes
    /// nothing a review reads, so it reviews nothing: the wait is not recorded again until a change reviews it.
    @Test func aCallThatOnlyReadsDoesNotReviewTheApp() {
        var system = twoAppsKeepingJudgements()
        system.settings.backgroundAppRefresh = false
        for (second, read) in [AppCall.pendingRequests, .applicationState, .backgroundTimeRemaining, .launchOptions]
            .enumerated()
        {
            let (_, effects) = system.call(read, from: feed, at: Instant(seconds: 100 + Double(second)))
            #expect(!effects.records.contains { $0.kind == .deferred }, "\(read)")
        }
    }
}
