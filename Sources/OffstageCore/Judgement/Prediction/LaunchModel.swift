import Foundation

/// Learns online, from what the user does, how likely each app is to be opened within the next window (the
/// freshness window, 15 min), and says which apps' likelihood a new event may change. Smoothed counts, no
/// clock and no randomness: each signal is a Beta–Bernoulli estimate anyone can check by counting (see
/// docs/architecture.md, "The launch model"). It owns its state; the daemon persists it with the snapshot.
public struct LaunchModel: Hashable, Sendable, Codable {
    /// A moment after which launches are counted: the events the model learns from.
    enum Trigger: Hashable, Sendable, Codable {
        case screenOn(hour: Int)
        case opened(BundleID)
        case left(BundleID)
        case notification(BundleID)
        case push(BundleID)
        case charger(plugged: Bool)

        /// The signal the trigger is, as the likelihood names it.
        var signal: LaunchSignal {
            switch self {
            case .screenOn(let hour): .screenOn(hour: hour)
            case .opened(let app): .afterApp(app)
            case .left: .recentUse
            case .notification: .notification
            case .push: .push
            case .charger(let plugged): .charger(plugged: plugged)
            }
        }
    }

    /// How often a trigger fired, and how many of those firings each app's launch followed within the window,
    /// by how long after (`delayBins`): most launches after the screen comes on follow within seconds, so a
    /// firing a few minutes old says much less than a new one.
    struct Evidence: Hashable, Sendable, Codable {
        var fired = 0.0
        var followed: [BundleID: [Double]] = [:]

        /// Launches of `app` that followed within the window.
        func followed(by app: BundleID) -> Double { followed[app]?.reduce(0, +) ?? 0 }
    }

    /// The upper ends of the delay bins, as shares of the window (for 15 min: 1, 3, 6, 10 and 15 min).
    static let delayBins = [1.0 / 15, 3.0 / 15, 6.0 / 15, 10.0 / 15, 1]

    /// The delay bin of `delay` seconds after a firing, for a `window` of seconds.
    static func delayBin(_ delay: Double, window: Double) -> Int {
        delayBins.firstIndex { delay < $0 * window } ?? delayBins.count - 1
    }

    /// A trigger that fired within the last window, with the apps launched since (each counted once), as a saved
    /// model keeps it.
    struct Firing: Hashable, Sendable, Codable {
        var trigger: Trigger
        var at: Instant
        var launched: Set<BundleID> = []
    }

    /// The window a likelihood is for, in seconds.
    public private(set) var window: Double
    /// Local days seen, weekdays and weekend days (forgotten like the counts, so the base rate stays a rate a
    /// day), and the last one.
    private(set) var daysSeen = [0.0, 0.0]
    private(set) var lastDay: Int?
    /// Whole local days seen, never forgotten: the model is learnt after `likelihoodLearningDays` of them (nil in
    /// a model saved before the model forgot: `daysSeen` then counts them).
    private(set) var daysCounted: Int?
    /// Seconds after which a count weighs half (`JudgementPolicy.likelihoodHalfLife`): at each new local day every
    /// count is multiplied by 2^(−1 day / half-life), so habits that changed fade; nil or 0 never forgets. The
    /// system sets it from its policy.
    public var halfLife: Double?
    /// Days of launches a habit keeps (`JudgementPolicy.habitDays`); the system sets it from its policy.
    public var habitDays: Int?

    /// The apps the model has seen, numbered in the order it first saw them, and what it knows of each: a
    /// likelihood looks its app up once and reads every table by number (hashing an app or a trigger at each
    /// firing's estimate was a quarter of the judgement's cost).
    private var appNumbers: [BundleID: Int] = [:]
    private var apps: [AppCounts] = []
    /// The triggers that have fired, numbered the same way, with their evidence.
    private var triggerNumbers: [Trigger: Int] = [:]
    private var triggers: [TriggerCounts] = []
    /// Triggers that fired within the last window, oldest first.
    private var recent: [RecentFiring] = []
    /// Whether habits are kept: false in a model saved before they were, until its next launch.
    private var keepsHabits = true

