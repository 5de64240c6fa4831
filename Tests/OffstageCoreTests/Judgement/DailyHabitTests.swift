import Foundation
import Testing

@testable import OffstageCore

/// A daily habit served from the second day (SPEC §5, issue 27 item 3): a held refresh is judged again as the
/// window nears the time the user usually opens the app, so the content is fresh when they do.
@Suite struct DailyHabitTests {
    let feed = Fixture.feed
    let day = 86_400.0
    /// 1970-01-05, the first Monday after the harness's day 0 (a Thursday, in UTC).
    let monday = 4.0

    /// The start of weekday `number` from that Monday, plus `hours`.
    func at(_ number: Int, _ hours: Double) -> Instant {
        Instant(seconds: (monday + Double(number)) * day + hours * 3600)
    }

    /// The user's five weekdays from a Monday: the app opened at 08:00 for five minutes, the phone on the charger
    /// from 23:30 to 07:00 and asleep the rest of the time. `opened` is what the app does as it comes on screen,
    /// `stepped` what it does after each step (both may start runs); `h` ends at the end of the last day.
    func playWeekdays(
        _ h: inout CoreHarness, days: Int, app: BundleID, opened: (inout CoreHarness) -> Void,
        stepped: (inout CoreHarness) -> Void = { _ in }
    ) {
        h.handle(.lock)
        var plan: [(at: Instant, event: SystemEvent)] = []
        for number in 0..<days {
            plan += [
                (at(number, 7), .setCharging(false)), (at(number, 8), .open(app)), (at(number, 8) + 300, .lock),
                (at(number, 23.5), .setCharging(true)),
            ]
        }
        var next = 0
        let end = at(days, 0)
        while true {
            stepped(&h)
            let planned = next < plan.count ? plan[next].at : nil
            guard let target = [h.system.nextDueTime, planned].compactMap({ $0 }).min(), target <= end else { return }
            h.advance(to: target)
            if let planned, planned <= h.now {
                h.handle(plan[next].event)
                if case .open = plan[next].event { opened(&h) }
                next += 1
            }
        }
    }

    /// The starts of the refresh runs of an app that asks for a refresh 15 minutes ahead when it comes on screen
    /// and as each run starts.
    func refreshStarts(days: Int) -> [Instant] {
        var h = Fixture.harness()
        var starts: [Instant] = []
        let ahead = { (h: inout CoreHarness) -> Void in
            _ = h.submit(Fixture.refreshRequest(feed, earliestBeginDate: h.now.seconds + 900), from: feed)
        }
        playWeekdays(&h, days: days, app: feed, opened: ahead) { h in
            guard let run = h.task(Fixture.refresh(feed), of: feed), run.delivered else { return }
            starts.append(h.now)
            ahead(&h)
            h.complete(Fixture.refresh(feed), of: feed)
        }
        return starts
    }

    /// Whether each of days 2 to `days` has one run between 07:00 and 08:00, and no day more than four.
    func servesTheHabit(_ starts: [Instant], days: Int) {
        for number in 1..<days {
            let before = starts.filter { $0 >= at(number, 7) && $0 < at(number, 8) }
            #expect(before.count == 1, "weekday \(number): runs between 07:00 and 08:00 at \(before)")
        }
        // Little known still means little run: at most four a day, the habit's run among them.
        for number in 0..<days {
            #expect(starts.filter { $0 >= at(number, 0) && $0 < at(number + 1, 0) }.count <= 4)
        }
    }

    @Test func anAppOpenedDailyAt0800IsRefreshedBefore0800OnDays2To5() {
        servesTheHabit(refreshStarts(days: 5), days: 5)
    }

    @Test func legacyFetchOfAnAppOpenedDailyAt0800RunsBefore0800OnDays2To5() {
        let legacy: BundleID = "com.example.legacy"
        var h = CoreHarness(
            apps: [AppManifest(bundleIdentifier: legacy, backgroundModes: [.fetch], permittedIdentifiers: [])])
        // UIApplicationBackgroundFetchIntervalMinimum, set at each launch as apps do.
        playWeekdays(&h, days: 5, app: legacy) { _ = $0.call(.setMinimumBackgroundFetchInterval(0), from: legacy) }
        let fetches = zip(h.log, h.times).compactMap { effect, time -> Instant? in
            if case .deliverBackgroundEvent(_, .fetch, _) = effect { time } else { nil }
        }
        servesTheHabit(fetches, days: 5)
    }

