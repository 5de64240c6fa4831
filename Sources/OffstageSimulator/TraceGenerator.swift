import Foundation
public import OffstageCore

/// The parameters of a synthetic usage trace (`offstage trace generate`): how many users, days and
/// apps, the seed every draw comes from, and the behaviour's numbers (each documented in `docs/traces.md`,
/// chosen so that `offstage trace stats` shows what real usage shows: `TraceStatistics.realUsage`). The model
/// is `TraceGenerator`'s.
public struct TraceModel: Hashable, Sendable {
    public var users: Int
    public var days: Int
    /// Apps on each phone (real phones: 70 and more, most of them rarely opened).
    public var apps: Int
    public var seed: UInt64
    /// The exponent of the apps' Zipf-like popularity (weight 1/rank^s): 1.35 puts about three quarters of the
    /// launches on the top 10 of 74 apps and leaves the median app opened about 0.3 times a day, as real usage.
    public var popularityExponent = 1.2
    /// Mean random sessions with an app on a weekday, before the user's activity factor (0.6–1.4); weekend days
    /// have three quarters of it.
    public var sessionsPerWeekday = 16.0
    /// Within a session, the chance of going on to one more app after each (up to `maxAppsPerSession`).
    public var nextAppChance = 0.55
    public var maxAppsPerSession = 8
    /// Wall-clock seconds since 1970 of the first day's local midnight, read as UTC (2026-11-23, a Monday).
    public var firstDay: Double = 1_795_392_000
    /// The chance that, after a screen session with an app, the user comes back to its last app within
    /// 15 minutes (each return may be followed by another): quick re-opens.
    public var reopenChance = 0.52
    /// The median gap before such a return (seconds; log-normal, at most 14 minutes).
    public var reopenMedianGap: Double = 150
    /// Within a session, the share of next apps drawn from the app's two usual successors (the rest by
    /// popularity): app-to-app transitions.
    public var transitionShare = 0.6
    /// Mean screen sessions without an app per waking day (random glances; a third of them unlock to the
    /// home screen and lock again), besides those that notifications light.
    public var glancesPerDay = 50.0
    /// Mean notifications a day over all of a user's apps (shared by popularity, weight 1/rank^s).
    public var notificationsPerDay = 160.0
    /// The chance that a notification makes the user open its app (within seconds, or minutes later).
    public var notificationOpenChance = 0.08
    /// The chance that a notification left unopened lights the dark screen for a glance.
    public var notificationGlanceChance = 0.3
    /// The share of users who also charge at work on weekdays (an hour or two after lunch).
    public var daytimeChargerShare = 0.3
    /// The chance that the user puts the phone on the charger at bedtime; on the other nights it stays off the
    /// charger, and the user tops it up for one to two hours in the evening instead.
    public var nightlyChargeChance = 0.45
    /// The battery's drain per hour with the screen dark and lit (times the user's own factor, 0.7–1.5), and its
    /// charge per hour on the charger, as shares of a full battery: the trace's `battery` column.
    public var batteryDrainPerDarkHour = 0.01
    public var batteryDrainPerLitHour = 0.13
    public var batteryChargePerHour = 0.5
    /// The median time from the screen lighting to the first app of a session that starts from the dark
    /// screen (seconds; real usage: 1.6 s): log-normal with `screenToAppSpread`, at most 20 s. A session opened
    /// from a notification's lit lock screen has the notification's delay instead.
    public var screenToAppMedianGap = 1.6
    /// The spread of that gap: the standard deviation of its logarithm (0.8: half the gaps within ×0.58–×1.7
    /// of the median, one in ten over ×2.8).
    public var screenToAppSpread = 0.8

    public init(users: Int, days: Int, apps: Int, seed: UInt64) {
        self.users = users
        self.days = days
        self.apps = apps
        self.seed = seed
    }
}

