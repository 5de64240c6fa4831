import Foundation
import OffstageCore
import Testing

@testable import OffstageSimulator

/// Usage traces (SPEC §10, §12): the CSV format and its errors, replay as the user, the generator's model.
@Suite struct TraceTests {
    let header = "user,timestamp,app,event,screen,battery,charging,network\n"

    /// The error text the loader gives for this CSV (named trace.csv), or nil if it loads.
    func errorText(_ csv: String) -> String? {
        do {
            _ = try TraceLoader.parse(csv: csv, source: "trace.csv")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func loaderErrorsNameTheLineAndTheColumn() {
        #expect(
            errorText(header + "u1,2026-11-23T07:30:00+01:00,com.x,opened,on,,,\nu1,yesterday,com.x,closed,off,,,\n")
                == "trace.csv:3: field 'timestamp (column 2)': expected an ISO 8601 time with its zone, "
                + "like 2026-11-23T07:30:00+01:00")
        #expect(
            errorText(header + "u1,2026-11-23T07:30:00,com.x,opened,on,,,\n")
                == "trace.csv:2: field 'timestamp (column 2)': the time needs its zone's offset, like +01:00 or Z")
        #expect(
            errorText(header + "u1,2026-11-23T07:30:00Z,com.x,launched,on,,,\n")
                == "trace.csv:2: field 'event (column 4)': expected opened or closed or notification or screen-on or unlock "
                + "or screen-off, got \"launched\"")
        #expect(
            errorText(header + "u1,2026-11-23T07:30:00Z,com.x,opened,on,120,,\n")
                == "trace.csv:2: field 'battery (column 6)': expected a level from 0 to 100, got \"120\"")
        #expect(
            errorText(header + "u1,2026-11-23T07:30:00Z,com.x,opened,on,,maybe,\n")
                == "trace.csv:2: field 'charging (column 7)': expected true or false, got \"maybe\"")
        #expect(
            errorText(header + "u1,2026-11-23T07:30:00Z,com.x,opened\n")
                == "trace.csv:2: 4 cells, but the header has 8 columns (user,timestamp,app,event,screen,battery,charging,network)"
        )
        #expect(
            errorText("user,timestamp,app,event,mood\n")
                == "trace.csv:1: field 'column 5': unknown column 'mood'; expected user, timestamp, app, event, "
                + "screen, battery, charging, network")
        #expect(
            errorText("user,timestamp,app\n")
                == "trace.csv:1: the header lacks column 'event' (it needs user, timestamp, app, event)")
        #expect(errorText("") == "trace.csv:1: the trace is empty: it needs a header row")
    }

    @Test func loaderChecksEachUsersOrderOfEvents() {
        #expect(
            errorText(header + "u1,2026-11-23T07:30:00Z,com.x,closed,off,,,\n")
                == "trace.csv:2: field 'event (column 4)': closes com.x, but no app is on screen for user u1")
        #expect(
            errorText(
                header + "u1,2026-11-23T07:30:00Z,com.x,opened,on,,,\nu1,2026-11-23T07:29:00Z,com.x,closed,off,,,\n")
                == "trace.csv:3: field 'timestamp (column 2)': goes back in time: user u1's rows must be in time order")
        // Users interleave freely; a missing file is an error, not a crash.
        #expect(
            errorText(
                header + "u1,2026-11-23T07:30:00Z,com.x,opened,on,,,\nu2,2026-11-23T06:00:00Z,com.x,opened,on,,,\n")
                == nil)
        #expect(throws: ScenarioError(source: "/nonexistent.csv", message: "no such file")) {
            try TraceLoader.load(contentsOf: "/nonexistent.csv")
        }
    }

    @Test func replayProducesTheTracesLaunches() throws {
        let trace = try TraceLoader.parse(
            csv: """
                user,timestamp,app,event,charging
                ann,2026-11-23T07:30:00+01:00,com.example.news,opened,false
                ann,2026-11-23T07:35:00+01:00,com.example.news,closed,
                ann,2026-11-23T12:10:00+01:00,com.example.mail,opened,
                ann,2026-11-23T12:11:00+01:00,com.example.news,opened,
                ann,2026-11-23T12:20:00+01:00,com.example.news,closed,true
                """, source: "trace.csv")
        let scenario = TraceReplay.scenario(for: "ann", in: trace)
        #expect(scenario.utcOffset == 3600)
        #expect(scenario.duration == 86_400)
        let records = try Simulation(scenario: scenario).run()
        let opens = records.filter { $0.kind == .user && $0.reason == "open" }
        // The run starts at the user's local midnight: local 07:30 is 7.5 h in.
        let expected: [Double] = [27_000, 43_800, 43_860]
        #expect(opens.map(\.at.seconds) == expected)
        #expect(opens.map(\.app) == ["com.example.news", "com.example.mail", "com.example.news"])
        #expect(records.filter { $0.kind == .contentAge }.count == 3)
        // Without a screen column every close locks the device; the last row plugs the charger in.
        #expect(records.filter { $0.kind == .user && $0.reason == "lock" }.count == 2)
        #expect(records.contains { $0.kind == .started && $0.task == "com.example.news.refresh" })
        #expect(records.allSatisfy { $0.kind != .crashed })
    }

    @Test func anEmptyChargingCellChangesNothing() throws {
        // The charger goes on at 12:00; the battery level at 13:00 leaves its cell empty, so it stays on.
        let trace = try TraceLoader.parse(
            csv: """
                user,timestamp,app,event,battery,charging
                ann,2026-11-23T07:30:00Z,com.example.news,opened,50,false
                ann,2026-11-23T07:35:00Z,com.example.news,closed,,
                ann,2026-11-23T12:00:00Z,com.example.news,opened,,true
                ann,2026-11-23T12:05:00Z,com.example.news,closed,,
                ann,2026-11-23T13:00:00Z,com.example.news,opened,60,
                """, source: "trace.csv")
        let batteryEvents = TraceReplay.scenario(for: "ann", in: trace).timeline.compactMap { entry in
            if case .system(.setBattery(let level, let charging)) = entry.action { (level, charging) } else { nil }
        }
        #expect(batteryEvents.map(\.0) == [0.5, 0.6])
        #expect(batteryEvents.map(\.1) == [false, true])
    }

    @Test func statsCountLaunchesReopensSessionsAndChargingHours() throws {
        let trace = try TraceLoader.parse(
            csv: """
                user,timestamp,app,event,screen,charging
                ann,2026-11-23T07:30:00Z,com.example.news,opened,on,false
                ann,2026-11-23T07:31:00Z,com.example.mail,opened,on,
                ann,2026-11-23T07:32:00Z,com.example.news,opened,on,
                ann,2026-11-23T07:33:00Z,com.example.news,closed,off,
                ann,2026-11-23T12:00:00Z,com.example.news,opened,on,
                ann,2026-11-23T12:01:00Z,com.example.news,closed,off,
                ann,2026-11-23T22:00:00Z,com.example.mail,opened,on,
                ann,2026-11-23T22:01:00Z,com.example.mail,closed,off,true
                """, source: "t.csv")
        let stats = TraceStatistics(trace)
        #expect(stats.users == 1 && stats.userDays == 1)
        #expect(stats.launches == 5)
        // news at 07:32 (a minute after mail took the screen); mail at 22:00 is cold, news at 12:00 too.
        #expect(stats.reopens == 1)
        #expect(stats.sessions == 3)
        #expect(stats.appsInSessions == 4)
        // On the charger from 22:01 to the end of the day.
        #expect(stats.chargingHours.map { abs($0 - 119.0 / 60) < 1e-9 } == true)
        #expect(stats.text(source: "t.csv").contains("launches a day:      5.0"))
    }

    /// The error text of importing `text` in `layout`, nil when it imports.
    func importError(_ text: String, _ layout: TraceImporter.Layout) -> String? {
        do {
            _ = try TraceImporter.parse(text, layout: layout, source: "d.txt")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func lsappImportsAsATraceTheLoaderAccepts() throws {
        let header = "user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n"
        let rows = [
            "1\t1\t2018-01-16 06:01:05\tGoogle Chrome\tOpened",
            "1\t1\t2018-01-16 06:01:50\tGoogle Chrome\tClosed",
            "1\t1\t2018-01-16 06:01:52\tFacebook\tClosed",  // closes an app not on screen: skipped
            "1\t2\t2018-01-16 07:00:00\tFacebook\tOpened",
            "1\t2\t2018-01-16 07:02:00\tGmail\tOpened",  // a switch: Facebook leaves without a close
            "1\t2\t2018-01-16 07:03:00\tGmail\tClosed",
        ]
        let trace = try TraceImporter.parse(
            header + rows.joined(separator: "\n"), layout: .lsapp, source: "d.tsv", utcOffset: 3600)
        #expect(
            trace.events.map { $0.app?.rawValue } == [
                "app.google-chrome", "app.google-chrome", "app.facebook", "app.gmail", "app.gmail",
            ])
        #expect(trace.events.map(\.kind) == [.opened, .closed, .opened, .opened, .closed])
        // 06:01:05 at UTC+1 is 05:01:05 UTC.
        #expect(trace.events[0].epoch == 1_516_078_865 && trace.events[0].utcOffset == 3600)
        #expect(try TraceLoader.parse(csv: trace.csv(), source: "x").events.count == 5)
        #expect(
            importError(header + "1\t1\t2018-01-16 06:01:05\tChrome\tStarted", .lsapp)
                == "d.txt:2: field 'event_type (column 5)': expected Opened, Closed, User Interaction or Broken, "
                + "got \"Started\"")
        #expect(
            importError(header + "1\t1\tyesterday\tChrome\tOpened", .lsapp)?.hasPrefix(
                "d.txt:2: field 'timestamp (column 3)': expected a time") == true)
        #expect(importError("user,app\n", .lsapp)?.hasPrefix("d.txt:1: expected the header user_id<tab>") == true)
    }

    @Test func episodesImportAndTheirBadRowsNameTheField() throws {
        let header = "user,app,start,end\n"
        let trace = try TraceImporter.parse(
            header + """
                ann,com.example.news,2026-11-23T07:30:00+01:00,2026-11-23T07:35:00+01:00
                ann,com.example.mail,2026-11-23T07:34:00+01:00,2026-11-23T07:36:00+01:00
                """, layout: .episodes, source: "e.csv")
        #expect(trace.events.map(\.kind) == [.opened, .opened, .closed])
        #expect(try TraceLoader.parse(csv: trace.csv(), source: "x").events.count == 3)
        #expect(
            importError(header + "ann,com.x,2026-11-23T07:30:00Z,2026-11-23T07:00:00Z", .episodes)
                == "d.txt:2: field 'end (column 4)': comes before start")
        #expect(
            importError(header + "ann,,2026-11-23T07:30:00Z,2026-11-23T07:40:00Z", .episodes)
                == "d.txt:2: field 'app (column 2)': is empty; every row needs one")
        #expect(
            importError(header + "ann,com.x,2026-11-23T07:30:00Z", .episodes)
                == "d.txt:2: 3 cells, but the header has 4 columns")
    }

    @Test func csvRoundTripsThroughTheLoader() throws {
        let trace = TraceGenerator.generate(TraceModel(users: 2, days: 2, apps: 4, seed: 3))
        let again = try TraceLoader.parse(csv: trace.csv(), source: "x")
        #expect(again.csv() == trace.csv())
        #expect(again.events.map(\.epoch) == trace.events.map(\.epoch))
    }

    @Test func aLargeTraceLoadsTheRowsItWasWrittenFromWhateverItsNewlines() throws {
        // Thousands of rows, split byte by byte: the same events, in file order, each with its line.
        let trace = TraceGenerator.generate(TraceModel(users: 6, days: 14, apps: 8, seed: 11))
        let unnumbered = { (events: [TraceEvent]) in
            events.map { event in
                var event = event
                event.line = 0
                return event
            }
        }
        for newline in ["\n", "\r\n", "\r", "\u{2028}"] {
            let csv = trace.csv().split(separator: "\n").joined(separator: newline) + newline
            let loaded = try TraceLoader.parse(csv: csv, source: "x")
            #expect(unnumbered(loaded.events) == trace.events)
            #expect(loaded.events.map(\.line) == Array(2...trace.events.count + 1))
        }
    }

    @Test func theFirstBadLineInFileOrderIsReportedWhereverTheOtherIs() throws {
        // A repeated screen-on row breaks its user's order; a bad timestamp breaks its cell. Whichever comes
        // first in the file is reported, one near each end of a large file.
        let trace = TraceGenerator.generate(TraceModel(users: 6, days: 14, apps: 8, seed: 11))
        let rows = trace.csv().split(separator: "\n").map(String.init)
        let early = try #require(rows.indices.first { $0 > rows.count / 10 && rows[$0].contains(",screen-on,") })
        let late = try #require(rows.indices.last { $0 < rows.count * 9 / 10 && rows[$0].contains(",screen-on,") })
        for (repeated, badTime) in [(early, late), (late, early)] {
            var lines = rows
            var cells = lines[badTime].split(separator: ",", omittingEmptySubsequences: false)
            cells[1] = "yesterday"
            lines[badTime] = cells.joined(separator: ",")
            lines.insert(lines[repeated], at: repeated + 1)
            let user = lines[repeated].prefix { $0 != "," }
            let expected =
                repeated < badTime
                ? "trace.csv:\(repeated + 2): field 'event (column 4)': screen-on, but the screen is already on for "
                    + "user \(user)"
                : "trace.csv:\(badTime + 1): field 'timestamp (column 2)': expected an ISO 8601 time with its zone, "
                    + "like 2026-11-23T07:30:00+01:00"
            #expect(errorText(lines.joined(separator: "\n")) == expected)
        }
    }

    @Test func aLineThatIsNotASCIIIsSplitByCharacters() {
        // A comma followed by a combining mark is one character, not a comma: the row has a cell fewer.
        #expect(
            errorText(header + "u1,2026-11-23T07:30:00Z,com.x,opened,on,,,\u{301}\n")
                == "trace.csv:2: 7 cells, but the header has 8 columns "
                + "(user,timestamp,app,event,screen,battery,charging,network)")
        // Every newline character ends a line (CR-LF is one): the bad row is on the line it would be on.
        let newlines = ["\r\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}", "\n\r"]
        let pairs = newlines.enumerated().map { index, newline in
            "u\(index),2026-11-23T07:30:00Z,com.x,opened,on,,,\(newline)"
                + "u\(index),2026-11-23T07:31:00Z,com.x,closed,off,,,"
        }
        let csv = header + pairs.joined(separator: "\n") + "\nu1,then,com.x,opened,on,,,"
        let badLine = csv.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
        #expect(errorText(csv)?.hasPrefix("trace.csv:\(badLine): field 'timestamp (column 2)'") == true)
    }

    @Test func generatorIsDeterministicForASeed() {
        let model = TraceModel(users: 3, days: 5, apps: 6, seed: 42)
        #expect(TraceGenerator.generate(model).csv() == TraceGenerator.generate(model).csv())
        var other = model
        other.seed = 43
        #expect(TraceGenerator.generate(other).csv() != TraceGenerator.generate(model).csv())
    }

    @Test func generatorFollowsItsModel() {
        // A battery that never runs low, so that every plug-in is a habit's (none a rescue at 5 %).
        var model = TraceModel(users: 5, days: 14, apps: 10, seed: 7)
        model.batteryDrainPerLitHour = 0
        let trace = TraceGenerator.generate(model)
        let opens = trace.events.filter { $0.kind == .opened }
        let hours = opens.map { Int((($0.epoch + $0.utcOffset) / 3600).rounded(.down)) % 24 }
        // Daily rhythm: far more opens in the day than at night.
        let day = hours.filter { (8..<22).contains($0) }.count
        let night = hours.filter { (1..<5).contains($0) }.count
        #expect(day > 20 * max(1, night))
        // Popularity: each user's favourite app is opened more than their least favourite.
        for user in trace.users {
            let counts = Dictionary(grouping: opens.filter { $0.user == user }, by: \.app).mapValues(\.count)
            #expect(counts.values.max()! > 3 * (counts.values.min() ?? 0))
        }
        // Charging: every evening the charger goes in, at bedtime for the night or earlier for a top-up of an hour
        // or two (`nightlyChargeChance`); some users also charge at work after lunch, on weekdays.
        let plugs = trace.events.filter { $0.charging == true }.map {
            Int((($0.epoch + $0.utcOffset) / 3600).rounded(.down)) % 24
        }
        let atBedtime = plugs.filter { $0 >= 21 || $0 <= 2 }.count
        let topUps = plugs.filter { (18...20).contains($0) }.count
        #expect(atBedtime + topUps == 5 * 14)
        #expect(atBedtime > 0 && topUps > 0)
        #expect(plugs.allSatisfy { $0 >= 18 || $0 <= 2 || (13...14).contains($0) })
        // Weekdays against weekends: the user is on cellular only on weekdays, away from home.
        for event in trace.events where event.network == .cellular {
            let weekday = WallClock(epochAtZero: event.epoch + event.utcOffset).localWeekday(at: .zero)
            #expect(weekday != 0 && weekday != 6)
        }
    }

    @Test func theDefaultPopulationHasTheStructureOfRealUsage() {
        // The generator's defaults with real phones' 74 apps: each figure near what real usage shows
        // (`TraceStatistics.RealUsage`), within what a sample of 6 users × 14 days can show.
        let stats = TraceStatistics(TraceGenerator.generate(TraceModel(users: 6, days: 14, apps: 74, seed: 3)))
        #expect((130...185).contains(stats.launchesPerDay))
        #expect((0.68...0.85).contains(stats.topTenShare))
        #expect(stats.medianAppLaunchesPerDay.map { (0.15...0.6).contains($0) } == true)
        #expect((0.18...0.32).contains(stats.sessionsWithThreeAppsShare))
        #expect((0.3...0.45).contains(stats.glanceShare))
        #expect((0.3...0.5).contains(stats.reopenShare))
        #expect((0.06...0.3).contains(stats.lowBatteryLaunchShare))
        #expect((140...180).contains(stats.notificationsPerDay))
        #expect(stats.chargingHours.map { (3.5...6.5).contains($0 / stats.userDays) } == true)
    }

    @Test func theBatteryDrainsWithTheScreenAndFillsOnTheCharger() {
        let trace = TraceGenerator.generate(TraceModel(users: 2, days: 4, apps: 10, seed: 4))
        for user in trace.users {
            var (level, charging, last) = (1.0, false, 1.0)
            for row in trace.events(of: user) {
                // Between two cells the level moves the way the charger says.
                if let next = row.battery {
                    #expect(charging ? next >= last - 0.011 : next <= last + 0.011, "\(row)")
                    last = next
                    level = next
                }
                charging = row.charging ?? charging
            }
            #expect(level < 1)
        }
        // A phone drained to 5 % off the charger is plugged in at once (for an hour), never left to die.
        var hungry = TraceModel(users: 2, days: 4, apps: 10, seed: 4)
        hungry.batteryDrainPerLitHour = 0.5
        let drained = TraceGenerator.generate(hungry)
        var rescues = 0
        for user in drained.users {
            var charging = false
            for row in drained.events(of: user) {
                if !charging, let level = row.battery, level <= TraceGenerator.lowBatteryRescue {
                    #expect(row.charging == true, "\(row)")
                    rescues += 1
                }
                charging = row.charging ?? charging
            }
        }
        #expect(rescues > 0)
    }

    @Test func generatorLightsTheScreenAMomentBeforeASessionsFirstApp() {
        let model = TraceModel(users: 3, days: 7, apps: 8, seed: 5)
        let trace = TraceGenerator.generate(model)
        for user in trace.users {
            let rows = trace.events(of: user)
            for (index, row) in rows.enumerated() where row.kind == .opened && index > 0 {
                // Notifications come at any moment, between the screen lighting and the app among them.
                guard let before = rows[..<index].last(where: { $0.kind != .notification }) else { continue }
                // An app opened in a session follows the close of the app before; any other follows the screen.
                if before.kind == .closed, before.screen == true { continue }
                #expect(before.kind == .screenOn)
                #expect((0...20).contains(row.epoch - before.epoch))
            }
        }
        let median = TraceStatistics(trace).medianScreenToApp
        #expect(median.map { (1...2).contains($0) } == true)  // 1.6 s, in whole seconds
        // A longer gap moves only the screen's rows: the rest of the trace is the same draw for draw.
        var slower = model
        slower.screenToAppMedianGap = 8
        let slow = TraceGenerator.generate(slower)
        #expect(TraceStatistics(slow).medianScreenToApp.map { (7...9).contains($0) } == true)
        let others = { (trace: UsageTrace) in trace.events.filter { $0.kind != .screenOn }.map(\.epoch) }
        #expect(others(slow) == others(trace))
    }

    @Test func aNotificationOpenedAtOnceLitTheScreenWhenItCame() {
        let trace = TraceGenerator.generate(TraceModel(users: 4, days: 7, apps: 8, seed: 9))
        var openedAtOnce = 0
        var litByNotification = 0
        for user in trace.users {
            let rows = trace.events(of: user)
            for (index, row) in rows.enumerated() where row.kind == .notification {
                // The notification's app opened within 20 s, the screen lit just before.
                guard index + 2 < rows.count, rows[index + 1].kind == .screenOn,
                    rows[index + 2].kind == .opened, rows[index + 2].app == row.app,
                    rows[index + 2].epoch - row.epoch <= 20
                else { continue }
                openedAtOnce += 1
                if rows[index + 1].epoch == row.epoch { litByNotification += 1 }
            }
        }
        // Most were opened from the screen the notification lit (the rest opened from the dark screen a few
        // seconds later, a moment after lighting it themselves).
        #expect(openedAtOnce > 10)
        #expect(Double(litByNotification) > 0.7 * Double(openedAtOnce))
    }

    @Test func statsGiveTheMedianTimeFromTheScreenToTheFirstApp() throws {
        let trace = try TraceLoader.parse(
            csv: """
                user,timestamp,app,event,screen
                ann,2026-11-23T07:30:00Z,,screen-on,on
                ann,2026-11-23T07:30:02Z,com.example.news,opened,on
                ann,2026-11-23T07:31:00Z,com.example.mail,opened,on
                ann,2026-11-23T07:33:00Z,com.example.mail,closed,off
                ann,2026-11-23T09:00:00Z,,screen-on,on
                ann,2026-11-23T09:00:05Z,,screen-off,off
                ann,2026-11-23T12:00:00Z,com.example.news,opened,on
                ann,2026-11-23T12:01:00Z,com.example.news,closed,off
                ann,2026-11-23T18:00:00Z,,screen-on,on
                ann,2026-11-23T18:00:07Z,com.example.news,opened,on
                ann,2026-11-23T18:01:00Z,com.example.news,closed,off
                """, source: "t.csv")
        let stats = TraceStatistics(trace)
        // Three sessions with an app, their first apps 2 s, 0 s and 7 s after the screen lit; a glance has none.
        #expect(stats.screenToAppGaps == [2, 0, 7])
        #expect(stats.medianScreenToApp == 2)
        #expect(stats.text(source: "t.csv").contains("screen-on to app:    median 2.0 s"))
    }
}
