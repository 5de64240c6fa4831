import Testing

@testable import OffstageCore

/// Which changes judge a waiting refresh again: only those that can start it (`BlockerLifts`, `RequestWait`).
/// A refresh no run can pay for is left alone by wakes and by other apps' runs, and judged again by the time.
@Suite struct JudgementReviewTests {
    let feed = Fixture.feed
    let mail = Fixture.mail

    /// Feed, opened once at midnight, submits its refresh at `hour` on a locked, sleeping device; mail can take
    /// pushes.
    func waitingFeed(at hour: Double) -> CoreHarness {
        var h = CoreHarness(
            policy: Fixture.judging,
            apps: [Fixture.manifest(feed), Fixture.manifest(mail, modes: [.fetch, .processing, .remoteNotification])])
        h.launchAndSuspend(feed)
        h.launchAndSuspend(mail)
        h.handle(.lock)
        h.advance(to: Instant(seconds: hour * 3600))
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        return h
    }

    /// The constraints that hold the app's pending request now.
    func blockers(_ h: CoreHarness, _ app: BundleID) -> [String] {
        h.system.explain().first { $0.app == app && $0.phase == .pending }?.blockers.map(\.constraint) ?? []
    }

    func waits(_ h: CoreHarness, _ app: BundleID) -> [Record] { h.log.records(.deferred).filter { $0.app == app } }

    @Test func aRefreshNoRunCanPayForIsNotJudgedAgainWhenAPushWakesTheDevice() throws {
        var h = waitingFeed(at: 5.2)  // never used at 05:00: a launch within 15 min is below the awake cost
        let likelihood = h.system.judgementContext(for: feed).likelihood
        #expect(likelihood.probability < h.system.policy.judgement.awakeRunCost)
        #expect(blockers(h, feed) == ["launchPrediction", "coalescing"])
        let before = waits(h, feed).count
        h.handle(.backgroundPush(mail, payload: "p1"))  // a wake: the device is awake while mail handles it
        #expect(h.system.wakeUps == 1)
        #expect(h.system.isDeviceAwake)
        #expect(waits(h, feed).count == before, "the wake could not start it, so it was not judged again")
        #expect(h.log.startedTasks.isEmpty)
    }

    @Test func aRefreshAnAwakeRunPaysForRidesAlongWithAWake() throws {
        var h = waitingFeed(at: 0.1)  // opened at midnight: likelier than an awake run costs, not than a wake
        let likelihood = h.system.judgementContext(for: feed).likelihood
        #expect(likelihood.probability >= h.system.policy.judgement.awakeRunCost)
        #expect(likelihood.probability < h.system.policy.judgement.wakeRunCost)
        #expect(h.log.startedTasks.isEmpty)
        h.handle(.backgroundPush(mail, payload: "p1"))
        #expect(h.task(Fixture.refresh(feed), of: feed) != nil)
        #expect(h.system.wakeUps == 1, "it rode along with mail's wake")
    }

    @Test func aRefreshHeldByAnEmptyingBudgetIsFreedWhenTheBudgetHasRefilledEnough() throws {
        // Awake: only the cost, raised by how empty the budget is, holds it until the budget refills (a little: it
        // must be freed before the next hour, when the hour's rate would judge it again anyway).
        let context = feedHeldByTheBudget()
        let value = context.judgement.likelihood.probability
        let budget = context.judgement.energyBudget
        let awakeCost = context.policy.judgement.awakeRunCost
        let prediction = LaunchPredictionConstraint()
        guard case .blocked(_, let until?) = prediction.evaluate(Fixture.refreshRequest(feed), in: context) else {
            Issue.record("a run from so empty a budget should cost more than it is worth")
            return
        }
        let refilled = context.judgement.energyBudget.time(
            toReach: awakeCost / value * budget.capacity, from: context.now)
        #expect(abs(until - (refilled ?? .zero)) < 0.001)
        #expect(until < Instant(seconds: 3600), "sooner than the next hour, when it would be judged anyway")
        var later = context
        later.now = until + (-1)
        #expect(prediction.evaluate(Fixture.refreshRequest(feed), in: later) != .satisfied)
        later.now = until + 1
        #expect(prediction.evaluate(Fixture.refreshRequest(feed), in: later) == .satisfied)
    }

