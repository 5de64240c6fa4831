import Testing

@testable import OffstageCore

/// Little known, little run (SPEC §5, issue 27 item 3): an app the user has opened only once or twice runs a few
/// times a day at most, spread out, however often it asks, and fades to no runs once it goes unopened for a week.
@Suite struct LittleKnownTests {
    let feed = Fixture.feed
    let legacy: BundleID = "com.example.legacy"
    let day = 86_400.0

    /// The app opened once at the start, then `days` days on the charger (the device awake, so no wake or budget
    /// holds anything back) with the app resubmitting its refresh for 15 minutes ahead as each run starts; the
    /// starts of its refresh.
    func refreshStarts(days: Double, policy: Policy = .iOS) -> [Instant] {
        var h = Fixture.harness(policy: policy)
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed, earliestBeginDate: 900), from: feed)
        h.handle(.home)
        h.handle(.setCharging(true))
        var starts: [Instant] = []
        let end = Instant(seconds: days * day)
        while true {
            if let run = h.task(Fixture.refresh(feed), of: feed), run.delivered {
                starts.append(h.now)
                h.submit(Fixture.refreshRequest(feed, earliestBeginDate: h.now.seconds + 900), from: feed)
                h.complete(Fixture.refresh(feed), of: feed)
            }
            guard let next = h.system.nextDueTime, next <= end else { return starts }
            h.advance(to: next)
        }
    }

    /// How many of `starts` fall on each day from the first, day by day.
    func perDay(_ starts: [Instant], days: Int) -> [Int] {
        (0..<days).map { number in starts.filter { Int($0.seconds / day) == number }.count }
    }

    @Test func anAppOpenedOnceGetsAtMostFourRefreshesADayAndNoneAfterSevenDaysUnopened() {
        let starts = refreshStarts(days: 10)
        let counts = perDay(starts, days: 10)
        #expect(counts[0] >= 1)
        #expect(counts.allSatisfy { $0 <= 4 })
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $1 - $0 >= Policy.iOS.judgement.littleKnownSpacing })
        // A week unopened, the app's usage tier is `never`: no refresh on days 8 and 9.
        #expect(counts[8] == 0 && counts[9] == 0)
        // The rule is what holds it: treated as well known, the same app runs every 15 minutes on its first day.
        #expect(perDay(refreshStarts(days: 1, policy: Fixture.knowingEveryApp), days: 1)[0] > 20)
    }

    @Test func anAppOpenedThreeTimesIsNoLongerLittleKnown() {
        var h = Fixture.harness()
        for _ in 0..<3 {
            h.open(feed)
            h.handle(.home)
            h.advance(by: 60)
        }
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.home)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.complete(Fixture.refresh(feed), of: feed)
        let blockers = h.system.explain().first { $0.app == feed }?.blockers.map(\.constraint) ?? []
        #expect(!blockers.isEmpty && !blockers.contains("littleKnown"))
    }

    @Test func aLittleKnownAppsWaitSaysWhenItsSpacingLetsItRun() throws {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.home)
        let run = try #require(h.task(Fixture.refresh(feed), of: feed))
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.complete(Fixture.refresh(feed), of: feed)
        let blocker = h.system.explain().first { $0.app == feed }?.blockers.first { $0.constraint == "littleKnown" }
        #expect(blocker?.until == run.startedAt + Policy.iOS.judgement.littleKnownSpacing)
    }

    @Test func legacyFetchOfAnAppOpenedOnceRunsAtMostFourTimesADay() {
        var h = CoreHarness(
            apps: [AppManifest(bundleIdentifier: legacy, backgroundModes: [.fetch], permittedIdentifiers: [])])
        h.open(legacy)
        h.call(.setMinimumBackgroundFetchInterval(0), from: legacy)  // UIApplicationBackgroundFetchIntervalMinimum
        h.handle(.home)
        h.handle(.setCharging(true))
        h.advance(by: 2 * day)
        let fetches = zip(h.log, h.times).compactMap { effect, time -> Instant? in
            if case .deliverBackgroundEvent(_, .fetch, _) = effect { time } else { nil }
        }
        let counts = perDay(fetches, days: 2)
        #expect(counts[0] >= 1 && counts.allSatisfy { $0 <= 4 })
        #expect(zip(fetches, fetches.dropFirst()).allSatisfy { $1 - $0 >= Policy.iOS.judgement.littleKnownSpacing })
    }
}