/// Makes synthetic usage traces from a small model of people's phone use (see `docs/traces.md`):
/// - **daily rhythm**: random sessions start at hours drawn from `hourlyRate` (a morning, lunch and
///   evening peak), within the user's waking day; a day starts with a session at wake-up (unplugging
///   the phone) and ends with one at bedtime (plugging it in: charging at night);
/// - **app popularity**: each user ranks the apps in their own order and picks them Zipf-like (weight 1/rank);
/// - **habits**: each user's top third of apps have one or two usual times of day, kept on most days
///   (85 %, some on weekdays only) with ±`habitJitter` of jitter;
/// - **sessions**: a session opens one app, or more in a row (each next one with 35 % chance, most often one
///   of the app's usual successors), each used for a log-normal time (median 90 s); the screen goes off at
///   the end; the user often comes back to the last app within minutes (quick re-opens);
/// - **glances and notifications**: the screen lights without an app (a look, or an unlock to the home
///   screen); apps' notifications come through the waking day, some opened, some lighting the screen;
/// - **weekdays and weekends**: weekends start 90 min later and have fewer sessions; on weekdays the user
///   is away from home (on cellular) from about 08:30 to 18:00, on Wi-Fi otherwise, and some charge at work.
/// The same model and seed always give the same trace, byte for byte.
public enum TraceGenerator {
    /// Relative rates of starting a random session in each local hour (0–23).
    public static let hourlyRate: [Double] = [
        0.2, 0.1, 0.05, 0.05, 0.05, 0.1, 0.5, 1.6, 1.8, 1.0, 0.8, 0.9,
        1.5, 1.3, 0.8, 0.8, 0.9, 1.2, 1.4, 1.5, 1.6, 1.5, 1.0, 0.5,
    ]
    /// Weekend days' share of a weekday's random sessions.
    public static let weekendSessionShare = 0.75
    /// The battery level at which a user off the charger plugs the phone in for an hour (5 %).
    public static let lowBatteryRescue = 0.05
    /// How many of a user's top apps have habits: a third of them, at most eight.
    static func habitualApps(of count: Int) -> Int { max(1, min(8, (count + 2) / 3)) }
    /// How far a habit's time moves from day to day, at most (seconds, either way).
    public static let habitJitter = 30.0 * 60
    /// The time zones users live in, as offsets from UTC (seconds).
    public static let timeZones: [Double] = [3600, 0, -5 * 3600, 9 * 3600, -8 * 3600]
    /// App names, from which bundle identifiers `com.example.NAME` are made.
    public static let appNames = [
        "news", "mail", "chat", "weather", "social", "maps", "music", "bank", "shop", "photos",
        "video", "podcasts", "fitness", "notes", "calendar", "games", "travel", "food", "books", "finance",
    ]

    /// The bundle identifiers of a model's apps.
    public static func apps(_ count: Int) -> [BundleID] {
        (0..<count).map { index in
            let name = appNames[index % appNames.count]
            let round = index / appNames.count
            return BundleID("com.example.\(name)\(round == 0 ? "" : String(round + 1))")
        }
    }

    /// The trace of the model: every user's rows, user after user, each in time order.
    public static func generate(_ model: TraceModel) -> UsageTrace {
        let apps = apps(model.apps)
        var events: [TraceEvent] = []
        for index in 0..<model.users {
            var random = SeededRandom(seed: model.seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index + 1))
            let person = Person(index: index, apps: apps, model: model, random: &random)
            var sessions: [Session] = []
            var notifications: [Notification] = []
            for day in 0..<model.days {
                let (daySessions, dayNotifications) = person.day(day, random: &random)
                sessions += daySessions
                notifications += dayNotifications
            }
            let placed = person.placed(sessions, random: &random)
            var gaps = SeededRandom(seed: model.seed &* 0xD1B5_4A32_D192_ED03 &+ UInt64(index + 1))
            events += person.rows(placed, notifications: notifications, gaps: &gaps)
        }
        return UsageTrace(source: "generated (seed \(model.seed))", events: events, hasScreenColumn: true)
    }
}

/// One app used for a while within a session.
private struct Use {
    var app: BundleID
    var seconds: Double
}