    /// Feed's refresh as `waitingFeed(at: 0.1)` leaves it, judged on an awake device whose energy budget is so
    /// empty that a run costs a fifth as much again as it is worth.
    func feedHeldByTheBudget() -> ConstraintContext {
        let h = waitingFeed(at: 0.1)
        var context = h.system.context(for: feed)
        context.judgement.deviceAwake = true
        let value = context.judgement.likelihood.probability
        let budget = context.judgement.energyBudget
        let share = h.system.policy.judgement.awakeRunCost / value / 1.2
        context.judgement.energyBudget.withdraw(budget.balance(at: h.now) - share * budget.capacity, at: h.now)
        return context
    }

    @Test func aRefreshHeldByAnEmptyingBudgetIsJudgedAgainWhenAnotherRunGivesBackItsReservation() {
        var context = feedHeldByTheBudget()
        let prediction = LaunchPredictionConstraint()
        let request = Fixture.refreshRequest(feed)
        #expect(prediction.evaluate(request, in: context) != .satisfied)
        #expect(prediction.lifts(request, in: context).contains(.budgetRefill), "a refill can make it worth its cost")
        context.judgement.deviceAwake = false  // a wake costs more than a run is worth even from a full budget
        #expect(prediction.lifts(request, in: context) == [.wake, .screenLit, .charger])
    }

