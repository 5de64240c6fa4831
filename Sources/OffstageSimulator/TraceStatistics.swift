import OffstageCore

/// What a usage trace holds, in the figures real usage is compared by (`offstage trace stats`): launches a
/// day, the share of re-opens, screen sessions with and without an app, notifications and the share opened,
/// the apps' popularity, launches on a low battery and hours on the charger.
public struct TraceStatistics: Hashable, Sendable {
    /// Real usage's figures, printed beside a trace's: two people's phones over five weeks (2 users × 38 days,
    /// 11 800 launches), the population the generator's defaults are drawn to match.
    public enum RealUsage {
        public static let launchesPerDay = 155.0
        public static let reopenShare = 0.46
        public static let glanceShare = 0.38
        public static let sessionsWithThreeAppsShare = 0.23
        public static let topTenShare = 0.77
        public static let medianAppLaunchesPerDay = 0.31
        public static let lowBatteryLaunchShare = 0.17
        public static let notificationsPerDay = 160.0
        public static let notificationOpenShare = 0.25
        public static let chargingHoursPerDay = 4.9
        public static let screenToAppGap = 1.6
    }

    public var users: Int
    /// Days covered, summed over users (each from the local midnight before their first row to the one
    /// after their last, as the replay runs).
    public var userDays: Double
    public var launches: Int
    /// Launches within `Evaluation.freshWithin` (15 min) of the app leaving the screen.
    public var reopens: Int
    /// Screen sessions with an app: from the screen lighting (an unlock, a glance or an open) to it going dark
    /// (a `screen-off` row, or a close with the screen off — with no `screen` column, every close).
    public var sessions: Int
    /// Distinct apps summed over sessions with an app, and the sessions with three apps or more.
    public var appsInSessions: Int
    public var sessionsWithThreeApps = 0
    /// Launches made below 20 % of the battery off the charger (only where the trace has a battery column).
    public var lowBatteryLaunches = 0
    /// Every (user, app) pair's launches a day, most launched first within each user; and the share of each
    /// user's launches that went to their ten most launched apps, summed over users in `topTenLaunches`.
    public var appLaunchesPerDay: [Double] = []
    public var topTenLaunches = 0
    /// Screen sessions without an app: the screen lit (a glance, or an unlock to the home screen) and went
    /// dark again with no app opened.
    public var glances: Int
    /// Notifications shown, and those followed by a launch of their app within 15 min.
    public var notifications: Int
    public var notificationsOpened: Int
    /// Hours on the charger, summed over users; nil when no row says whether the device charges.
    public var chargingHours: Double?
    /// Seconds from the screen lighting to the session's first app, for every session with an app (0 when the
    /// app's row lights the screen itself).
    public var screenToAppGaps: [Double] = []

