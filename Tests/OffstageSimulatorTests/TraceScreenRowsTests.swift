import Foundation
import OffstageCore
import Testing

@testable import OffstageSimulator

/// The trace rows about the screen and notifications (issue 15, item 5): screen-on, unlock, screen-off and
/// notification rows load, replay as the core's events, count in the statistics, and bad ones are errors
/// naming the file, line and field; LSApp's sessions; the generator's structure.
@Suite struct TraceScreenRowsTests {
    let header = "user,timestamp,app,event,screen\n"

    /// The error text the loader gives for these rows under `header` (the file named trace.csv), or nil.
    func errorText(_ rows: [String]) -> String? {
        do {
            _ = try TraceLoader.parse(csv: header + rows.joined(separator: "\n"), source: "trace.csv")
            return nil
        } catch {
            return error.description
        }
    }

    /// A day of ann's: a glance lit by a notification, an unlock to the home screen and an app opened from
    /// it, a notification while the app is on screen.
    let day = """
        user,timestamp,app,event,screen
        ann,2026-11-23T08:00:00Z,com.example.chat,notification,
        ann,2026-11-23T08:00:01Z,,screen-on,on
        ann,2026-11-23T08:00:09Z,,screen-off,off
        ann,2026-11-23T09:00:00Z,,unlock,
        ann,2026-11-23T09:00:20Z,,screen-off,
        ann,2026-11-23T10:00:00Z,,screen-on,
        ann,2026-11-23T10:00:02Z,,unlock,on
        ann,2026-11-23T10:00:05Z,com.example.chat,opened,on
        ann,2026-11-23T10:01:00Z,com.example.news,notification,
        ann,2026-11-23T10:02:00Z,com.example.chat,closed,on
        ann,2026-11-23T10:02:30Z,,screen-off,off
        ann,2026-11-23T10:05:00Z,com.example.news,opened,on
        ann,2026-11-23T10:06:00Z,com.example.news,closed,off
        """

