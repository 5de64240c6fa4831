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
        nextLaunch(
            after: now, basis: Basis(history.launches, before: now, clock: clock, policy: policy), policy: policy)
    }

    /// The same prediction from a basis already sorted (the system keeps one per app up to date).
    static func nextLaunch(after now: Instant, basis: Basis, policy: JudgementPolicy) -> Instant? {
        guard let first = basis.first, let last = basis.last else { return nil }
        guard basis.distinctDays >= policy.minimumDaysForPrediction else { return nil }
        let clock = basis.clock
        let observedDays = max(1, ((now - first) / 86_400).rounded(.up))
        let observedWeeks = max(1, (observedDays / 7).rounded(.up))
        let weeklyWeight = 0.5 * min(1, max(0, (observedDays - 7) / 21))
        let times = basis.times
        let window = policy.predictionWindow
        let midnight = now + (-clock.secondOfDay(at: now))
        let horizon = now + Double(policy.predictionHorizonHours) * 3600
        // Each distinct time of day's daily rate is counted when first needed and kept for the days ahead.
        var dailyRates = [Double?](repeating: nil, count: times.count)
        for day in 0...(policy.predictionHorizonHours / 24 + 1) {
            for (index, time) in times.enumerated() where index == 0 || time != times[index - 1] {
                let candidate = midnight + Double(day) * 86_400 + time
                guard candidate > now, candidate + (-window) > last else { continue }
                guard candidate <= horizon else { return nil }
                let daily = dailyRates[index] ?? Double(count(times, near: time, window)) / observedDays
                dailyRates[index] = daily
                let weekday = clock.localWeekday(at: candidate)
                let weekly =
                    weeklyWeight == 0 ? 0 : Double(count(basis.byWeekday[weekday], near: time, window)) / observedWeeks
                let rate = (1 - weeklyWeight) * daily + weeklyWeight * weekly
                if 1 - exp(-rate) >= policy.predictionThreshold { return candidate }
            }
        }
        return nil
    }

    /// The launches a prediction reads (those within the history window before a time), sorted by time
    /// of day, overall and per weekday. Kept per app and brought up to date as launches come and leave
    /// the window: sorting them anew at each prediction was most of its cost.
    struct Basis: Sendable {
        /// The launches in the window, oldest first.
        private(set) var launches: [Instant] = []
        let clock: WallClock
        private(set) var distinctDays = 0
        /// Their times of day, sorted, overall and per weekday (0 = Sunday).
        private(set) var times: [Double] = []
        private(set) var byWeekday = [[Double]](repeating: [], count: 7)

        var first: Instant? { launches.first }
        var last: Instant? { launches.last }

        /// The basis of the launches within `policy.historyWindow` before `now`.
        init(_ all: [Instant], before now: Instant, clock: WallClock, policy: JudgementPolicy) {
            self.clock = clock
            update(all, before: now, policy: policy)
        }

        /// Brings the basis to the launches within the window before `now`: launches that left the
        /// window are taken out and new ones put in, each at its sorted place; anything else starts over.
        /// `all` is oldest first, so the window is a range of it, compared in place (it is mostly unchanged).
        mutating func update(_ all: [Instant], before now: Instant, policy: JudgementPolicy) {
            let start = all.firstIndex { now - $0 <= policy.historyWindow } ?? all.endIndex
            let window = all[start..<(all[start...].firstIndex { $0 > now } ?? all.endIndex)]
            guard !window.elementsEqual(launches) else { return }
            // The oldest launches that left: what remains must begin the new window (at worst none remains).
            let dropped =
                (0...launches.count).first { dropped in
                    let kept = launches.count - dropped
                    return kept <= window.count && launches[dropped...].elementsEqual(window.prefix(kept))
                } ?? launches.count
            for launch in launches.prefix(dropped) {
                let time = clock.secondOfDay(at: launch)
                Self.remove(time, from: &times)
                Self.remove(time, from: &byWeekday[clock.localWeekday(at: launch)])
            }
            for launch in window.dropFirst(launches.count - dropped) {
                let time = clock.secondOfDay(at: launch)
                Self.insert(time, into: &times)
                Self.insert(time, into: &byWeekday[clock.localWeekday(at: launch)])
            }
            launches = Array(window)
            distinctDays = LaunchPredictor.distinctDays(of: launches, clock)
        }

        /// Puts `time` at its sorted place.
        private static func insert(_ time: Double, into sorted: inout [Double]) {
            sorted.insert(time, at: index(of: time, in: sorted))
        }

        /// Takes one `time` out of the sorted times.
        private static func remove(_ time: Double, from sorted: inout [Double]) {
            let at = index(of: time, in: sorted)
            if at < sorted.count, sorted[at] == time { sorted.remove(at: at) }
        }

        /// The first place in the sorted times whose time is not below `time`.
        private static func index(of time: Double, in sorted: [Double]) -> Int {
            var (low, high) = (0, sorted.count)
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < time { low = middle + 1 } else { high = middle }
            }
            return low
        }
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