    /// The median of `screenToAppGaps` (real usage: 1.6 s); nil without a session with an app.
    public var medianScreenToApp: Double? {
        guard !screenToAppGaps.isEmpty else { return nil }
        let sorted = screenToAppGaps.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    public var launchesPerDay: Double { userDays > 0 ? Double(launches) / userDays : 0 }
    public var reopenShare: Double { launches > 0 ? Double(reopens) / Double(launches) : 0 }
    public var sessionsPerDay: Double { userDays > 0 ? Double(sessions) / userDays : 0 }
    public var glancesPerDay: Double { userDays > 0 ? Double(glances) / userDays : 0 }
    /// The share of screen sessions with no app.
    public var glanceShare: Double { sessions + glances > 0 ? Double(glances) / Double(sessions + glances) : 0 }
    public var appsPerSession: Double { sessions > 0 ? Double(appsInSessions) / Double(sessions) : 0 }
    public var notificationsPerDay: Double { userDays > 0 ? Double(notifications) / userDays : 0 }
    /// The share of notifications followed by a launch of their app within 15 min.
    public var notificationOpenShare: Double {
        notifications > 0 ? Double(notificationsOpened) / Double(notifications) : 0
    }
    public var sessionsWithThreeAppsShare: Double {
        sessions > 0 ? Double(sessionsWithThreeApps) / Double(sessions) : 0
    }
    public var lowBatteryLaunchShare: Double { launches > 0 ? Double(lowBatteryLaunches) / Double(launches) : 0 }
    public var topTenShare: Double { launches > 0 ? Double(topTenLaunches) / Double(launches) : 0 }
    /// The median over every (user, app) pair of the app's launches a day; nil without a launch.
    public var medianAppLaunchesPerDay: Double? {
        guard !appLaunchesPerDay.isEmpty else { return nil }
        let sorted = appLaunchesPerDay.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Counts the figures of every user of `trace`.
    public init(_ trace: UsageTrace) {
        users = trace.users.count
        (userDays, launches, reopens, sessions, appsInSessions) = (0, 0, 0, 0, 0)
        (glances, notifications, notificationsOpened) = (0, 0, 0)
        let knowsCharging = trace.events.contains { $0.charging != nil }
        chargingHours = knowsCharging ? 0 : nil
        for user in trace.users {
            let rows = trace.events(of: user)
            let scenario = TraceReplay.scenario(for: user, in: trace)
            userDays += (scenario.duration ?? 0) / 86_400
            let userLaunches = TraceLaunch.launches(in: rows)
            launches += userLaunches.count
            let perApp = Dictionary(grouping: userLaunches, by: \.app).mapValues(\.count).values.sorted(by: >)
            let days = max((scenario.duration ?? 0) / 86_400, 1)
            appLaunchesPerDay += perApp.map { Double($0) / days }
            topTenLaunches += perApp.prefix(10).reduce(0, +)
            lowBatteryLaunches += Self.lowBatteryLaunches(rows)
            reopens += userLaunches.filter { $0.sinceLastUse.map { $0 <= Evaluation.freshWithin } ?? false }.count
            count(sessionsIn: rows, screenColumn: trace.hasScreenColumn)
            count(notificationsIn: rows, launches: userLaunches)
            if knowsCharging {
                chargingHours! +=
                    Self.chargingSeconds(rows, until: scenario.startEpoch + (scenario.duration ?? 0)) / 3600
            }
        }
    }

    /// Adds one user's screen sessions, with the apps in each, and those without an app.
    private mutating func count(sessionsIn rows: [TraceEvent], screenColumn: Bool) {
        var screen = TraceScreen.dark
        var apps: Set<BundleID> = []
        var litAt = 0.0
        func end() {
            if apps.isEmpty { glances += 1 } else { sessions += 1 }
            if apps.count >= 3 { sessionsWithThreeApps += 1 }
            appsInSessions += apps.count
            apps = []
        }
        for row in rows {
            let after = (try? screen.after(row, screenColumn: screenColumn)) ?? screen
            if screen == .dark, after != .dark { litAt = row.epoch }
            if case .app(let app) = after {
                if apps.isEmpty { screenToAppGaps.append(row.epoch - litAt) }
                apps.insert(app)
            }
            if screen != .dark, after == .dark { end() }
            screen = after
        }
        if screen != .dark { end() }
    }

    /// Adds one user's notifications, and those followed by a launch of their app within 15 min.
    private mutating func count(notificationsIn rows: [TraceEvent], launches: [TraceLaunch]) {
        let launchTimes = Dictionary(grouping: launches, by: \.app).mapValues { $0.map(\.epoch) }
        for row in rows where row.kind == .notification {
            guard let app = row.app else { continue }
            notifications += 1
            let opened = launchTimes[app]?.contains { $0 >= row.epoch && $0 <= row.epoch + Evaluation.freshWithin }
            if opened == true { notificationsOpened += 1 }
        }
    }

    /// One user's launches made below 20 % of the battery off the charger, as the rows' cells say.
    private static func lowBatteryLaunches(_ rows: [TraceEvent]) -> Int {
        var (level, charging, onScreen, count) = (1.0, false, nil as BundleID?, 0)
        for row in rows {
            level = row.battery ?? level
            charging = row.charging ?? charging
            guard let app = row.app else { continue }
            if row.kind == .opened, onScreen != app, level < 0.2, !charging { count += 1 }
            if row.kind == .opened { onScreen = app }
            if row.kind == .closed { onScreen = nil }
        }
        return count
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

    /// The figures as `offstage trace stats` prints them, each with real usage's beside it.
    public func text(source: String) -> String {
        let days = Evaluation.fixed(userDays, 0)
        let percent = { (value: Double) in Evaluation.percent(value, digits: 1) }
        let real = { (value: String) in "  (real usage: \(value))" }
        return [
            "Trace \(source): \(RunReport.count(users, "user", "users")), \(days) user-day\(days == "1" ? "" : "s"), "
                + RunReport.count(launches, "launch", "launches"),
            "launches a day:      \(Evaluation.fixed(launchesPerDay, 1))" + real("\(Int(RealUsage.launchesPerDay))"),
            "re-opens:            \(percent(reopenShare)) of launches (within 15 min of the app's last use)"
                + real(percent(RealUsage.reopenShare)),
            "sessions a day:      \(Evaluation.fixed(sessionsPerDay, 1)) with an app, "
                + "\(Evaluation.fixed(glancesPerDay, 1)) without (\(percent(glanceShare)) of screen sessions)"
                + real(percent(RealUsage.glanceShare)),
            "apps per session:    \(Evaluation.fixed(appsPerSession, 2)), \(percent(sessionsWithThreeAppsShare)) of "
                + "sessions with three or more" + real(percent(RealUsage.sessionsWithThreeAppsShare)),
            "app popularity:      top 10 apps \(percent(topTenShare)) of launches"
                + real(percent(RealUsage.topTenShare))
                + "; median app "
                + (medianAppLaunchesPerDay.map { Evaluation.fixed($0, 2) } ?? "—") + " launches a day"
                + real(Evaluation.fixed(RealUsage.medianAppLaunchesPerDay, 2)),
            "screen-on to app:    "
                + (medianScreenToApp.map { "median \(Evaluation.fixed($0, 1)) s" } ?? "—")
                + real("\(RealUsage.screenToAppGap) s"),
            "notifications a day: \(Evaluation.fixed(notificationsPerDay, 1))"
                + real("\(Int(RealUsage.notificationsPerDay))") + ", "
                + "\(percent(notificationOpenShare)) followed by a launch of their app within 15 min"
                + real(percent(RealUsage.notificationOpenShare)),
            "low battery:         \(percent(lowBatteryLaunchShare)) of launches below 20 % off the charger"
                + real(percent(RealUsage.lowBatteryLaunchShare)),
            "charging hours/day:  "
                + (chargingHours.map { Evaluation.fixed(userDays > 0 ? $0 / userDays : 0, 1) }
                    ?? "— (no charging column)") + real("\(RealUsage.chargingHoursPerDay)"),
        ].joined(separator: "\n")
    }
}