    @Test func aLaunchAtTheSameTimeTheDayBeforeMakesTheNextLikely() {
        var model = LaunchModel()
        let policy = JudgementPolicy()
        let clock = WallClock(epochAtZero: 0)
        _ = model.launched(feed, at: at(0, 8), clock: clock)
        // The window from 07:50 holds yesterday's 08:00: one day of one, the prior worth 2 days at the base rate.
        let before = model.likelihood(of: feed, at: at(1, 7 + 50 / 60), clock: clock, policy: policy)
        let base = model.baseRate(of: feed, at: at(1, 7 + 50 / 60), clock)
        #expect(before.signal == .habit(days: 1, of: 1))
        #expect(abs(before.probability - (1 + 2 * base) / 3) < 1e-9)
        #expect(before.probability >= policy.wakeRunCost, "worth a wake")
        // An hour later the window holds no launch of the day before: the habit says less than the base rate.
        let after = model.likelihood(of: feed, at: at(1, 9), clock: clock, policy: policy)
        #expect(after.signal == .timeOfDay(hour: 9))
        // Held before 07:45, the wait is judged again as 08:00 enters the window.
        #expect(model.likelihood(of: feed, at: at(1, 6), clock: clock, policy: policy).habitRises == at(1, 7.75))
        #expect(after.habitRises == at(2, 7.75))
    }

    @Test func aHabitForgetsLaunchesOlderThanItsDays() {
        var model = LaunchModel()
        let policy = JudgementPolicy()
        let clock = WallClock(epochAtZero: 0)
        for number in 0..<3 { _ = model.launched(feed, at: at(number, 8), clock: clock) }
        let kept = model.likelihood(of: feed, at: at(3, 7.9), clock: clock, policy: policy)
        #expect(kept.signal == .habit(days: 3, of: 3))
        // A week and more later, the three mornings are beyond the habit's days.
        let forgotten = model.likelihood(of: feed, at: at(3 + policy.habitDays, 7.9), clock: clock, policy: policy)
        #expect(forgotten.signal == .timeOfDay(hour: 7))
        #expect(forgotten.habitRises == nil)
    }

    @Test func aModelSavedBeforeHabitsWereKeptStillLoads() throws {
        var model = LaunchModel()
        let clock = WallClock(epochAtZero: 0)
        _ = model.launched(feed, at: at(0, 8), clock: clock)
        var saved = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(model)) as? [String: Any])
        #expect(saved.removeValue(forKey: "habits") != nil)
        let loaded = try JSONDecoder().decode(LaunchModel.self, from: JSONSerialization.data(withJSONObject: saved))
        let likelihood = loaded.likelihood(
            of: feed, at: at(1, 7.9), clock: clock, policy: JudgementPolicy())
        #expect(likelihood.signal == .timeOfDay(hour: 7), "no habit known, the hour's rate")
    }

    @Test func launchesOnlyAroundATimeAreNoHabit() {
        var model = LaunchModel()
        let clock = WallClock(epochAtZero: 0)
        let hours: [Double] = [8, 8 + 1.0 / 3, 7 + 2.0 / 3, 8 + 1.0 / 6]
        for (number, hours) in hours.enumerated() {
            _ = model.launched(feed, at: at(number, hours), clock: clock)
        }
        // The window from 07:50 held a launch on one weekday of four: the hour's rate speaks.
        let around = model.likelihood(of: feed, at: at(4, 7 + 5.0 / 6), clock: clock, policy: JudgementPolicy())
        #expect(around.signal == .timeOfDay(hour: 7))
    }

    @Test func aWeekdayHabitOutlivesTheWeekend() {
        var model = LaunchModel()
        let clock = WallClock(epochAtZero: 0)
        for number in 0..<5 { _ = model.launched(feed, at: at(number, 8), clock: clock) }  // Monday to Friday
        // The next Monday at 07:50: the weekend days are not counted against a weekday habit.
        let monday = model.likelihood(of: feed, at: at(7, 7 + 5.0 / 6), clock: clock, policy: JudgementPolicy())
        #expect(monday.signal == .habit(days: 5, of: 5))
        #expect(monday.probability > 0.7)
    }
}
