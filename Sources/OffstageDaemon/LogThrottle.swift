import OffstageCore

/// Lets one kind of log line through at most once per `interval` and counts the ones held back, so that a
/// client repeating what makes the daemon log (a flood of connections) cannot flood the log with it.
struct LogThrottle {
    let interval: Double
    private var lastLogged: Instant?
    private var held = 0

    init(interval: Double) { self.interval = interval }

    /// Whether to log now; if so, how many lines were held back since the last one (said with it), else nil
    /// (and this one is counted).
    mutating func admit(at now: Instant) -> Int? {
        if let lastLogged, now < lastLogged + interval {
            held += 1
            return nil
        }
        lastLogged = now
        defer { held = 0 }
        return held
    }
}
