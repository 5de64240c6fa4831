import Foundation
public import OffstageCore

/// The parameters of a synthetic usage trace (`offstage trace generate`): how many users, days and
/// apps, and the seed every draw comes from. The model itself is `TraceGenerator`'s, documented there.
public struct TraceModel: Hashable, Sendable {
    public var users: Int
    public var days: Int
    public var apps: Int
    public var seed: UInt64
    /// Wall-clock seconds since 1970 of the first day's local midnight, read as UTC (2026-11-23, a Monday).
    public var firstDay: Double = 1_795_392_000

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
/// - **sessions**: a session opens one app, or more in a row (each next one with 35 % chance), each used for
///   a log-normal time (median 90 s); the screen goes off at the end of a session;
/// - **weekdays and weekends**: weekends start 90 min later and have fewer sessions; on weekdays the user
///   is away from home (on cellular) from about 08:30 to 18:00, on Wi-Fi otherwise.
/// The same model and seed always give the same trace, byte for byte.
public enum TraceGenerator {
    /// Relative rates of starting a random session in each local hour (0–23).
    public static let hourlyRate: [Double] = [
        0.2, 0.1, 0.05, 0.05, 0.05, 0.1, 0.5, 1.6, 1.8, 1.0, 0.8, 0.9,
        1.5, 1.3, 0.8, 0.8, 0.9, 1.2, 1.4, 1.5, 1.6, 1.5, 1.0, 0.5,
    ]
    /// Mean random sessions per day (before the user's own activity factor, 0.6–1.4).
    public static let sessionsPerWeekday = 12.0
    public static let sessionsPerWeekendDay = 9.0
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
            let person = Person(index: index, apps: apps, random: &random)
            var sessions: [Session] = []
            for day in 0..<model.days {
                sessions += person.sessions(on: day, firstDay: model.firstDay, random: &random)
            }
            events += person.rows(Session.placed(sessions), firstDay: model.firstDay)
        }
        return UsageTrace(source: "generated (seed \(model.seed))", events: events, hasScreenColumn: true)
    }
}

/// One app used for a while within a session.
private struct Use {
    var app: BundleID
    var seconds: Double
}

/// A stretch of use between unlocking and locking the phone: one app or a few in a row.
private struct Session {
    /// Seconds after the day's local midnight.
    var start: Double
    var uses: [Use]
    /// The phone is unplugged when this session starts (the first of the day) or plugged in at its end (the last).
    var unplugs = false
    var plugsIn = false
    var length: Double { uses.reduce(0) { $0 + $1.seconds } + Double(uses.count - 1) * 5 }

    /// The sessions in time order, each moved to start a minute after the one before ends at the earliest.
    static func placed(_ sessions: [Session]) -> [Session] {
        var placed: [Session] = []
        for var session in sessions.sorted(by: { $0.start < $1.start }) {
            if let last = placed.last { session.start = max(session.start, last.start + last.length + 60) }
            placed.append(session)
        }
        return placed
    }
}

/// One generated user: time zone, waking day, app ranking, habits and activity.
private struct Person {
    let name: String
    let utcOffset: Double
    /// The user's apps, most used first.
    let ranking: [BundleID]
    /// Seconds after midnight the user wakes up on weekdays, and goes to bed.
    let wake: Double
    let bed: Double
    let activity: Double
    /// Usual times (seconds after midnight) of the top apps, and whether each holds on weekdays only.
    let habits: [(app: BundleID, time: Double, weekdaysOnly: Bool)]

    init(index: Int, apps: [BundleID], random: inout SeededRandom) {
        name = "user\(index + 1)"
        utcOffset = TraceGenerator.timeZones[index % TraceGenerator.timeZones.count]
        var shuffled = apps
        for i in stride(from: shuffled.count - 1, to: 0, by: -1) {
            shuffled.swapAt(i, Int(random.next() % UInt64(i + 1)))
        }
        ranking = shuffled
        wake = 6.5 * 3600 + random.uniform() * 5400
        bed = 22.5 * 3600 + random.uniform() * 5400
        activity = 0.6 + random.uniform() * 0.8
        var habits: [(BundleID, Double, Bool)] = []
        for app in shuffled.prefix(max(1, (apps.count + 2) / 3)) {
            for _ in 0..<(1 + Int(random.next() % 2)) {
                let time = wake + 1800 + random.uniform() * (bed - wake - 3600)
                habits.append((app, (time / 60).rounded() * 60, random.uniform() < 0.3))
            }
        }
        self.habits = habits
    }

