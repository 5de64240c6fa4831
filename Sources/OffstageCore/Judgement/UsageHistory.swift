/// How the user has used one app: when they opened it, for how long, and when they last used it.
/// The launch predictor and the usage tier read it; it outlives the app's processes.
public struct UsageHistory: Hashable, Sendable, Codable {
    /// The instants the user opened the app, oldest first, within the policy's history window.
    public private(set) var launches: [Instant] = []
    /// Seconds the app has been on screen in all.
    public private(set) var foregroundSeconds: Double = 0
    /// When the app last came on screen or left it; nil if the user never opened it.
    public private(set) var lastUsed: Instant?
    /// When the app came on screen, while it is there.
    public private(set) var foregroundSince: Instant?

    public init() {}

    /// A history put back from a snapshot: these launches and time on screen, not on screen now.
    init(launches: [Instant], foregroundSeconds: Double, lastUsed: Instant?) {
        self.launches = launches
        self.foregroundSeconds = foregroundSeconds
        self.lastUsed = lastUsed
    }

    /// The user opened the app at `time`; launches older than `window` seconds are forgotten.
    mutating func opened(at time: Instant, keeping window: Double) {
        launches.append(time)
        if let first = launches.first, time - first > window {
            launches.removeAll { time - $0 > window }
        }
        lastUsed = time
        if foregroundSince == nil { foregroundSince = time }
    }

    /// The app is on screen again from `time` without being opened anew (a restarted host adopting the
    /// app on screen): its time on screen counts again, no launch is added.
    mutating func cameBack(at time: Instant) {
        lastUsed = time
        if foregroundSince == nil { foregroundSince = time }
    }

    /// The app left the screen at `time` (nothing happens if it was not there).
    mutating func left(at time: Instant) {
        guard let since = foregroundSince else { return }
        foregroundSeconds += time - since
        foregroundSince = nil
        lastUsed = time
    }

    /// The number of distinct local days, among the last `days` before `now`, on which the app was opened.
    func daysUsed(inLast days: Int, before now: Instant, clock: WallClock) -> Int {
        let today = clock.localDay(at: now)
        var count = 0
        var previous: Int?
        for launch in launches.reversed() {  // newest first: launches are kept in time order
            let day = clock.localDay(at: launch)
            if day <= today - days { break }
            if day != previous { count += 1 }
            previous = day
        }
        return count
    }
}

extension WallClock {
    /// Local seconds since 1970 (the wall clock plus the UTC offset) at `instant`.
    func localEpoch(at instant: Instant) -> Double { epoch(at: instant) + utcOffset }

    /// The local day number (days since 1970-01-01, local time) of `instant`.
    func localDay(at instant: Instant) -> Int { Int((localEpoch(at: instant) / 86_400).rounded(.down)) }

    /// Seconds since local midnight, 0 ..< 86 400, at `instant`.
    func secondOfDay(at instant: Instant) -> Double { localEpoch(at: instant) - Double(localDay(at: instant)) * 86_400 }

    /// The local hour of the day, 0–23, of `instant`.
    func localHour(at instant: Instant) -> Int {
        let seconds = localEpoch(at: instant) - Double(localDay(at: instant)) * 86_400
        return min(23, Int(seconds / 3600))
    }

    /// The local weekday of `instant`, 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
    public func localWeekday(at instant: Instant) -> Int { ((localDay(at: instant) + 4) % 7 + 7) % 7 }
}