/// A stretch of use between the screen lighting and going dark: one app or a few in a row, or none (a glance).
private struct Session {
    /// Seconds after the first day's local midnight.
    var start: Double
    var uses: [Use]
    /// How a glance lights the screen: a look at the lock screen (its rows start with `screen-on`) or an unlock
    /// (a session with an app starts with `screen-on` either way). A session without uses lasts `glance` seconds.
    var litWhileLocked = false
    var glance: Double = 0
    /// The phone is unplugged when this session starts or plugged in at its end (nil: neither).
    var charger: Bool? = nil
    /// The phone is plugged in at its start (a glance made by plugging in).
    var plugsInAtStart = false
    /// Seconds from the screen lighting to the first app, when something else lit it (a notification); nil:
    /// the user lit it, and the gap is drawn when the rows are written.
    var litBefore: Double? = nil
    /// A glance may be dropped when another session is under way (the screen is already on); a use is moved.
    var droppable: Bool { uses.isEmpty && charger == nil && !plugsInAtStart }
    var length: Double { uses.isEmpty ? glance : uses.reduce(0) { $0 + $1.seconds } + Double(uses.count - 1) * 5 }
}

/// A notification of an app, at a moment (seconds after the first day's local midnight).
private struct Notification {
    var at: Double
    var app: BundleID
}

/// One generated user: time zone, waking day, app ranking and successors, habits, notifications, activity.
private struct Person {
    let model: TraceModel
    let name: String
    let utcOffset: Double
    /// The user's apps, most used first.
    let ranking: [BundleID]
    /// Each app's two usual next apps within a session.
    let successors: [BundleID: [BundleID]]
    /// Seconds after midnight the user wakes up on weekdays, and goes to bed.
    let wake: Double
    let bed: Double
    let activity: Double
    /// Usual times (seconds after midnight) of the top apps, and whether each holds on weekdays only.
    let habits: [(app: BundleID, time: Double, weekdaysOnly: Bool)]
    /// Whether the user charges at work on weekdays.
    let chargesAtWork: Bool
    /// The weight of each app of `ranking` in a draw by popularity (1/rank^s).
    let popularity: [Double]
    /// How fast the user drains the battery, against the model's rates (0.7–1.5).
    let drain: Double

    init(index: Int, apps: [BundleID], model: TraceModel, random: inout SeededRandom) {
        self.model = model
        name = "user\(index + 1)"
        utcOffset = TraceGenerator.timeZones[index % TraceGenerator.timeZones.count]
        var shuffled = apps
        for i in stride(from: shuffled.count - 1, to: 0, by: -1) {
            shuffled.swapAt(i, Int(random.next() % UInt64(i + 1)))
        }
        ranking = shuffled
        popularity = shuffled.indices.map { 1 / pow(Double($0 + 1), model.popularityExponent) }
        wake = 6.5 * 3600 + random.uniform() * 5400
        bed = 22.5 * 3600 + random.uniform() * 5400
        activity = 0.6 + random.uniform() * 0.8
        var habits: [(BundleID, Double, Bool)] = []
        for app in shuffled.prefix(TraceGenerator.habitualApps(of: apps.count)) {
            for _ in 0..<(1 + Int(random.next() % 2)) {
                let time = wake + 1800 + random.uniform() * (bed - wake - 3600)
                habits.append((app, (time / 60).rounded() * 60, random.uniform() < 0.3))
            }
        }
        self.habits = habits
        var successors: [BundleID: [BundleID]] = [:]
        for app in shuffled {
            let others = shuffled.filter { $0 != app }
            var picked: [BundleID] = []
            let weights = others.indices.map { 1 / pow(Double($0 + 1), model.popularityExponent) }
            while picked.count < min(2, others.count) {
                let candidate = others[random.pick(weights: weights)]
                if !picked.contains(candidate) { picked.append(candidate) }
            }
            successors[app] = picked
        }
        self.successors = successors
        chargesAtWork = random.uniform() < model.daytimeChargerShare
        drain = 0.7 + random.uniform() * 0.8
    }