    /// What the model knows of one app: its launches by hour slot (0..<24 on weekdays, 24..<48 on weekend days,
    /// local time; nil before its first), their sum, and its habit.
    private struct AppCounts: Sendable {
        var id: BundleID
        var launchesByHour: [Double]? {
            didSet { launchTotal = launchesByHour?.reduce(0, +) ?? 0 }
        }
        /// `launchesByHour` added up in slot order, again whenever a count changes: every base rate reads it.
        private(set) var launchTotal = 0.0
        var habit: Habit?

        /// Counts a launch in `slot`.
        mutating func countLaunch(inSlot slot: Int) {
            var counts = launchesByHour ?? Array(repeating: 0, count: 48)
            counts[slot] += 1
            launchesByHour = counts
        }

        /// Multiplies every count by `kept`.
        mutating func forget(keeping kept: Double) {
            guard var counts = launchesByHour else { return }
            for slot in counts.indices { counts[slot] *= kept }
            launchesByHour = counts
        }
    }

    /// A trigger's evidence by app number: how often it fired, and the launches of each app that followed, by
    /// delay bin (empty for an app that never followed).
    private struct TriggerCounts: Sendable {
        var trigger: Trigger
        var fired = 0.0
        var followed: [[Double]] = []
        /// The apps that followed it, in bundle identifier order: those whose likelihood a firing may raise.
        var followers: [BundleID] = []

        /// The launches of app `number` that followed, by delay bin.
        func bins(of number: Int) -> [Double] { number < followed.count ? followed[number] : [] }

        /// Counts a launch of app `number` (`id`) that followed a firing after a delay in `bin`.
        mutating func follow(_ number: Int, _ id: BundleID, bin: Int) {
            if bins(of: number).isEmpty {
                keep(Array(repeating: 0, count: LaunchModel.delayBins.count), of: number, id)
            }
            followed[number][bin] += 1
        }

        /// Keeps `bins` as app `number`'s (`id`) launches that followed, listing it among the followers if new.
        mutating func keep(_ bins: [Double], of number: Int, _ id: BundleID) {
            if followed.count <= number { followed += Array(repeating: [], count: number + 1 - followed.count) }
            if followed[number].isEmpty {
                followers.insert(id, at: followers.firstIndex { id < $0 } ?? followers.endIndex)
            }
            followed[number] = bins
        }

        /// Multiplies every count by `kept`.
        mutating func forget(keeping kept: Double) {
            fired *= kept
            for number in followed.indices {
                for bin in followed[number].indices { followed[number][bin] *= kept }
            }
        }
    }

    /// A recent firing by number: its trigger's, the apps it concerns, and the apps launched since.
    private struct RecentFiring: Sendable {
        var trigger: Int
        var at: Instant
        var concerns: Concern
        var launched: [Int] = []
    }

    /// Which apps' launches a firing speaks of, by number (`concerns(of:)`).
    private enum Concern: Sendable {
        case everyApp
        case everyAppBut(Int)
        case only(Int)

        func includes(_ number: Int) -> Bool {
            switch self {
            case .everyApp: true
            case .everyAppBut(let other): other != number
            case .only(let own): own == number
            }
        }
    }

    /// An app's launches of the last `habitDays` days, oldest first, and its first launch: whether the user
    /// opens it at the same time each day, which an hour's average cannot tell.
    struct Habit: Hashable, Sendable, Codable {
        var since: Instant
        var launches: [Instant] = []

        /// The first kept launch at or after `start` (a binary search: the launches are in time order).
        func firstLaunch(from start: Instant) -> Instant? {
            var (low, high) = (0, launches.count)
            while low < high {
                let middle = (low + high) / 2
                if launches[middle] < start { low = middle + 1 } else { high = middle }
            }
            return low < launches.count ? launches[low] : nil
        }
    }

    public init(window: Double = 15 * 60) { self.window = window }

    // MARK: Saving

