import Testing

@testable import OffstageCore

/// SPEC §5 judgement: usage history and tiers, quotas, launch prediction, budgets, coalescing
/// into maintenance wakes, and cooperation.
@Suite struct JudgementTests {
    let feed = Fixture.feed
    let mail = Fixture.mail
    let day = 86_400.0

    /// The names of the constraints blocking the app's pending refresh.
    func blockers(_ h: CoreHarness, _ app: BundleID) -> [String] {
        h.system.explain().first { $0.app == app && $0.phase == .pending }?.blockers.map(\.constraint) ?? []
    }

    /// The user opens the app at `hour` (local, UTC here) on each of `days` days, from `firstDay`.
    func openDaily(_ h: inout CoreHarness, _ app: BundleID, at hour: Double, days: Range<Int>) {
        for d in days {
            h.advance(to: Instant(seconds: Double(d) * day + hour * 3600))
            h.open(app)
            h.advance(by: 120)
            h.handle(.home)
        }
    }

    // MARK: Usage and tiers

    @Test func usageHistoryRecordsLaunchesAndTimeOnScreen() {
        var h = Fixture.harness()
        h.open(feed)
        h.advance(by: 300)
        h.handle(.home)
        h.advance(by: 60)
        h.open(feed)
        let usage = h.system.app(feed).usage
        #expect(usage.launches == [.zero, Instant(seconds: 360)])
        #expect(usage.foregroundSeconds == 300)
        #expect(usage.foregroundSince == Instant(seconds: 360))
    }

    @Test func interruptionsAreNotLaunches() {
        var h = Fixture.harness()
        h.open(feed)
        h.handle(.interruptionBegan)
        h.handle(.interruptionEnded(accepted: false))
        #expect(h.system.app(feed).usage.launches.count == 1)
    }

    @Test func tierFollowsRecencyOfUse() {
        var h = Fixture.harness()
        #expect(h.system.app(feed).usageTier == .never)
        h.open(feed)
        #expect(h.system.app(feed).usageTier == .active)
        h.handle(.home)
        let left = h.now
        let expected: [(Double, UsageTier)] = [
            (3600, .active), (3601, .workingSet), (12 * 3600 + 1, .frequent), (48 * 3600 + 1, .rare),
            (7 * day + 1, .never),
        ]
        for (after, tier) in expected {
            h.advance(to: left + after)
            #expect(h.system.app(feed).usageTier == tier, "after \(after) s")
        }
    }

    @Test func dailyUseKeepsAnAppInTheWorkingSet() {
        var h = Fixture.harness()
        openDaily(&h, feed, at: 8, days: 0..<4)
        h.advance(by: 20 * 3600)
        // Last used 20 h ago: frequent by recency, but used on 4 of the last 7 days.
        #expect(h.system.app(feed).usageTier == .workingSet)
    }