    /// The day's sessions (wake-up, habits, random ones, glances, charging, bedtime) and notifications (some
    /// with the session that opens their app), in seconds after the first day's local midnight.
    func day(_ day: Int, random: inout SeededRandom) -> ([Session], [Notification]) {
        let midnight = Double(day) * 86_400
        let weekday = WallClock(epochAtZero: model.firstDay + midnight).localWeekday(at: .zero)
        let weekend = weekday == 0 || weekday == 6
        let wakeToday = wake + (weekend ? 5400 : 0) + random.between(-1200, 1200)
        let bedToday = bed + (weekend ? 1800 : 0) + random.between(-1200, 1200)
        let chargesTonight = random.uniform() < model.nightlyChargeChance
        var sessions = [Session(start: wakeToday, uses: uses(from: ranking[0], &random), charger: false)]
        for habit in habits where !(weekend && habit.weekdaysOnly) && random.uniform() < 0.85 {
            let time =
                habit.time + (weekend ? 3600 : 0)
                + random.between(-TraceGenerator.habitJitter, TraceGenerator.habitJitter)
            guard time > wakeToday, time < bedToday else { continue }
            sessions.append(Session(start: time, uses: [use(habit.app, &random)]))
        }
        let mean = activity * model.sessionsPerWeekday * (weekend ? TraceGenerator.weekendSessionShare : 1)
        for _ in 0..<random.poisson(mean) {
            let time = randomTime(&random)
            // Awake hours only, but for the odd look at the phone in the night (one in ten drawn there).
            guard (time > wakeToday && time < bedToday) || random.uniform() < 0.1 else { continue }
            sessions.append(Session(start: time, uses: uses(from: popular(&random), &random)))
        }
        for _ in 0..<random.poisson(activity * model.glancesPerDay) {
            let time = randomTime(&random)
            guard time > wakeToday, time < bedToday else { continue }
            sessions.append(
                Session(start: time, uses: [], litWhileLocked: random.uniform() < 2 / 3, glance: random.between(3, 20)))
        }
        var notifications: [Notification] = []
        for _ in 0..<random.poisson(model.notificationsPerDay) {
            let app = ranking[random.pick(weights: popularity)]
            let time = wakeToday + random.uniform() * (bedToday - wakeToday)
            notifications.append(Notification(at: midnight + time, app: app))
            let draw = random.uniform()
            if draw < model.notificationOpenChance {
                // Opened at once from the lit lock screen, or a few minutes later.
                let soon = random.uniform() < 0.5
                let delay = soon ? random.between(2, 20) : min(840, 120 * exp(0.8 * random.normal()))
                var uses = uses(from: app, &random)
                uses[0].app = app
                // Opened at once: the notification lit the lock screen, the user opens it `delay` later.
                sessions.append(
                    Session(start: time + delay, uses: uses, litWhileLocked: soon, litBefore: soon ? delay : nil))
            } else if draw < model.notificationOpenChance + (1 - model.notificationOpenChance)
                * model.notificationGlanceChance
            {
                sessions.append(Session(start: time + 1, uses: [], litWhileLocked: true, glance: random.between(3, 10)))
            }
        }
        if chargesAtWork, !weekend {
            let plug = 13 * 3600 + random.between(0, 3600)
            sessions.append(Session(start: plug, uses: [], litWhileLocked: true, glance: 5, plugsInAtStart: true))
            sessions.append(
                Session(
                    start: plug + random.between(3600, 7200), uses: [], litWhileLocked: true, glance: 5,
                    charger: false))
        }
        if !chargesTonight {
            // A top-up in the evening instead of the night on the charger.
            let plug = 18 * 3600 + random.between(0, 7200)
            sessions.append(Session(start: plug, uses: [], litWhileLocked: true, glance: 5, plugsInAtStart: true))
            sessions.append(
                Session(
                    start: plug + random.between(3600, 7200), uses: [], litWhileLocked: true, glance: 5,
                    charger: false))
        }
        sessions.append(
            Session(start: bedToday, uses: [use(popular(&random), &random)], charger: chargesTonight ? true : nil))
        return (
            sessions.map { session in
                var session = session
                session.start += midnight
                return session
            }, notifications
        )
    }