    /// The model as a snapshot saves it, keyed by app and trigger: the form saved models have always had, and
    /// what two models are compared by (their numbering depends on the order they saw apps in).
    private struct Saved: Hashable, Codable {
        var window: Double
        var evidence: [Trigger: Evidence]
        var launchesByHour: [BundleID: [Double]]
        var daysSeen: [Double]
        var lastDay: Int?
        var daysCounted: Int?
        var halfLife: Double?
        var recent: [Firing]
        var habits: [BundleID: Habit]?
        var habitDays: Int?
    }

    private var saved: Saved {
        var evidence: [Trigger: Evidence] = [:]
        for counts in triggers {
            var followed: [BundleID: [Double]] = [:]
            for (number, bins) in counts.followed.enumerated() where !bins.isEmpty { followed[apps[number].id] = bins }
            evidence[counts.trigger] = Evidence(fired: counts.fired, followed: followed)
        }
        var launchesByHour: [BundleID: [Double]] = [:]
        var habits: [BundleID: Habit] = [:]
        for app in apps {
            launchesByHour[app.id] = app.launchesByHour
            habits[app.id] = app.habit
        }
        let recent = recent.map { firing in
            Firing(
                trigger: triggers[firing.trigger].trigger, at: firing.at,
                launched: Set(firing.launched.map { apps[$0].id }))
        }
        return Saved(
            window: window, evidence: evidence, launchesByHour: launchesByHour, daysSeen: daysSeen, lastDay: lastDay,
            daysCounted: daysCounted, halfLife: halfLife, recent: recent, habits: keepsHabits ? habits : nil,
            habitDays: habitDays)
    }

    private init(_ saved: Saved) {
        window = saved.window
        daysSeen = saved.daysSeen
        lastDay = saved.lastDay
        daysCounted = saved.daysCounted
        halfLife = saved.halfLife
        habitDays = saved.habitDays
        keepsHabits = saved.habits != nil
        for (app, counts) in saved.launchesByHour.sorted(by: { $0.key < $1.key }) {
            apps[number(of: app)].launchesByHour = counts
        }
        for (app, habit) in (saved.habits ?? [:]).sorted(by: { $0.key < $1.key }) {
            apps[number(of: app)].habit = habit
        }
        for (trigger, seen) in saved.evidence {
            let fired = number(of: trigger)
            triggers[fired].fired = seen.fired
            for (app, bins) in seen.followed.sorted(by: { $0.key < $1.key }) {
                triggers[fired].keep(bins, of: number(of: app), app)
            }
        }
        for firing in saved.recent {
            let (fired, concerns) = (number(of: firing.trigger), concerns(of: firing.trigger))
            let launched = firing.launched.sorted().map { number(of: $0) }
            recent.append(RecentFiring(trigger: fired, at: firing.at, concerns: concerns, launched: launched))
        }
    }

