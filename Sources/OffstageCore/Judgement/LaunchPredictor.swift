import Foundation

/// Predicts when the user will next open an app from the times of day and weekdays of past launches,
/// so refresh runs shortly before it and the content is fresh when the app opens.
public enum LaunchPredictor {
    /// The first time after `now` within the horizon at which a launch is likely enough, or nil when the
    /// history is too short or no time is likely enough. The candidates are the times of day of past
    /// launches, on each day ahead; each is scored by the past launches within the prediction window
    /// (±30 min) of that time of day, as a mean per day and, once more than a week is known (weighing up to
    /// half after four), per week on that weekday. Pooling around a time rather than by clock hour keeps a
    /// habit that wanders by half an hour, or straddles an hour, predictable; the first likely candidate is
    /// the habit's early edge, so the refresh comes before most of its launches. A candidate within the
    /// window after the latest launch is skipped: that habit was already served.
    public static func nextLaunch(
        after now: Instant, history: UsageHistory, clock: WallClock, policy: JudgementPolicy
    ) -> Instant? {
        let launches = history.launches.filter { now - $0 <= policy.historyWindow && $0 <= now }
        guard let first = launches.first, let last = launches.last else { return nil }
        guard distinctDays(of: launches, clock) >= policy.minimumDaysForPrediction else { return nil }
        let observedDays = max(1, ((now - first) / 86_400).rounded(.up))
        let observedWeeks = max(1, (observedDays / 7).rounded(.up))
        let weeklyWeight = 0.5 * min(1, max(0, (observedDays - 7) / 21))
        var times: [Double] = []
        times.reserveCapacity(launches.count)
        var byWeekday = [[Double]](repeating: [], count: 7)
        for launch in launches {
            let time = clock.secondOfDay(at: launch)
            times.append(time)
            byWeekday[clock.localWeekday(at: launch)].append(time)
        }
        times.sort()
        for index in byWeekday.indices { byWeekday[index].sort() }
        let window = policy.predictionWindow
        let midnight = now + (-clock.secondOfDay(at: now))
        let horizon = now + Double(policy.predictionHorizonHours) * 3600
        // Each distinct time of day with its daily rate, counted once rather than once per day ahead.
        var candidates: [(time: Double, daily: Double)] = []
        candidates.reserveCapacity(times.count)
        for time in times where time != candidates.last?.time {
            candidates.append((time, Double(count(times, near: time, window)) / observedDays))
        }
        for day in 0...(policy.predictionHorizonHours / 24 + 1) {
            for (time, daily) in candidates {
                let candidate = midnight + Double(day) * 86_400 + time
                guard candidate > now, candidate + (-window) > last else { continue }
                guard candidate <= horizon else { return nil }
                let weekly =
                    weeklyWeight == 0
                    ? 0
                    : Double(count(byWeekday[clock.localWeekday(at: candidate)], near: time, window)) / observedWeeks
                let rate = (1 - weeklyWeight) * daily + weeklyWeight * weekly
                if 1 - exp(-rate) >= policy.predictionThreshold { return candidate }
            }
        }
        return nil
    }

    /// How many local days the launches (oldest first) fall on: a day starts where the local day changes.
    static func distinctDays(of launches: [Instant], _ clock: WallClock) -> Int {
        var days = 0
        var current: Int?
        for launch in launches {
            let day = clock.localDay(at: launch)
            if day != current {
                days += 1
                current = day
            }
        }
        return days
    }

    /// How many of the sorted times of day lie within `window` of `time`, across midnight too.
    static func count(_ sorted: [Double], near time: Double, _ window: Double) -> Int {
        func below(_ bound: Double) -> Int {
            var (low, high) = (0, sorted.count)
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < bound { low = middle + 1 } else { high = middle }
            }
            return low
        }
        func within(_ from: Double, _ to: Double) -> Int { below(to.nextUp) - below(from) }
        var total = within(max(0, time - window), min(86_400, time + window))
        if time - window < 0 { total += within(86_400 + time - window, 86_400) }
        if time + window > 86_400 { total += within(0, time + window - 86_400) }
        return total
    }
}