    /// The day's sessions (starts in seconds after the first day's local midnight): wake-up, habits,
    /// random ones, bedtime.
    func sessions(on day: Int, firstDay: Double, random: inout SeededRandom) -> [Session] {
        let weekday = WallClock(epochAtZero: firstDay + Double(day) * 86_400).localWeekday(at: .zero)
        let weekend = weekday == 0 || weekday == 6
        let wakeToday = wake + (weekend ? 5400 : 0) + random.between(-1200, 1200)
        let bedToday = bed + (weekend ? 1800 : 0) + random.between(-1200, 1200)
        var sessions = [Session(start: wakeToday, uses: [use(ranking[0], &random)], unplugs: true)]
        for habit in habits where !(weekend && habit.weekdaysOnly) && random.uniform() < 0.85 {
            let time =
                habit.time + (weekend ? 3600 : 0)
                + random.between(-TraceGenerator.habitJitter, TraceGenerator.habitJitter)
            guard time > wakeToday, time < bedToday else { continue }
            sessions.append(Session(start: time, uses: [use(habit.app, &random)]))
        }
        let mean = activity * (weekend ? TraceGenerator.sessionsPerWeekendDay : TraceGenerator.sessionsPerWeekday)
        for _ in 0..<random.poisson(mean) {
            let hour = random.pick(weights: TraceGenerator.hourlyRate)
            let time = Double(hour) * 3600 + random.uniform() * 3600
            // Awake hours only, but for the odd look at the phone in the night (one in ten drawn there).
            guard (time > wakeToday && time < bedToday) || random.uniform() < 0.1 else { continue }
            var uses = [use(popular(&random), &random)]
            while uses.count < 4, random.uniform() < 0.35 { uses.append(use(popular(&random), &random)) }
            sessions.append(Session(start: time, uses: uses))
        }
        sessions.append(Session(start: bedToday, uses: [use(popular(&random), &random)], plugsIn: true))
        return sessions.map { session in
            var session = session
            session.start += Double(day) * 86_400
            return session
        }
    }

    /// An app by popularity: Zipf-like, weight 1/rank over the user's own ranking.
    func popular(_ random: inout SeededRandom) -> BundleID {
        ranking[random.pick(weights: ranking.indices.map { 1 / Double($0 + 1) })]
    }

    /// A use of `app` for a log-normal time: median 90 s, between 10 s and 20 min.
    func use(_ app: BundleID, _ random: inout SeededRandom) -> Use {
        Use(app: app, seconds: min(1200, max(10, (90 * exp(0.9 * random.normal())).rounded())))
    }

    /// The rows of the sessions: opened and closed for each use, the screen off after the last,
    /// the charger and the network as the day goes.
    func rows(_ sessions: [Session], firstDay: Double) -> [TraceEvent] {
        let midnight = firstDay - utcOffset
        var rows: [TraceEvent] = []
        for session in sessions {
            var time = session.start
            for (index, use) in session.uses.enumerated() {
                let last = index == session.uses.count - 1
                func row(_ kind: TraceEvent.Kind, _ at: Double) -> TraceEvent {
                    let weekday = WallClock(epochAtZero: firstDay + at).localWeekday(at: .zero)
                    let hour = at.truncatingRemainder(dividingBy: 86_400)
                    let away = weekday != 0 && weekday != 6 && hour >= 8.5 * 3600 && hour < 18 * 3600
                    var event = TraceEvent(
                        user: name, epoch: (midnight + at).rounded(), utcOffset: utcOffset, app: use.app, kind: kind,
                        screen: kind == .opened || !last, network: away ? .cellular : .wifi)
                    if kind == .opened, index == 0, session.unplugs { event.charging = false }
                    if kind == .closed, last, session.plugsIn { event.charging = true }
                    return event
                }
                rows.append(row(.opened, time))
                time += use.seconds
                rows.append(row(.closed, time))
                time += 5
            }
        }
        return rows
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