    public init(from decoder: any Decoder) throws { self.init(try Saved(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try saved.encode(to: encoder) }
    public static func == (lhs: LaunchModel, rhs: LaunchModel) -> Bool { lhs.saved == rhs.saved }
    public func hash(into hasher: inout Hasher) { hasher.combine(saved) }

    /// Each trigger's evidence, keyed by trigger and app.
    var evidence: [Trigger: Evidence] { saved.evidence }

    // MARK: Learning

    /// The user opened `app` at `time`: the launch follows every recent trigger that concerns it, counts
    /// at its hour, and is itself a trigger for the apps opened after it. Returns the apps whose likelihood
    /// the change may raise.
    mutating func launched(_ app: BundleID, at time: Instant, clock: WallClock) -> [BundleID] {
        see(time, clock)
        let number = self.number(of: app)
        // A re-open (within the window of leaving the app) is the recent-use signal's to predict: the other
        // signals and the hour count the app's cold launches only, the ones a background refresh serves (its
        // content is stale by then); counted, re-opens made every signal promise cold apps twice what followed.
        let left = triggerNumbers[.left(app)]
        let reopened = recent.contains { $0.trigger == left && time - $0.at < window }
        for index in recent.indices
        where time - recent[index].at < window && recent[index].concerns.includes(number)
            && !recent[index].launched.contains(number)
        {
            recent[index].launched.append(number)
            guard !reopened || recent[index].trigger == left else { continue }
            triggers[recent[index].trigger].follow(
                number, app, bin: Self.delayBin(time - recent[index].at, window: window))
        }
        if !reopened {
            apps[number].countLaunch(inSlot: Self.slot(at: time, clock))
            keepForHabit(number, at: time)
        }
        return fire(.opened(app), at: time)
    }

    /// Keeps the launch among the app's habit launches, and forgets those older than `habitDays`.
    private mutating func keepForHabit(_ number: Int, at time: Instant) {
        var habit = apps[number].habit ?? Habit(since: time)
        let horizon = time + -Double(habitDays ?? JudgementPolicy().habitDays) * 86_400
        habit.launches.removeAll { $0 < horizon }
        habit.launches.append(time)
        apps[number].habit = habit
        keepsHabits = true
    }

    /// The app's number in the model's tables, given now if it has none.
    private mutating func number(of app: BundleID) -> Int {
        if let number = appNumbers[app] { return number }
        appNumbers[app] = apps.count
        apps.append(AppCounts(id: app))
        return apps.count - 1
    }

    /// The apps whose launches `trigger` speaks of, by number: the app's own signals speak only of it, the
    /// opening of an app speaks of the others, the screen and the charger of every app.
    private mutating func concerns(of trigger: Trigger) -> Concern {
        switch trigger {
        case .screenOn, .charger: .everyApp
        case .opened(let other): .everyAppBut(number(of: other))
        case .left(let own), .notification(let own), .push(let own): .only(number(of: own))
        }
    }

    /// The trigger's number in the model's tables, given now if it has none.
    private mutating func number(of trigger: Trigger) -> Int {
        if let number = triggerNumbers[trigger] { return number }
        triggerNumbers[trigger] = triggers.count
        triggers.append(TriggerCounts(trigger: trigger))
        return triggers.count - 1
    }

    /// The user left `app` (home, lock, another app): it is often opened again soon.
    mutating func left(_ app: BundleID, at time: Instant, clock: WallClock) -> [BundleID] {
        see(time, clock)
        return fire(.left(app), at: time)
    }

    /// The screen came on (a glance at the locked screen or an unlock from dark).
    mutating func screenCameOn(at time: Instant, clock: WallClock) -> [BundleID] {
        see(time, clock)
        return fire(.screenOn(hour: clock.localHour(at: time)), at: time)
    }

    /// The app showed a notification.
    mutating func notified(_ app: BundleID, at time: Instant, clock: WallClock) -> [BundleID] {
        see(time, clock)
        return fire(.notification(app), at: time)
    }

    /// The app received a background push.
    mutating func pushed(_ app: BundleID, at time: Instant, clock: WallClock) -> [BundleID] {
        see(time, clock)
        return fire(.push(app), at: time)
    }

    /// The charger was plugged in or unplugged.
    mutating func charger(plugged: Bool, at time: Instant, clock: WallClock) -> [BundleID] {
        see(time, clock)
        return fire(.charger(plugged: plugged), at: time)
    }

    /// Counts the trigger and keeps it for the window; the apps its evidence has seen follow it are the ones
    /// whose likelihood it may raise (its own app for an app's signal).
    private mutating func fire(_ trigger: Trigger, at time: Instant) -> [BundleID] {
        recent.removeAll { time - $0.at >= window }
        let fired = number(of: trigger)
        triggers[fired].fired += 1
        recent.append(RecentFiring(trigger: fired, at: time, concerns: concerns(of: trigger)))
        switch trigger {
        case .left(let app), .notification(let app), .push(let app): return [app]
        case .screenOn, .opened, .charger: return triggers[fired].followers
        }
    }

    /// Counts the local days seen up to `time`'s, each as a weekday or a weekend day, forgetting a day's worth of
    /// every count before each new one (`halfLife`).
    private mutating func see(_ time: Instant, _ clock: WallClock) {
        let day = clock.localDay(at: time)
        guard lastDay.map({ day > $0 }) ?? true else { return }
        let counted = daysCounted ?? Int((daysSeen[0] + daysSeen[1]).rounded())
        for seen in (lastDay.map { $0 + 1 } ?? day)...day {
            if lastDay != nil { forgetOneDay() }
            daysSeen[Self.isWeekend(day: seen) ? 1 : 0] += 1
        }
        daysCounted = counted + day - (lastDay ?? day - 1)
        lastDay = day
    }

    /// Multiplies every count (firings, launches that followed, launches by hour, days seen) by what a day
    /// keeps of it: 2^(−1 day / `halfLife`). Nothing without a half-life.
    private mutating func forgetOneDay() {
        guard let halfLife, halfLife > 0 else { return }
        let kept = exp2(-86_400 / halfLife)
        for number in triggers.indices { triggers[number].forget(keeping: kept) }
        for number in apps.indices { apps[number].forget(keeping: kept) }
        daysSeen = daysSeen.map { $0 * kept }
    }

    /// Whole local days the model has seen.
    var days: Int { daysCounted ?? Int((daysSeen[0] + daysSeen[1]).rounded()) }

    // MARK: Predicting

    /// The chance that `app` is opened within the window from `time`, and the signal that gives it: the
    /// strongest of its base rate at this hour and of each recent trigger's estimate (see `estimate`).
    func likelihood(of app: BundleID, at time: Instant, clock: WallClock, policy: JudgementPolicy) -> LaunchLikelihood {
        let hour = clock.localHour(at: time)
        let number = appNumbers[app]
        let base = number.map { baseRate(of: $0, at: time, clock) } ?? 0
        var best = LaunchLikelihood(
            probability: base, signal: .timeOfDay(hour: hour), window: window,
            learnt: days >= policy.likelihoodLearningDays)
        guard let number else { return best }  // never seen: no evidence of it anywhere
        for firing in recent
        where time - firing.at < window && firing.concerns.includes(number) && !firing.launched.contains(number) {
            let probability = Self.estimate(
                followed: triggers[firing.trigger].bins(of: number), fired: triggers[firing.trigger].fired,
                age: time - firing.at, prior: base, window: window, policy)
            if probability > best.probability {
                best.probability = probability
                best.signal = triggers[firing.trigger].trigger.signal
            }
        }
        guard let habit = apps[number].habit else { return best }
        if let kept = habitEstimate(habit, at: time, clock, prior: base, policy), kept.probability > best.probability {
            best.probability = kept.probability
            best.signal = .habit(days: kept.days, of: kept.of)
        }
        best.habitRises = nextHabitRise(habit, after: time, days: policy.habitDays)
        return best
    }

    /// The chance of a launch in the window from `time` from the app's habit, when it has one: of the past days
    /// of the same kind (weekdays or weekend days) among the last `habitDays` since its first launch, those
    /// with a launch in the window at this time of day must be at least `habitRegularity` of them. The chance is
    /// then the mean of a Beta posterior whose prior is the base rate worth `habitPriorWeight` days: a paper
    /// read at 08:00 shows from the second day (a third likely, worth a wake). Launches only around a time, or
    /// at random times, are no habit: the hour's rate speaks for them (taking the best of noisy counts cost
    /// fresh launches and energy on the generated traces).
    func habitEstimate(_ habit: Habit, at time: Instant, _ clock: WallClock, prior: Double, _ policy: JudgementPolicy)
        -> (probability: Double, days: Int, of: Int)?
    {
        let since = min(policy.habitDays, Int(((time + window - habit.since) / 86_400).rounded(.down)))
        guard since > 0 else { return nil }
        let weekend = Self.isWeekend(day: clock.localDay(at: time))
        var (seen, kept) = (0, 0)
        for back in 1...since {
            let start = time + -Double(back) * 86_400
            guard Self.isWeekend(day: clock.localDay(at: start)) == weekend else { continue }
            seen += 1
            if let launch = habit.firstLaunch(from: start), launch <= start + window { kept += 1 }
        }
        // One day shows a habit only in the one launch of an app opened once: an app opened often that day has
        // a launch in many windows, none of them a habit yet.
        guard seen > 1 || (seen == 1 && habit.launches.count == 1),
            Double(kept) >= policy.habitRegularity * Double(seen)
        else { return nil }
        let weight = policy.habitPriorWeight
        return ((Double(kept) + weight * prior) / (Double(seen) + weight), kept, seen)
    }

    /// When a launch of the last `days` days next enters the window at its time of day, after `time`: the next
    /// moment the habit's chance can rise, when a refresh held as unlikely is judged again.
    func nextHabitRise(_ habit: Habit, after time: Instant, days: Int) -> Instant? {
        var next: Instant?
        for launch in habit.launches {
            let back = max(1, Int(((time - launch + window) / 86_400).rounded(.down)) + 1)
            guard back <= days else { continue }
            let rise = launch + (Double(back) * 86_400 - window)
            if next.map({ rise < $0 }) ?? true { next = rise }
        }
        return next
    }

    /// The chance that `app` is opened in what is left of the window of a firing `age` seconds old, with no
    /// launch of it yet: of the trigger's firings not followed by the app before this age's delay bin, the
    /// share followed from that bin on. The mean of a Beta posterior whose prior is the app's base rate for the
    /// rest of the window, worth `likelihoodPriorWeight` firings: a trigger seen a few times stays near the
    /// base rate, one seen often says what it saw. It never rises as the firing ages (at a bin's end the
    /// launches in it leave the count above and below alike, and the estimate is at most 1; the prior's share
    /// only shrinks): between events the likelihood changes only with the hour, so nothing else reviews it.
    func estimate(
        _ app: BundleID, after trigger: Trigger, age: Double = 0, prior: Double, _ policy: JudgementPolicy
    ) -> Double {
        let counts = triggerNumbers[trigger].map { triggers[$0] }
        let bins = appNumbers[app].flatMap { counts?.bins(of: $0) } ?? []
        return Self.estimate(
            followed: bins, fired: counts?.fired ?? 0, age: age, prior: prior, window: window, policy)
    }

    /// `estimate` from a trigger's counts: `fired` firings, and `followed` launches of the app by delay bin.
    private static func estimate(
        followed bins: [Double], fired: Double, age: Double, prior: Double, window: Double,
        _ policy: JudgementPolicy
    ) -> Double {
        let bin = delayBin(age, window: window)
        var (before, after) = (0.0, 0.0)
        for index in bins.indices {
            if index < bin { before += bins[index] } else { after += bins[index] }
        }
        let weight = policy.likelihoodPriorWeight
        let rest = max(0, window - age) / window
        return (after + weight * prior * rest) / (max(0, fired - before) + weight)
    }

    /// The chance of a launch of `app` within the window at this hour of a weekday or weekend day: its launches
    /// in that hour a day, as a Poisson rate, smoothed towards its launches in any hour by one day's worth (so a
    /// new habit starts low and an hour never seen is not quite impossible).
    func baseRate(of app: BundleID, at time: Instant, _ clock: WallClock) -> Double {
        appNumbers[app].map { baseRate(of: $0, at: time, clock) } ?? 0
    }

    /// `baseRate` of app `number`.
    private func baseRate(of number: Int, at time: Instant, _ clock: WallClock) -> Double {
        guard let counts = apps[number].launchesByHour else { return 0 }
        let slot = Self.slot(at: time, clock)
        let anyHour = apps[number].launchTotal / max(1, 24 * (daysSeen[0] + daysSeen[1]))
        let perHour = (counts[slot] + anyHour) / (daysSeen[slot < 24 ? 0 : 1] + 1)
        return 1 - exp(-perHour * window / 3600)
    }

    /// The hour slot of `time`: the local hour, plus 24 on a weekend day.
    static func slot(at time: Instant, _ clock: WallClock) -> Int {
        clock.localHour(at: time) + (isWeekend(day: clock.localDay(at: time)) ? 24 : 0)
    }

    /// Whether the local day number falls on a Saturday or a Sunday (day 0, 1970-01-01, was a Thursday).
    static func isWeekend(day: Int) -> Bool {
        let weekday = ((day + 4) % 7 + 7) % 7
        return weekday == 0 || weekday == 6
    }
}