    @Test func appUnusedForAWeekGetsNoRefreshAndNoProcessing() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed, earliestBeginDate: 8 * day), from: feed)
        h.submit(Fixture.processingRequest(feed, power: true), from: feed)
        h.handle(.home)
        h.advance(to: Instant(seconds: 8 * day))
        #expect(h.log.startedTasks.isEmpty)
        let statuses = h.system.explain().filter { $0.app == feed }
        #expect(statuses.count == 2)
        for status in statuses {
            #expect(
                status.blockers.first { $0.constraint == "usageTier" }?.reason
                    == "the app has not been used for 7 days (tier never)")
        }
        #expect(blockers(h, feed) == ["usageTier"])
    }

    // MARK: Quotas

    @Test func quotaLimitsRunsPerWindowByTier() {
        var policy = Fixture.knowingEveryApp  // the quota alone: opened once, the app is also little known
        policy.judgement.quotaRare = 2
        policy.judgement.habitDays = 0  // and no habit: its launch's time of day would judge it again sooner
        var h = Fixture.harness(policy: policy)
        h.open(feed)
        h.handle(.home)
        h.advance(by: 3 * day)  // rare now
        #expect(h.system.app(feed).usageTier == .rare)
        var starts: [Instant] = []
        for _ in 0..<3 {
            h.handle(.open(mail))  // the screen is on: no maintenance wake needed
            h.call(.submit(Fixture.refreshRequest(feed)), from: feed)
            h.advance(by: 1)
            if let run = h.task(Fixture.refresh(feed), of: feed) {
                starts.append(run.startedAt)
                h.complete(Fixture.refresh(feed), of: feed)
            }
            h.advance(by: 600)
        }
        #expect(starts.count == 2)
        let blocker = h.system.explain().first { $0.app == feed }?.blockers.first { $0.constraint == "quota" }
        #expect(blocker?.reason == "2 runs in 24 h allowed (tier rare), 2 used")
        #expect(blocker?.until == starts.first.map { $0 + day })
    }

    @Test func quotaHoldsOnTheCharger() {
        var policy = Fixture.unspaced
        policy.judgement.quotaActive = 1
        var h = Fixture.harness(policy: policy)
        h.open(feed)
        h.handle(.home)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        h.complete(Fixture.refresh(feed), of: feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        #expect(blockers(h, feed) == ["quota"])
        h.handle(.setBattery(level: 0.5, charging: true))
        #expect(h.task(Fixture.refresh(feed), of: feed) == nil)
        #expect(blockers(h, feed) == ["quota"])
    }

    // MARK: Content age

    @Test func contentAgeIsRecordedAtEachLaunch() {
        var h = Fixture.harness()
        h.open(feed)
        #expect(h.log.records(.contentAge).last?.value == nil)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.home)
        h.advance(by: 1)
        h.complete(Fixture.refresh(feed), of: feed)
        let refreshed = h.now
        h.advance(by: 1800)
        h.open(feed)
        #expect(h.log.records(.contentAge).last?.value == h.now - refreshed)
        #expect(
            h.log.records(.contentAge).last?.reason == "content refreshed in the background 30 min before this launch")
    }

    // MARK: Budgets

    @Test func energyBudgetHoldsWorkWhenSpentAndRefillsThroughTheDay() throws {
        var policy = Fixture.unspaced
        policy.judgement.energyBudgetCapacity = 50
        policy.judgement.energyBudgetPerDay = 864  // 0.01 J/s
        var h = Fixture.harness(policy: policy)
        h.open(feed)
        h.handle(.home)
        for number in 1...2 {
            h.submit(Fixture.refreshRequest(feed, number), from: feed)
            h.advance(by: 1)
            // 20 s of a busy core at 1 W: 20 J, charged to the budget (the run reserved 25 J).
            h.handle(.resourceUsage(feed, ResourceUsage(cpuSeconds: 20, interval: 1)))
            h.complete(Fixture.refresh(feed, number), of: feed)
        }
        #expect(h.system.energyBudget.balance(at: h.now) < 25)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        let blocker = h.system.explain().first { $0.app == feed }?.blockers.first
        #expect(blocker?.constraint == "energyBudget")
        let until = try #require(blocker?.until)
        #expect(h.advance(to: until + (-1)).startedTasks.isEmpty)
        #expect(h.advance(to: until).startedTasks.count == 1)
    }

    @Test func unusedReservationsGoBackToTheBudget() {
        var h = Fixture.harness()
        h.open(feed)
        h.handle(.home)
        let before = h.system.energyBudget.balance(at: h.now)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        #expect(h.system.energyBudget.balance(at: h.now) < before - 20)
        h.handle(.resourceUsage(feed, ResourceUsage(cpuSeconds: 5, interval: 1)))
        h.complete(Fixture.refresh(feed), of: feed)
        // 5 J used of the 25 J reserved (the budget is full, so its refill since is capped).
        #expect(abs(h.system.energyBudget.balance(at: h.now) - (before - 5)) < 0.5)
    }

    @Test func energyBudgetIsUnlimitedOnTheCharger() {
        var policy = Policy.iOS
        policy.judgement.energyBudgetCapacity = 10
        var h = Fixture.harness(policy: policy)
        h.open(feed)
        h.handle(.home)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        #expect(blockers(h, feed) == ["energyBudget"])
        h.handle(.setBattery(level: 0.5, charging: true))
        #expect(h.task(Fixture.refresh(feed), of: feed) != nil)
        h.complete(Fixture.refresh(feed), of: feed)
        #expect(h.system.energyBudget.balance(at: h.now) == 10)
    }

    @Test func cellularDataBudgetAppliesOnCellularOnly() {
        var policy = Fixture.unspaced
        policy.judgement.dataBudgetCapacity = 3_000_000
        var h = Fixture.harness(policy: policy)
        h.handle(.setNetwork(.cellular))
        h.open(feed)
        h.handle(.home)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        h.handle(.resourceUsage(feed, ResourceUsage(cellularBytes: 1_500_000, interval: 1)))
        h.complete(Fixture.refresh(feed), of: feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        #expect(blockers(h, feed) == ["cellularBudget"])
        h.handle(.setNetwork(.wifi))
        #expect(h.task(Fixture.refresh(feed), of: feed) != nil)
    }

    // MARK: Coalescing

    /// Feed and mail, used, with refreshes due at `feedDue` and `mailDue` (seconds), and the device locked.
    func lockWithRefreshesDue(_ feedDue: Double, _ mailDue: Double) -> CoreHarness {
        var h = Fixture.harness([feed, mail])
        for app in [feed, mail] {
            h.open(app)
            h.handle(.home)
        }
        h.call(.submit(Fixture.refreshRequest(feed, earliestBeginDate: feedDue)), from: feed)
        h.call(.submit(Fixture.refreshRequest(mail, earliestBeginDate: mailDue)), from: mail)
        h.handle(.lock)
        return h
    }

    @Test func aSleepingDeviceBatchesWorkIntoOneMaintenanceWake() {
        // Due at 00:03 and 00:09 wall-clock: both wait for the 00:15 maintenance wake.
        var h = lockWithRefreshesDue(180, 540)
        h.advance(to: Instant(seconds: 899))
        #expect(h.log.startedTasks.isEmpty)
        #expect(blockers(h, feed) == ["coalescing"])
        h.advance(to: Instant(seconds: 900))
        #expect(Set(h.log.startedTasks.map(\.app)) == [feed, mail])
        #expect(h.system.wakeUps == 1)
        #expect(h.log.records(.wake).count == 1)
    }

    @Test func aMaintenanceWakeServesEveryTaskDueInItsWindowAndCountsOnce() {
        // Due at 00:15:00 and 00:15:20: the wake at 00:15 stays open for its window and serves both.
        var h = lockWithRefreshesDue(900, 920)
        h.advance(to: Instant(seconds: 903))
        h.complete(Fixture.refresh(feed), of: feed)  // feed's run ended before mail's became due
        h.advance(to: Instant(seconds: 930))
        #expect(Set(h.log.startedTasks.map(\.app)) == [feed, mail])
        #expect(h.system.wakeUps == 1)
        #expect(h.log.records(.wake).count == 1)
    }

    @Test func aNotificationWakesTheDeviceAndWorkWaitingForAWakeStartsWithoutOne() {
        // Due at 00:03 and 00:09 wall-clock; mail's notification at 00:10 wakes the device before the 00:15 wake.
        var h = lockWithRefreshesDue(180, 540)
        h.advance(to: Instant(seconds: 600))
        #expect(blockers(h, feed) == ["coalescing"])
        h.handle(.notificationShown(mail))
        #expect(Set(h.log.startedTasks.map(\.app)) == [feed, mail])
        #expect(h.system.wakeUps == 0 && h.log.records(.wake).isEmpty, "the notification woke it, not the work")
        h.complete(Fixture.refresh(feed), of: feed)
        h.complete(Fixture.refresh(mail), of: mail)
        #expect(h.system.isDeviceAwake, "awake for the maintenance window after the notification")
        h.advance(to: Instant(seconds: 600) + h.system.policy.judgement.maintenanceWindow)
        #expect(!h.system.isDeviceAwake, "asleep again once the window has closed")
    }

    @Test func workRunsWithoutAWakeWhileTheScreenIsOn() {
        var h = Fixture.harness()
        h.open(feed)
        h.handle(.home)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        #expect(h.task(Fixture.refresh(feed), of: feed) != nil)
        #expect(h.system.wakeUps == 0)
    }

    @Test func workJoinsATaskThatIsAlreadyRunning() {
        var h = Fixture.harness([feed, mail])
        for app in [feed, mail] {
            h.open(app)
            h.handle(.home)
        }
        h.submit(Fixture.refreshRequest(feed, earliestBeginDate: 0), from: feed)
        h.handle(.lock)  // feed's refresh started while the screen was on, and still runs
        h.submit(Fixture.refreshRequest(mail), from: mail)
        h.advance(by: 1)
        #expect(h.task(Fixture.refresh(mail), of: mail) != nil)
        #expect(h.system.wakeUps == 0)
    }

    // MARK: Cooperation

    @Test func cooperationRisesWithQuickCompletionsAndFallsWhenExpirationIsIgnored() {
        var h = Fixture.harness(policy: Fixture.unspaced)
        h.open(feed)
        h.handle(.home)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        h.complete(Fixture.refresh(feed), of: feed)
        #expect(h.system.app(feed).cooperation.score == 1)
        h.completeOnExpiration = false
        h.handle(.open(feed))
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.home)
        h.advance(by: 40)  // expired at 30 s, killed at 35 s
        let cooperation = h.system.app(feed).cooperation
        #expect(cooperation.score == 0.8)
        #expect(h.log.records(.cooperation).last?.reason == "ignored expiration: cooperation score 80%")
    }

    @Test func expiredTasksAndSlowTasksScoreLessThanQuickOnes() {
        var cooperation = Cooperation()
        let policy = JudgementPolicy()
        cooperation.note(.expired, policy)
        #expect(cooperation.score == 0.9)
        cooperation.note(.completed, policy)
        #expect(abs(cooperation.score - 0.9) < 1e-9)
        for _ in 0..<50 { cooperation.note(.ignoredExpiration, policy) }
        #expect(cooperation.score == policy.minimumCooperation)
    }

    @Test func cooperationScalesTheQuota() {
        var cooperation = Cooperation()
        for _ in 0..<3 { cooperation.note(.killed, JudgementPolicy()) }
        #expect(cooperation.scaled(12) == Int((12 * cooperation.score).rounded(.down)))
        #expect(cooperation.scaled(12) < 12)
        #expect(cooperation.scaled(1) == 1)
        #expect(cooperation.scaled(0) == 0)
    }

    @Test func theSystemRemembersCooperationAcrossLaunches() {
        var h = Fixture.harness()
        h.completeOnExpiration = false
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.home)
        h.advance(by: 40)
        #expect(h.state(of: feed) == .notRunning)
        h.open(feed)
        #expect(h.system.app(feed).cooperation.score < 1)
        #expect(h.system.app(feed).cooperation.judged == 1)
    }

    @Test func swipedAwayRunsDoNotCountAgainstTheApp() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.home)
        h.advance(by: 1)
        h.handle(.swipeAway(feed))
        h.advance(by: 10)
        #expect(h.system.app(feed).cooperation.judged == 0)
    }
}
