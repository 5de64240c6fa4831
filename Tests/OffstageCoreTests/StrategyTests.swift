import OffstageSimulator
import Testing

@testable import OffstageCore

/// The baselines of policy evaluation (`SchedulingStrategy`, the simulator's): the literal reading of the
/// API, a fixed period and the oracle, as sets of constraints the core is given, against Offstage's judgement.
@Suite struct StrategyTests {
    let feed = Fixture.feed
    let day = 86_400.0

    /// A harness whose core applies `strategy`'s constraints; the oracle knows the user's `launches` of the feed.
    func harness(_ strategy: SchedulingStrategy, launches: [Double] = []) -> CoreHarness {
        var device = DeviceState()
        device.isScreenOn = false
        device.isLocked = true
        device.idleSince = .zero
        var h = CoreHarness(policy: .iOS, device: device, apps: [Fixture.manifest(feed)])
        h.useConstraints(strategy.constraints(knowing: [feed: launches.map { Instant(seconds: $0) }]))
        return h
    }

    /// The user opens the app and leaves it; it submits a refresh `after` seconds ahead.
    func openAndSubmit(_ h: inout CoreHarness, after: Double?) {
        h.open(feed)
        let begin = after.map { h.system.wallClock.epoch(at: h.now) + $0 }
        h.submit(Fixture.refreshRequest(feed, earliestBeginDate: begin), from: feed)
        h.handle(.lock)
    }

    /// Completes each refresh as it starts and resubmits (after `after` s), for `seconds`; returns the starts.
    func runRefreshes(_ h: inout CoreHarness, for seconds: Double, after: Double?) -> [Instant] {
        var starts: [Instant] = []
        let end = h.now + seconds
        while true {
            if let run = h.task(Fixture.refresh(feed), of: feed), run.delivered {
                starts.append(h.now)
                let begin = after.map { h.system.wallClock.epoch(at: h.now) + $0 }
                h.submit(Fixture.refreshRequest(feed, earliestBeginDate: begin), from: feed)
                h.complete(Fixture.refresh(feed), of: feed)
            }
            guard let next = h.system.nextDueTime, next <= end else { return starts }
            h.advance(to: next)
        }
    }

    @Test func literalStrategyRunsAsSoonAsTheEarliestBeginDatePasses() {
        var h = harness(.literal)
        openAndSubmit(&h, after: 600)
        let starts = runRefreshes(&h, for: 2 * day, after: 600)
        // Every 10 minutes, day and night: no quota, no coalescing grid, no prediction.
        #expect(starts.count > 250)
        #expect(zip(starts, starts.dropFirst()).allSatisfy { abs(($1 - $0) - 600) < 1 })
        #expect(h.system.wakeUps == starts.count)
    }

    @Test func judgementLimitsTheSameAppToItsQuota() {
        var h = harness(.judgement)
        openAndSubmit(&h, after: 600)
        let starts = runRefreshes(&h, for: day, after: 600)
        #expect(starts.count <= Policy.iOS.judgement.quotaActive)
    }

    @Test func fixedPeriodRunsOncePerPeriodWhateverTheAppAsks() {
        var h = harness(.fixedPeriod(seconds: 900))
        openAndSubmit(&h, after: 4 * 3600)
        let starts = runRefreshes(&h, for: 6 * 3600, after: 4 * 3600)
        #expect(starts.first == Instant(seconds: 0))
        #expect(starts.count == 25)  // 0, 15 min, … 6 h
        #expect(zip(starts, starts.dropFirst()).allSatisfy { abs(($1 - $0) - 900) < 1 })
    }

    @Test func oracleRefreshesJustBeforeEachAnnouncedLaunch() {
        let launches: [Double] = [3 * 3600, 5 * 3600 + 17 * 60]
        var h = harness(.oracle(lead: 60), launches: launches)
        openAndSubmit(&h, after: 6 * 3600)
        for launch in launches {
            let starts = runRefreshes(&h, for: Instant(seconds: launch) - h.now, after: 6 * 3600)
            #expect(starts == [Instant(seconds: launch - 60)])
            h.advance(to: Instant(seconds: launch))
            h.open(feed)
            #expect(h.log.records(.contentAge).last?.value == 60)
            h.handle(.lock)
        }
        // No launch ahead: the refresh waits, and says why.
        h.advance(by: day)
        #expect(h.log.startedTasks.count == launches.count)
        let blocker = h.system.explain().first { $0.app == feed }?.blockers.map(\.constraint)
        #expect(blocker == ["oracle"])
    }

    @Test func judgementIsTheStandardConstraintsWithNoBaselineTiming() {
        let names = SchedulingStrategy.judgement.constraints(knowing: [feed: [Instant(seconds: 3 * 3600)]]).map(\.name)
        #expect(names == [any Constraint].standard.map(\.name))
        #expect(!names.contains("oracle") && !names.contains("fixedPeriod"))
        let literal = SchedulingStrategy.literal.constraints(knowing: [:]).map(\.name)
        #expect(literal.contains("earliestBeginDate") && !literal.contains("quota") && !literal.contains("coalescing"))
        var h = harness(.judgement, launches: [3 * 3600])
        openAndSubmit(&h, after: 600)
        h.advance(by: 900)
        #expect(h.log.startedTasks.count == 1)
    }
}
