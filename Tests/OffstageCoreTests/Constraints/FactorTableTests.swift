import Testing

@testable import OffstageCore

/// Issue 16, item 6: which of WWDC20's seven factors hold which kind of work back, a scenario per cell. The
/// expected cells are written here from the sources (the oracle), apart from `FactorTable`, which the code asks.
@Suite struct FactorTableTests {
    /// The factors that hold each kind of work back: WWDC20 by mechanism; legacy fetch like refresh (issue 16);
    /// processing also off the charger's gates (SPEC §5) but not after a force-quit (Apple DTS); continued
    /// processing only by the swipe (WWDC25).
    static let expected: [WorkKind: Set<WorkFactor>] = [
        .appRefresh: Set(WorkFactor.allCases),
        .processing: [.criticalBattery, .lowPowerMode, .appUsage, .backgroundAppRefreshSwitch, .rateLimiting],
        .backgroundFetch: Set(WorkFactor.allCases),
        .backgroundPush: Set(WorkFactor.allCases).subtracting([.appUsage]),
        .continuedProcessing: [.appSwitcher],
    ]

    @Test(arguments: WorkFactor.allCases, WorkKind.allCases)
    func eachFactorHoldsBackTheWorkTheTableSaysAndNoOther(factor: WorkFactor, work: WorkKind) throws {
        let holds = try #require(Self.expected[work]).contains(factor)
        #expect(FactorTable.standard.holds(factor, work) == holds)
        #expect(try #require(FactorTable.standard.cells[factor]?[work]).source.isEmpty == false)
        let outcome = FactorScenario(factor: factor, work: work).run()
        #expect(outcome.ran == !holds, "\(work) with \(factor.rawValue) on")
        if holds { #expect(outcome.heldBy.contains(factor), "held by \(outcome.heldBy), not \(factor.rawValue)") }
    }

    /// Not held by the budgets, processing on cellular takes what is left of the data budget, never more (it
    /// left the budget at −2000 kB before, and every refresh after it waited the longer).
    @Test func processingOnCellularNeverOverspendsTheDataBudget() throws {
        var policy = Fixture.unspaced
        policy.judgement.dataBudgetCapacity = 500_000
        policy.judgement.dataBudgetPerDay = 0
        var h = Fixture.harness(policy: policy)
        h.handle(.setNetwork(.cellular))
        h.open(Fixture.feed)
        h.submit(Fixture.processingRequest(Fixture.feed), from: Fixture.feed)
        h.handle(.home)
        h.lockUntilIdle()
        _ = try #require(h.task(Fixture.processing(Fixture.feed), of: Fixture.feed))
        #expect(h.system.dataBudget.balance(at: h.now) == 0)
        h.complete(Fixture.processing(Fixture.feed), of: Fixture.feed)
        #expect(h.system.dataBudget.balance(at: h.now) == 500_000)
    }
}

/// One cell played out: the app sets the work up, the factor comes on, and the work gets its chance.
struct FactorScenario {
    let factor: WorkFactor
    let work: WorkKind
    let app = Fixture.feed

    /// Whether the work ran, and the factors its blockers (or its drop or kill) name.
    struct Outcome {
        var ran: Bool
        var heldBy: Set<WorkFactor>
    }

    /// iOS's policy, with the factor's part on and no other factor in the way: rate limiting off unless it is
    /// the factor; no runs for the app's usage (quotas 0) or spent budgets when those are; legacy fetches due
    /// a minute apart, so that the rate limit, not the interval, spaces them.
    var policy: Policy {
        var policy = factor == .rateLimiting ? Policy.iOS : Fixture.unspaced
        policy.minimumBackgroundFetchInterval = 60
        if factor == .appUsage {
            policy.judgement.quotaActive = 0
            policy.judgement.quotaWorkingSet = 0
            policy.judgement.quotaFrequent = 0
            policy.judgement.quotaRare = 0
        }
        if factor == .systemBudgets {
            policy.judgement.energyBudgetCapacity = 0
            policy.judgement.energyBudgetPerDay = 0
            policy.judgement.dataBudgetCapacity = 0
            policy.judgement.dataBudgetPerDay = 0
        }
        return policy
    }

    var manifest: AppManifest {
        switch work {
        case .backgroundFetch: AppManifest(bundleIdentifier: app, backgroundModes: [.fetch])
        case .backgroundPush: Fixture.manifest(app, modes: [.fetch, .processing, .remoteNotification])
        default: Fixture.manifest(app)
        }
    }

    /// Turns the factor on (the usage quotas and spent budgets are in the policy; rate limiting is primed by
    /// an earlier launch of the same work).
    func activate(_ h: inout CoreHarness) {
        switch factor {
        case .criticalBattery: h.handle(.setBattery(level: 0.10, charging: false))
        case .lowPowerMode: h.handle(.setLowPowerMode(true))
        case .backgroundAppRefreshSwitch: h.handle(.setBackgroundAppRefresh(false))
        case .systemBudgets: h.handle(.setNetwork(.cellular))
        case .appSwitcher:
            h.handle(.openSwitcher)
            h.handle(.swipeAway(app))
        case .appUsage, .rateLimiting: break
        }
    }

    func run() -> Outcome {
        var h = CoreHarness(policy: policy, device: DeviceState(), settings: UserSettings(), apps: [manifest])
        switch work {
        case .appRefresh: return refresh(&h)
        case .processing: return processing(&h)
        case .backgroundFetch: return fetch(&h)
        case .backgroundPush: return push(&h)
        case .continuedProcessing: return continued(&h)
        }
    }