    /// A time of day drawn from the hourly open-rate curve (seconds after midnight).
    func randomTime(_ random: inout SeededRandom) -> Double {
        Double(random.pick(weights: TraceGenerator.hourlyRate)) * 3600 + random.uniform() * 3600
    }

    /// A session's uses: `first`, then another app with `nextAppChance` each (up to `maxAppsPerSession`), most
    /// often one of the previous app's usual successors.
    func uses(from first: BundleID, _ random: inout SeededRandom) -> [Use] {
        var uses = [use(first, &random)]
        while uses.count < model.maxAppsPerSession, random.uniform() < model.nextAppChance {
            let previous = uses.last!.app
            let usual = successors[previous] ?? []
            var next =
                !usual.isEmpty && random.uniform() < model.transitionShare
                ? usual[Int(random.next() % UInt64(usual.count))] : popular(&random)
            // The same app again is drawn anew, up to three times; then the session's run of apps ends.
            var tries = 1
            while next == previous, tries < 4 {
                next = popular(&random)
                tries += 1
            }
            guard next != previous else { break }
            uses.append(use(next, &random))
        }
        return uses
    }

    /// An app by popularity: Zipf-like, weight 1/rank^s over the user's own ranking.
    func popular(_ random: inout SeededRandom) -> BundleID {
        ranking[random.pick(weights: popularity)]
    }

    /// A use of `app` for a log-normal time: median 90 s, between 10 s and 20 min.
    func use(_ app: BundleID, _ random: inout SeededRandom) -> Use {
        Use(app: app, seconds: min(1200, max(10, (90 * exp(0.9 * random.normal())).rounded())))
    }

    /// The sessions in time order, none overlapping: each starts a minute after the one before ends at the
    /// earliest (a glance that would overlap is dropped, a use is moved); after a session with an app the
    /// user may come back to its last app minutes later (`reopenChance`), and again after that.
    func placed(_ sessions: [Session], random: inout SeededRandom) -> [Session] {
        var waiting = sessions.sorted { $0.start < $1.start }
        var placed: [Session] = []
        var next = 0
        while next < waiting.count {
            var session = waiting[next]
            next += 1
            if let last = placed.last, session.start < last.start + last.length + 60 {
                if session.droppable { continue }
                session.start = last.start + last.length + 60
            }
            placed.append(session)
            guard let lastUse = session.uses.last, random.uniform() < model.reopenChance else { continue }
            let gap = min(840, model.reopenMedianGap * exp(0.8 * random.normal()))
            let back = Session(
                start: session.start + session.length + max(60, gap), uses: uses(from: lastUse.app, &random))
            let index = waiting[next...].firstIndex { $0.start > back.start } ?? waiting.count
            waiting.insert(back, at: index)
        }
        return placed
    }

