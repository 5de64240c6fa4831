import OffstageCore

/// What a usage trace holds, in the figures real usage is compared by (`offstage trace stats`): launches a
/// day, the share of re-opens, screen sessions and the apps in each, and hours on the charger.
public struct TraceStatistics: Hashable, Sendable {
    public var users: Int
    /// Days covered, summed over users (each from the local midnight before their first row to the one
    /// after their last, as the replay runs).
    public var userDays: Double
    public var launches: Int
    /// Launches within `Evaluation.freshWithin` (15 min) of the app leaving the screen.
    public var reopens: Int
    /// Screen sessions: from a launch with no app on screen to the close that locks the device (with no
    /// `screen` column, every close).
    public var sessions: Int
    /// Distinct apps summed over sessions.
    public var appsInSessions: Int
    /// Hours on the charger, summed over users; nil when no row says whether the device charges.
    public var chargingHours: Double?

    public var launchesPerDay: Double { userDays > 0 ? Double(launches) / userDays : 0 }
    public var reopenShare: Double { launches > 0 ? Double(reopens) / Double(launches) : 0 }
    public var sessionsPerDay: Double { userDays > 0 ? Double(sessions) / userDays : 0 }
    public var appsPerSession: Double { sessions > 0 ? Double(appsInSessions) / Double(sessions) : 0 }

    /// Counts the figures of every user of `trace`.
    public init(_ trace: UsageTrace) {
        users = trace.users.count
        (userDays, launches, reopens, sessions, appsInSessions) = (0, 0, 0, 0, 0)
        let knowsCharging = trace.events.contains { $0.charging != nil }
        chargingHours = knowsCharging ? 0 : nil
        for user in trace.users {
            let rows = trace.events(of: user)
            let scenario = TraceReplay.scenario(for: user, in: trace)
            userDays += (scenario.duration ?? 0) / 86_400
            let userLaunches = TraceLaunch.launches(in: rows)
            launches += userLaunches.count
            reopens += userLaunches.filter { $0.sinceLastUse.map { $0 <= Evaluation.freshWithin } ?? false }.count
            count(sessionsIn: rows, screenColumn: trace.hasScreenColumn)
            if knowsCharging {
                chargingHours! +=
                    Self.chargingSeconds(rows, until: scenario.startEpoch + (scenario.duration ?? 0)) / 3600
            }
        }
    }

    /// Adds one user's screen sessions and the apps in each.
    private mutating func count(sessionsIn rows: [TraceEvent], screenColumn: Bool) {
        var apps: Set<String>?
        for row in rows {
            switch row.kind {
            case .opened:
                apps = (apps ?? []).union([row.app.rawValue])
            case .closed where row.screen == false || !screenColumn:
                if let session = apps {
                    sessions += 1
                    appsInSessions += session.count
                }
                apps = nil
            case .closed:
                break
            }
        }
        if let session = apps {
            sessions += 1
            appsInSessions += session.count
        }
    }

    /// Seconds one user's device was on the charger, as the rows say (an empty cell changes nothing), until `end`.
    private static func chargingSeconds(_ rows: [TraceEvent], until end: Double) -> Double {
        var total = 0.0
        var since: Double?
        for row in rows {
            guard let charging = row.charging else { continue }
            if charging, since == nil { since = row.epoch }
            if !charging, let start = since {
                total += row.epoch - start
                since = nil
            }
        }
        return total + (since.map { end - $0 } ?? 0)
    }

    /// The figures as `offstage trace stats` prints them.
    public func text(source: String) -> String {
        let days = Evaluation.fixed(userDays, 0)
        return [
            "Trace \(source): \(RunReport.count(users, "user", "users")), \(days) user-day\(days == "1" ? "" : "s"), "
                + RunReport.count(launches, "launch", "launches"),
            "launches a day:      \(Evaluation.fixed(launchesPerDay, 1))",
            "re-opens:            \(Evaluation.percent(reopenShare, digits: 1)) of launches (within 15 min of the app's last use)",
            "sessions a day:      \(Evaluation.fixed(sessionsPerDay, 1))",
            "apps per session:    \(Evaluation.fixed(appsPerSession, 2))",
            "charging hours/day:  "
                + (chargingHours.map { Evaluation.fixed(userDays > 0 ? $0 / userDays : 0, 1) }
                    ?? "— (no charging column)"),
        ].joined(separator: "\n")
    }
}