    /// The factors the blockers of the app's pending requests name.
    func factors(of blockers: [Blocker]) -> Set<WorkFactor> {
        var factors = Set(
            blockers.compactMap { blocker in
                [any Constraint].standard.first { $0.name == blocker.constraint }?.factor
            })
        if blockers.contains(where: { $0.constraint == "pushRateLimit" }) { factors.insert(.rateLimiting) }
        return factors
    }

    func pendingBlockers(_ h: CoreHarness) -> [Blocker] {
        h.system.explain().filter { $0.phase == .pending }.flatMap(\.blockers)
    }

    /// A refresh submitted in the foreground, the factor on, the user goes home (primed: a first refresh ran
    /// and resubmitted from its handler).
    func refresh(_ h: inout CoreHarness) -> Outcome {
        h.open(app)
        if factor == .rateLimiting {
            h.submit(Fixture.refreshRequest(app, 2), from: app)
            h.handle(.home)
            h.submit(Fixture.refreshRequest(app), from: app)
            h.complete(Fixture.refresh(app, 2), of: app)
        } else {
            h.submit(Fixture.refreshRequest(app), from: app)
            activate(&h)
            h.handle(.home)
        }
        h.advance(by: 1)
        let ran = h.log.startedTasks.contains { $0.request.identifier == Fixture.refresh(app) }
        return Outcome(ran: ran, heldBy: factors(of: pendingBlockers(h)))
    }

    /// A processing request submitted in the foreground, the factor on, the device left idle (primed: a first
    /// processing task ran and resubmitted from its handler).
    func processing(_ h: inout CoreHarness) -> Outcome {
        h.open(app)
        if factor == .rateLimiting {
            h.submit(Fixture.processingRequest(app, 2), from: app)
            h.handle(.home)
            h.lockUntilIdle()
            h.submit(Fixture.processingRequest(app), from: app)
            h.complete(Fixture.processing(app, 2), of: app)
        } else {
            h.submit(Fixture.processingRequest(app), from: app)
            activate(&h)
            h.handle(.home)
            h.lockUntilIdle()
        }
        h.advance(by: 1)
        let ran = h.log.startedTasks.contains { $0.request.identifier == Fixture.processing(app) }
        return Outcome(ran: ran, heldBy: factors(of: pendingBlockers(h)))
    }

    /// A legacy app asks for fetches, the factor comes on, it goes home and its next fetch falls due (primed:
    /// a first fetch ran and finished).
    func fetch(_ h: inout CoreHarness) -> Outcome {
        h.open(app)
        h.call(.setMinimumBackgroundFetchInterval(0), from: app)
        if factor == .rateLimiting {
            h.handle(.home)
            h.advance(by: 61)
            h.finishEvent(of: app, .newData)
        } else {
            activate(&h)
            h.handle(.home)
        }
        let before = fetches(h)
        h.advance(by: 61)
        let blockers = h.system.backgroundFetches().first?.blockers ?? []
        return Outcome(ran: fetches(h) > before, heldBy: factors(of: blockers))
    }

    func fetches(_ h: CoreHarness) -> Int { h.log.backgroundEvents.filter { $0.event == .fetch }.count }

    /// A push arrives for the suspended app with the factor on (primed: three pushes woke it this hour).
    func push(_ h: inout CoreHarness) -> Outcome {
        h.launchAndSuspend(app)
        if factor == .rateLimiting {
            for number in 1...h.system.policy.backgroundPushRateLimit {
                h.handle(.backgroundPush(app, payload: "p\(number)"))
                h.finishEvent(of: app, .newData)
                h.advance(by: 60)
            }
        } else {
            activate(&h)
        }
        let before = pushes(h)
        h.handle(.backgroundPush(app, payload: "last"))
        h.advance(by: 1)
        var heldBy = factors(of: h.system.heldPushes().first?.blockers ?? [])
        let swiped = h.log.records(.dropped).contains { $0.detail == .pushDropped(.swipedAway) }
        if swiped { heldBy.insert(.appSwitcher) }
        return Outcome(ran: pushes(h) > before, heldBy: heldBy)
    }

    func pushes(_ h: CoreHarness) -> Int {
        h.log.backgroundEvents.filter { if case .remoteNotification = $0.event { true } else { false } }.count
    }

    /// Continued processing started by a tap in the foreground with the factor on (the swipe comes after the
    /// start; primed: a refresh launched the app in the background just before).
    func continued(_ h: inout CoreHarness) -> Outcome {
        let identifier = Fixture.continued(app, "A")
        if factor == .rateLimiting {
            h.open(app)
            h.submit(Fixture.refreshRequest(app), from: app)
            h.handle(.home)
            h.complete(Fixture.refresh(app), of: app)
        }
        if factor != .appSwitcher { activate(&h) }
        h.open(app)
        h.call(.register(identifier: identifier), from: app)
        h.submit(Fixture.continuedRequest(app, "A"), from: app)
        if factor == .appSwitcher { activate(&h) }
        h.advance(by: 1)
        let ran = h.system.runningTasks.contains { $0.request.identifier == identifier }
        let swiped = h.log.records(.killed).contains {
            $0.task == identifier && $0.detail == .killed(reason: .userForceQuit)
        }
        return Outcome(ran: ran, heldBy: swiped ? [.appSwitcher] : [])
    }
}