    /// The rows of the sessions and the notifications, in time order: the screen lighting a moment before a
    /// session's first app (`screenToAppMedianGap`), opened and closed for each use, the screen off after the
    /// last (or `screen-on`/`unlock` and `screen-off` for a glance); the charger and the network as the day goes.
    /// The gaps come from their own stream of draws (`gaps`), so the rest of the trace is the same whatever they are.
    func rows(_ sessions: [Session], notifications: [Notification], gaps: inout SeededRandom) -> [TraceEvent] {
        let midnight = model.firstDay - utcOffset
        func row(_ kind: TraceEvent.Kind, _ app: BundleID?, _ at: Double, screen: Bool?) -> TraceEvent {
            let weekday = WallClock(epochAtZero: model.firstDay + at).localWeekday(at: .zero)
            let hour = at.truncatingRemainder(dividingBy: 86_400)
            let away = weekday != 0 && weekday != 6 && hour >= 8.5 * 3600 && hour < 18 * 3600
            return TraceEvent(
                user: name, epoch: (midnight + at).rounded(), utcOffset: utcOffset, app: app, kind: kind,
                screen: screen, network: away ? .cellular : .wifi)
        }
        var rows: [TraceEvent] = []
        for session in sessions {
            var time = session.start
            var sessionRows: [TraceEvent] = []
            if !session.uses.isEmpty {
                let gap =
                    session.litBefore
                    ?? min(20, model.screenToAppMedianGap * exp(model.screenToAppSpread * gaps.normal()))
                sessionRows.append(row(.screenOn, nil, time - gap, screen: true))
            } else if session.litWhileLocked {
                sessionRows.append(row(.screenOn, nil, time - 1, screen: true))
            }
            if session.uses.isEmpty {
                if !session.litWhileLocked { sessionRows.append(row(.unlock, nil, time, screen: true)) }
                sessionRows.append(row(.screenOff, nil, time + session.glance, screen: false))
            }
            for (index, use) in session.uses.enumerated() {
                sessionRows.append(row(.opened, use.app, time, screen: true))
                time += use.seconds
                sessionRows.append(row(.closed, use.app, time, screen: index < session.uses.count - 1))
                time += 5
            }
            if session.plugsInAtStart { sessionRows[0].charging = true }
            if let charger = session.charger { sessionRows[charger ? sessionRows.count - 1 : 0].charging = charger }
            rows += sessionRows
        }
        // A notification row comes before the session rows of the same second.
        let shown = notifications.map { row(.notification, $0.app, $0.at, screen: nil) }
        return withBattery(
            (shown.map { ($0, 0) } + rows.map { ($0, 1) })
                .enumerated()
                .sorted {
                    ($0.element.0.epoch, $0.element.1, $0.offset) < ($1.element.0.epoch, $1.element.1, $1.offset)
                }
                .map(\.element.0))
    }

    /// The rows with the battery's level written where its whole percentage changes: it drains faster with the
    /// screen lit than dark (the user's `drain` times the model's rates), fills on the charger, and starts full.
    /// At `lowBatteryRescue` off the charger the user plugs the phone in for an hour, as people do before it dies.
    func withBattery(_ rows: [TraceEvent]) -> [TraceEvent] {
        var (level, charging, lit) = (1.0, false, false)
        var (written, last) = (-1, rows.first?.epoch ?? 0)
        var rescuedUntil: Double?
        return rows.map { row in
            var row = row
            let hours = (row.epoch - last) / 3600
            last = row.epoch
            level =
                charging
                ? min(1, level + hours * model.batteryChargePerHour)
                : max(0, level - hours * drain * (lit ? model.batteryDrainPerLitHour : model.batteryDrainPerDarkHour))
            let percent = Int((level * 100).rounded())
            if row.charging != nil {
                rescuedUntil = nil
            } else if let until = rescuedUntil, row.epoch >= until {
                row.charging = false
                rescuedUntil = nil
            } else if !charging, Double(percent) <= TraceGenerator.lowBatteryRescue * 100 {
                row.charging = true
                rescuedUntil = row.epoch + 3600
            }
            charging = row.charging ?? charging
            lit = row.screen ?? lit
            if percent != written {
                row.battery = Double(percent) / 100
                written = percent
            }
            return row
        }
    }
}

extension SeededRandom {
    /// A uniform draw in [0, 1).
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A uniform draw in [low, high).
    mutating func between(_ low: Double, _ high: Double) -> Double { low + uniform() * (high - low) }

    /// A standard normal draw (Box–Muller).
    mutating func normal() -> Double {
        let u = max(uniform(), 1e-12)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * uniform())
    }

    /// A Poisson draw with this mean (Knuth's method; means here are small).
    mutating func poisson(_ mean: Double) -> Int {
        let limit = exp(-mean)
        var count = 0
        var product = uniform()
        while product > limit {
            count += 1
            product *= uniform()
        }
        return count
    }

    /// An index drawn in proportion to the weights.
    mutating func pick(weights: [Double]) -> Int {
        var rest = uniform() * weights.reduce(0, +)
        for (index, weight) in weights.enumerated() {
            rest -= weight
            if rest < 0 { return index }
        }
        return weights.count - 1
    }
}