    @Test func aRefreshHeldByItsCostIsJudgedAgainOnlyByWhatMakesARunCheaper() {
        var context = feedHeldByTheBudget()
        let prediction = LaunchPredictionConstraint()
        let request = Fixture.refreshRequest(feed)
        context.judgement.deviceAwake = false
        context.device.network = .cellular
        let lifts = prediction.lifts(request, in: context)
        #expect(
            lifts.isSuperset(of: [.wake, .screenLit, .charger, .network]), "a wake, the screen, the charger, Wi-Fi")
        #expect(lifts.isDisjoint(with: [.screenDark, .foregroundApp, .settings]), "these only make a run dearer")
        #expect(!lifts.contains(.batteryLevel), "off a low battery, its level does not change the cost")
        context.device.batteryLevel = context.policy.judgement.lowBatteryLevel / 2
        #expect(prediction.lifts(request, in: context).contains(.batteryLevel), "a fuller battery costs less")
    }

    @Test func aRefreshOfFreshContentIsJudgedAgainWhenItHasAgedEnoughToBeWorthARun() throws {
        var context = waitingFeed(at: 0.1).system.context(for: feed)
        context.judgement.deviceAwake = true
        context.judgement.likelihood.probability = 0.5
        context.judgement.contentUpdatedAt = context.now + -60  // a minute old: a run gains a fifteenth
        let prediction = LaunchPredictionConstraint()
        let request = Fixture.refreshRequest(feed)
        let cost = prediction.runCost(in: context).cost
        guard case .blocked(_, let until?) = prediction.evaluate(request, in: context) else {
            Issue.record("a run that gains a fifteenth of a fresh launch should not be worth its cost")
            return
        }
        let aged = try #require(context.judgement.contentUpdatedAt) + 900 * cost / 0.5
        #expect(abs(until - aged) < 0.001, "when the content's age makes a run worth its cost, not at the window's end")
        context.now = until + 1
        #expect(prediction.evaluate(request, in: context) == .satisfied)
    }

    @Test func aChangeThatCannotMakeARunCheaperReviewsNoAppItHolds() {
        var system = waitingFeed(at: 0.1).system  // locked and asleep: worth an awake run, not a wake
        #expect(!system.scheduler.hasMarkedApps)
        system.apply(.setBattery(level: system.device.batteryLevel - 0.01, charging: false))  // not a low battery
        system.apply(.setLowDataMode(true))
        system.apply(.lock)  // locked and dark already
        #expect(!system.scheduler.hasMarkedApps, "neither the battery's level nor a setting changes what a run costs")
        system.apply(.screenOn)
        #expect(system.scheduler.hasMarkedApps, "the screen lighting makes a run cheap enough")
        system.settle()
        #expect(system.runningTasks.contains { $0.app == feed }, "judged again, it started")
    }

    @Test func aReadingThatChangesNothingConcernsNoApp() {
        var h = CoreHarness(policy: Fixture.judging, apps: [Fixture.manifest(feed)])
        h.open(feed)  // on screen: every change of the device concerns it
        var system = h.system
        system.apply(.setNetwork(system.device.network))
        system.apply(.setBattery(level: system.device.batteryLevel, charging: system.device.isCharging))
        #expect(!system.scheduler.hasMarkedApps, "the host reported the network and the battery as they were")
        system.apply(.setNetwork(system.device.network == .wifi ? .cellular : .wifi))
        #expect(system.scheduler.hasMarkedApps, "another network concerns the app on screen")
    }

    @Test func aRequestIsJudgedAgainOnceItsOwnBlockersLiftThenOnTheChangesThatLiftTheRest() {
        var wait = RequestWait()
        wait.note(until: Instant(seconds: 100), lifts: [])  // an earliest begin date
        wait.note(until: Instant(seconds: 900), lifts: [.screenLit, .charger, .wake])  // coalescing
        #expect(wait.reviewAt == Instant(seconds: 100))
        #expect(wait.liftedBy.isEmpty, "nothing shared can start it before its date")
        var shared = RequestWait()
        shared.note(until: Instant(seconds: 900), lifts: [.screenLit, .charger, .wake])
        shared.note(until: Instant(seconds: 1200), lifts: [.charger, .budgetRefill])
        #expect(shared.reviewAt == Instant(seconds: 1200))
        #expect(shared.liftedBy == [.screenLit, .charger, .wake, .budgetRefill])
        var own = RequestWait()
        own.note(until: nil, lifts: [])  // the app is on screen: its own event lifts it
        own.note(until: Instant(seconds: 100), lifts: [])
        #expect(own.reviewAt == nil)
        #expect(own.liftedBy.isEmpty)
    }

    @Test func aTriggersEstimateNeverRisesAsItAges() {
        // Learnt from random sessions: the likelihood between events rises only with the hour or as a habit's
        // launch enters the window (`habitRises`), which is what lets a waiting refresh go unjudged until its
        // `until` (see `LaunchModel.estimate`).
        let clock = WallClock(epochAtZero: 0)
        let apps: [BundleID] = [feed, mail, Fixture.photos]
        var model = LaunchModel()
        var seed: UInt64 = 7
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var time = Instant.zero
        var checked = 0
        for _ in 0..<400 {
            time = time + Double(60 + next(3000))
            _ = model.screenCameOn(at: time, clock: clock)
            for _ in 0..<next(3) {
                time = time + Double(next(600))
                let app = apps[next(apps.count)]
                _ = model.launched(app, at: time, clock: clock)
                time = time + Double(next(300))
                _ = model.left(app, at: time, clock: clock)
            }
            if next(4) == 0 { _ = model.notified(apps[next(apps.count)], at: time, clock: clock) }
            for app in apps {
                let first = model.likelihood(of: app, at: time, clock: clock, policy: JudgementPolicy())
                var previous = first.probability
                for step in 1...30 {
                    let later = time + Double(step * 30)
                    guard clock.localHour(at: later) == clock.localHour(at: time),
                        first.habitRises.map({ later < $0 }) ?? true
                    else { break }
                    let now = model.likelihood(of: app, at: later, clock: clock, policy: JudgementPolicy()).probability
                    #expect(now <= previous + 1e-12, "\(app) at \(later)")
                    previous = now
                    checked += 1
                }
            }
        }
        #expect(checked > 10_000)
    }
}