    @Test func screenAndNotificationRowsLoadWithoutAnApp() throws {
        let trace = try TraceLoader.parse(csv: day, source: "day.csv")
        #expect(
            trace.events.map(\.kind) == [
                .notification, .screenOn, .screenOff, .unlock, .screenOff, .screenOn, .unlock, .opened,
                .notification, .closed, .screenOff, .opened, .closed,
            ])
        #expect(trace.events.filter { !$0.kind.namesApp }.allSatisfy { $0.app == nil })
        #expect(trace.events[0].app == "com.example.chat")
        // Written back, the rows read the same.
        let again = try TraceLoader.parse(csv: trace.csv(), source: "x")
        #expect(again.events.map(\.kind) == trace.events.map(\.kind))
        #expect(again.events.map(\.app) == trace.events.map(\.app))
        #expect(again.events.map(\.screen) == trace.events.map(\.screen))
    }

    @Test func replayMapsTheRowsToTheCoresEvents() throws {
        let trace = try TraceLoader.parse(csv: day, source: "day.csv")
        let scenario = TraceReplay.scenario(for: "ann", in: trace)
        let events = scenario.timeline.compactMap { entry -> SystemEvent? in
            if case .system(let event) = entry.action { event } else { nil }
        }
        #expect(
            events == [
                .notificationShown("com.example.chat"), .screenOn, .lock, .unlock, .lock, .screenOn, .unlock,
                .open("com.example.chat"), .notificationShown("com.example.news"), .home, .lock,
                .open("com.example.news"), .home, .lock,
            ])
        // The core plays them: a notification is recorded for its app, and the glance and the unlock end
        // idleness (the device is not idle between 08:00:01 and 08:00:09).
        let records = try Simulation(scenario: scenario).run()
        #expect(
            records.filter {
                $0.detail
                    == .notification(
                        .delivered(identifier: BackgroundSystem.scenarioNotificationIdentifier, inForeground: false))
            }.map(\.app) == [
                "com.example.chat", "com.example.news",
            ])
        #expect(records.filter { $0.kind == .user && $0.reason == "screen on" }.count == 2)
        #expect(records.allSatisfy { $0.kind != .crashed })
    }

    @Test func badScreenAndNotificationRowsNameTheLineAndTheField() {
        let at = "ann,2026-11-23T08:00:0"
        #expect(
            errorText(["\(at)0Z,com.x,screen-on,"])
                == "trace.csv:2: field 'app (column 3)': a screen-on row names no app: leave the cell empty, "
                + "got \"com.x\"")
        #expect(
            errorText(["\(at)0Z,,notification,"])
                == "trace.csv:2: field 'app (column 3)': is empty; an opened, closed or notification row names its app")
        #expect(
            errorText(["\(at)0Z,com.x,notification,on"])
                == "trace.csv:2: field 'screen (column 5)': a notification leaves the screen as it is: "
                + "leave the cell empty")
        #expect(
            errorText(["\(at)0Z,,screen-on,off"])
                == "trace.csv:2: field 'screen (column 5)': screen-on leaves the screen on, got \"off\"")
        #expect(
            errorText(["\(at)0Z,,screen-on,", "\(at)1Z,,screen-on,"])
                == "trace.csv:3: field 'event (column 4)': screen-on, but the screen is already on for user ann")
        #expect(
            errorText(["\(at)0Z,,unlock,", "\(at)1Z,,unlock,"])
                == "trace.csv:3: field 'event (column 4)': unlock, but user ann's device is already unlocked")
        #expect(
            errorText(["\(at)0Z,,unlock,off"])
                == "trace.csv:2: field 'screen (column 5)': unlock leaves the screen on, got \"off\"")
        #expect(
            errorText(["\(at)0Z,,screen-off,"])
                == "trace.csv:2: field 'event (column 4)': screen-off, but the screen is already off for user ann")
        #expect(
            errorText(["\(at)0Z,com.x,opened,on", "\(at)1Z,,screen-off,"])
                == "trace.csv:3: field 'event (column 4)': screen-off while com.x is on screen: close it with a "
                + "closed row whose screen is off")
        #expect(
            errorText(["\(at)0Z,,unlock,", "\(at)1Z,,screen-off,on"])
                == "trace.csv:3: field 'screen (column 5)': screen-off turns the screen off, got \"on\"")
        // A row made in code without its app is refused the same way, not a crash.
        let appless = TraceEvent(user: "ann", epoch: 0, utcOffset: 0, app: nil, kind: .opened)
        #expect(throws: TraceScreenError("app", "is empty; an opened, closed or notification row names its app")) {
            try TraceScreen.dark.after(appless, screenColumn: true)
        }
        #expect(appless.userEvents(screenColumn: true).isEmpty)
        // A close that keeps the screen on leaves the home screen lit: screen-off then locks.
        #expect(errorText(["\(at)0Z,com.x,opened,on", "\(at)1Z,com.x,closed,on", "\(at)2Z,,screen-off,"]) == nil)
    }

    @Test func statsCountScreenSessionsWithAndWithoutAnAppAndNotificationsOpened() throws {
        let stats = TraceStatistics(try TraceLoader.parse(csv: day, source: "day.csv"))
        // Sessions: the glance at 08:00, the unlock at 09:00 (no app), 10:00 (chat), 10:05 (news).
        #expect(stats.glances == 2)
        #expect(stats.sessions == 2)
        #expect(stats.appsInSessions == 2)
        #expect(stats.glanceShare == 0.5)
        // chat's notification at 08:00 is not followed by chat within 15 min (10:00 is two hours on);
        // news's at 10:01 is, at 10:05.
        #expect(stats.notifications == 2)
        #expect(stats.notificationsOpened == 1)
        let text = stats.text(source: "day.csv")
        #expect(
            text.contains(
                "sessions a day:      2.0 with an app, 2.0 without (50.0 % of screen sessions)  (real usage: 38.0 %)"))
        #expect(
            text.contains(
                "notifications a day: 2.0  (real usage: 160), 50.0 % followed by a launch of their app within 15 min"))
    }

    @Test func lsappSessionsTurnTheScreenOffOnlyAtTheirEnd() throws {
        let header = "user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n"
        let rows = [
            "1\t7\t2018-01-16 06:00:00\tGmail\tOpened",
            "1\t7\t2018-01-16 06:00:30\tGmail\tUser Interaction",
            "1\t7\t2018-01-16 06:01:00\tGmail\tClosed",
            "1\t7\t2018-01-16 06:01:10\tMaps\tOpened",
            "1\t7\t2018-01-16 06:02:00\tMaps\tBroken",
            "1\t8\t2018-01-16 09:00:00\tGmail\tOpened",  // Maps was left open when session 7 ended
            "1\t8\t2018-01-16 09:01:00\tGmail\tClosed",
        ]
        let trace = try TraceImporter.parse(header + rows.joined(separator: "\n"), layout: .lsapp, source: "d.tsv")
        #expect(trace.hasScreenColumn)
        #expect(trace.events.map(\.kind) == [.opened, .closed, .opened, .closed, .opened, .closed])
        // Gmail's close within session 7 keeps the screen on; Maps ends with session 7's last row, screen off.
        #expect(trace.events.filter { $0.kind == .closed }.map(\.screen) == [true, false, false])
        #expect(trace.events[3].epoch == 1_516_082_520)
        let stats = TraceStatistics(try TraceLoader.parse(csv: trace.csv(), source: "x"))
        #expect(stats.sessions == 2 && stats.appsInSessions == 3)
    }

    /// The share of a trace's in-session app changes that go to one of the first app's two most frequent
    /// next apps (per user).
    func usualSuccessorShare(_ trace: UsageTrace) -> Double {
        var pairs: [String: [BundleID: [BundleID: Int]]] = [:]
        for user in trace.users {
            let rows = trace.events(of: user)
            for (row, next) in zip(rows, rows.dropFirst())
            where row.kind == .closed && row.screen == true && next.kind == .opened {
                pairs[user, default: [:]][row.app!, default: [:]][next.app!, default: 0] += 1
            }
        }
        let counts = pairs.values.flatMap(\.values)
        let usual = counts.reduce(0) { $0 + $1.values.sorted(by: >).prefix(2).reduce(0, +) }
        let all = counts.reduce(0) { $0 + $1.values.reduce(0, +) }
        return Double(usual) / Double(max(1, all))
    }

    @Test func generatorHasRealUsagesStructure() {
        let model = TraceModel(users: 6, days: 14, apps: 10, seed: 11)
        let stats = TraceStatistics(TraceGenerator.generate(model))
        // Quick re-opens (real usage: 45 % of launches within 15 min of the app's last use).
        #expect((0.38...0.52).contains(stats.reopenShare))
        // Screen sessions without an app (a real trace: 38 %).
        #expect((0.28...0.45).contains(stats.glanceShare))
        // About a quarter of an app's notifications are followed by an open of it within 15 min.
        #expect((0.18...0.35).contains(stats.notificationOpenShare))
        #expect(stats.notificationsPerDay > 15)
        // Charging on some nights, topping up in the evening on the others (real usage: 4.9 hours a day).
        #expect((3.5...6.5).contains((stats.chargingHours ?? 0) / stats.userDays))
        // Each parameter drives its structure: without re-opens, glances or notifications opened they fall.
        var plain = model
        plain.reopenChance = 0
        plain.glancesPerDay = 0
        plain.notificationOpenChance = 0
        plain.notificationGlanceChance = 0
        let plainStats = TraceStatistics(TraceGenerator.generate(plain))
        #expect(plainStats.reopenShare < stats.reopenShare - 0.15)
        // What glances are left are the charger's: plugging in and out at work and for evening top-ups.
        #expect(plainStats.glanceShare < 0.1)
        #expect(plainStats.notificationOpenShare < stats.notificationOpenShare - 0.1)
    }

    @Test func generatorAppToAppTransitionsFollowEachAppsUsualSuccessors() {
        let model = TraceModel(users: 6, days: 14, apps: 10, seed: 11)
        var byPopularity = model
        byPopularity.transitionShare = 0
        let usual = usualSuccessorShare(TraceGenerator.generate(model))
        let random = usualSuccessorShare(TraceGenerator.generate(byPopularity))
        #expect(usual > random + 0.1)
    }
}
