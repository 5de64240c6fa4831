import Testing

@testable import OffstageCore

/// Issue 16: the factors that hold each kind of work back (WWDC20 "Background execution demystified"),
/// rate limiting among them, and the field's early expiry of refresh tasks.
@Suite struct WorkFactorTests {
    let feed = Fixture.feed

    /// The `rateLimit` blockers of the app's pending requests, as `deferred` records carry them.
    func rateLimitDeferrals(_ h: CoreHarness) -> [Blocker] {
        h.log.records(.deferred).flatMap { record -> [Blocker] in
            guard case .deferred(let blockers)? = record.detail else { return [] }
            return blockers.filter { $0.constraint == RateLimitConstraint().name }
        }
    }

    // MARK: Rate limiting (item 7)

    @Test func refreshResubmittedWithoutEarliestBeginDateIsSpacedByTheRateLimit() throws {
        // The rate limit alone: an app opened once is also little known, which would space its runs by hours.
        var h = Fixture.harness(policy: Fixture.knowingEveryApp)
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.home)
        let first = try #require(h.task(Fixture.refresh(feed), of: feed))
        for _ in 0..<18 {  // each run resubmits and completes after 20 s, as the field's app did, for 6 minutes
            h.advance(by: 20)
            guard h.task(Fixture.refresh(feed), of: feed) != nil else { continue }
            h.submit(Fixture.refreshRequest(feed), from: feed)
            h.complete(Fixture.refresh(feed), of: feed)
        }
        #expect(h.log.records(.started).count == 1)
        let spacing = h.system.policy.discretionaryRateLimit
        let blocker = try #require(rateLimitDeferrals(h).first)
        #expect(blocker.until == first.startedAt + spacing)
        h.advance(to: first.startedAt + spacing)
        #expect(h.log.records(.started).count == 2)
    }

    @Test func processingResubmittedFromItsHandlerIsSpacedByTheRateLimit() throws {
        // The rate limit alone: without the processing pace, which would hold the task for hours.
        var policy = Policy.iOS
        policy.judgement.processingSpacing = 0
        var h = Fixture.harness(policy: policy)
        h.open(feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        h.lockUntilIdle()
        let first = try #require(h.task(Fixture.processing(feed), of: feed))
        for _ in 0..<24 {  // resubmitted from its own handler, then completed, at one instant
            h.submit(Fixture.processingRequest(feed), from: feed)
            h.complete(Fixture.processing(feed), of: feed)
            if h.task(Fixture.processing(feed), of: feed) == nil { break }
        }
        #expect(h.log.records(.started).count == 1)
        #expect(rateLimitDeferrals(h).first?.until == first.startedAt + h.system.policy.discretionaryRateLimit)
        // Spaced, it runs again in the next maintenance wake after the limit: one wake, not 24.
        h.advance(by: h.system.policy.discretionaryRateLimit + h.system.policy.judgement.maintenanceInterval)
        #expect(h.log.records(.started).count == 2)
        #expect(h.log.records(.wake).count <= 2)
    }

    @Test func rateLimitIsExplainedAndCanBeTurnedOff() throws {
        var policy = Fixture.knowingEveryApp
        policy.discretionaryRateLimit = 0
        var h = Fixture.harness(policy: policy)
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.home)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.complete(Fixture.refresh(feed), of: feed)
        #expect(h.log.records(.started).count == 2)
        #expect(rateLimitDeferrals(h).isEmpty)

        var limited = Fixture.harness(policy: Fixture.knowingEveryApp)
        limited.open(feed)
        limited.submit(Fixture.refreshRequest(feed), from: feed)
        limited.handle(.home)
        limited.submit(Fixture.refreshRequest(feed), from: feed)
        limited.complete(Fixture.refresh(feed), of: feed)
        let status = try #require(limited.system.explain().first { $0.phase == .pending })
        #expect(status.blockers.map(\.constraint) == ["rateLimit"])
        #expect(
            status.blockers.first?.reason == "the app's last background launch was 0 s ago; launches are 10 min apart")
    }
}

/// Item 10: the field's early expiry of refresh tasks, an option off by default.
@Suite struct EarlyExpiryTests {
    let feed = Fixture.feed

    @Test func refreshTasksAreExpiredEarlyWhenThePolicyAsksAsInTheField() throws {
        var policy = Policy.iOS
        #expect(policy.runtime(for: .appRefresh) == 30)  // off by default
        policy.refreshEarlyExpiry = 3
        var h = Fixture.harness(policy: policy)
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.home)
        let run = try #require(h.task(Fixture.refresh(feed), of: feed))
        #expect(run.expiresAt == run.startedAt + 3)
        h.advance(by: 3)
        #expect(h.log.records(.expired).map(\.reason) == ["its 3 s runtime is used up"])
        #expect(policy.runtime(for: .processing) == policy.processingRuntime)
    }
}

/// Item 6: which factors apply to which kind of work (WWDC20 "Background execution demystified").
@Suite struct WorkFactorTableTests {
    let feed = Fixture.feed

    /// A policy whose energy budget is empty and never refills: every run that needs it waits.
    var spentEnergy: Policy {
        var policy = Fixture.unspaced
        policy.judgement.energyBudgetCapacity = 0
        policy.judgement.energyBudgetPerDay = 0
        return policy
    }

    @Test func backgroundPushWaitsWhileTheEnergyBudgetIsSpent() {
        let manifest = Fixture.manifest(feed, modes: [.fetch, .processing, .remoteNotification])
        var h = CoreHarness(policy: spentEnergy, device: DeviceState(), settings: UserSettings(), apps: [manifest])
        h.launchAndSuspend(feed)
        #expect(h.handle(.backgroundPush(feed, payload: "p1")).backgroundEvents.isEmpty)
        #expect(h.system.heldPushes().first?.blockers.map(\.constraint) == ["energyBudget"])
        h.handle(.setCharging(true))
        #expect(h.system.heldPushes().isEmpty)
    }

    @Test func processingIsNotHeldByTheEnergyBudget() {
        var h = Fixture.harness(policy: spentEnergy)
        h.open(feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.lockUntilIdle()
        #expect(h.task(Fixture.processing(feed), of: feed) != nil)
        #expect(h.task(Fixture.refresh(feed), of: feed) == nil)
        #expect(h.system.explain().first { $0.phase == .pending }?.blockers.map(\.constraint) == ["energyBudget"])
    }

    @Test func legacyFetchFollowsTheQuotaAndTheRateLimitLikeRefresh() {
        var h = CoreHarness(apps: [AppManifest(bundleIdentifier: feed, backgroundModes: [.fetch])])
        h.open(feed)
        h.call(.setMinimumBackgroundFetchInterval(0), from: feed)
        h.handle(.home)
        for _ in 0..<(2 * 24 * 4) {  // the user opens the app every 15 minutes for two days
            h.advance(by: 15 * 60 - 60)
            h.open(feed)
            h.advance(by: 60)
            h.handle(.home)
        }
        let fetches = h.log.records(.delivered).filter { $0.task == BackgroundEvent.fetch.label }.count
        let quota = UsageTier.active.quota(h.system.policy.judgement)
        #expect(fetches > 0)
        #expect(fetches <= 2 * quota + 1)
    }
}
