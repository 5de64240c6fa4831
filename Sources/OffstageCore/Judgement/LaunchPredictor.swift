import Foundation

/// Predicts when the user will next open an app from the hours and weekdays of past launches,
/// so refresh runs shortly before it and the content is fresh when the app opens.
public enum LaunchPredictor {
    /// The first time after `now` within the horizon at which a launch is likely enough, or nil when
    /// the history is too short or no hour is likely enough. Each hour ahead is scored from the mean
    /// launches per day in that hour of the day and, once more than a week is known (weighing up to
    /// half after four), per week in that hour of that weekday; the predicted time is the median
    /// minute of past launches in that hour. An hour in which the user already opened the app is skipped.
    public static func nextLaunch(
        after now: Instant, history: UsageHistory, clock: WallClock, policy: JudgementPolicy
    ) -> Instant? {
        let launches = history.launches.filter { now - $0 <= policy.historyWindow && $0 <= now }
        guard let first = launches.first else { return nil }
        let days = Set(launches.map { clock.localDay(at: $0) })
        guard days.count >= policy.minimumDaysForPrediction else { return nil }
        let observedDays = max(1, ((now - first) / 86_400).rounded(.up))
        let observedWeeks = max(1, (observedDays / 7).rounded(.up))
        let weeklyWeight = 0.5 * min(1, max(0, (observedDays - 7) / 21))
        var byHour = [Double](repeating: 0, count: 24)
        var byWeekHour = [Double](repeating: 0, count: 7 * 24)
        var minutes = [[Double]](repeating: [], count: 24)
        for launch in launches {
            let hour = clock.localHour(at: launch)
            byHour[hour] += 1
            byWeekHour[clock.localWeekday(at: launch) * 24 + hour] += 1
            let local = clock.localEpoch(at: launch)
            minutes[hour].append(local - (local / 3600).rounded(.down) * 3600)
        }
        let local = clock.localEpoch(at: now)
        let hourStart = now + (-(local - (local / 3600).rounded(.down) * 3600))
        for ahead in 0..<policy.predictionHorizonHours {
            let slot = hourStart + Double(ahead) * 3600
            if ahead == 0, let last = launches.last, last >= slot { continue }
            let hour = clock.localHour(at: slot)
            let weekly = byWeekHour[clock.localWeekday(at: slot) * 24 + hour] / observedWeeks
            let rate = (1 - weeklyWeight) * byHour[hour] / observedDays + weeklyWeight * weekly
            let probability = 1 - exp(-rate)
            guard probability >= policy.predictionThreshold else { continue }
            let sorted = minutes[hour].sorted()
            return slot + sorted[sorted.count / 2]
        }
        return nil
    }

}
