import Foundation
import OffstageCore
import Testing

@testable import OffstageCLI
@testable import OffstageSimulator

/// The HTML report answers "why did my task wait?" (issue 17): the device's conditions as lanes, hour ticks on
/// long axes, wakes in the lane of the app they served, marks linked to their request rows, a window of a long run.
@Suite struct HTMLReportWhyTests {
    @Test func deviceLanesFollowTheScenariosLockChargerAndIdleWindow() throws {
        let (simulation, _, html) = try HTMLReportTests.demo()
        let lanes = DeviceLanes(
            readings: simulation.deviceHistory.readings, end: simulation.now, idleDelay: 15 * 60)
        func segments(_ name: String) throws -> [DeviceLanes.Segment] {
            lanes.segments(of: try #require(lanes.lanes.first { $0.name == name }))
        }
        let hour = 3600.0
        // The demo plugs in at 22:30 and unplugs at 07:00 the next day.
        let charging = try segments("charger").filter { $0.text == "on the charger" }
        #expect(charging.map(\.start) == [Instant(seconds: 22.5 * hour)])
        #expect(charging.map(\.end) == [Instant(seconds: 31 * hour)])
        // Locked at 07:20: idle from 07:35, when the 15 minutes have passed.
        let idle = try segments("idle window")
        #expect(idle.contains { $0.text == "locked, not yet idle" && $0.start == Instant(seconds: 7 * hour + 20 * 60) })
        #expect(
            idle.contains { $0.text == "idle: processing may run" && $0.start == Instant(seconds: 7 * hour + 35 * 60) })
        #expect(try segments("network").map(\.text) == ["Wi-Fi"])
        #expect(html.html().contains("id=\"plot-device\""))
    }

    @Test func hourTicksOnlyWhereTheLabelledOnesAreFurtherApart() {
        let clock = WallClock(epochAtZero: 1_795_219_200)
        let threeDays = TimeAxis(start: .zero, end: Instant(seconds: 3 * 86_400), clock: clock)
        #expect(threeDays.step == 6 * 3600 && threeDays.hourTicks.count == 73)
        let twoHours = TimeAxis(start: .zero, end: Instant(seconds: 2 * 3600), clock: clock)
        #expect(twoHours.hourTicks.isEmpty)
        let year = TimeAxis(start: .zero, end: Instant(seconds: 365 * 86_400), clock: clock)
        #expect(year.hourTicks.isEmpty, "an hour is less than a pixel wide")
        #expect(
            threeDays.label(Instant(seconds: 86_400)) == "2026-11-22"
                && threeDays.label(Instant(seconds: 6 * 3600)) == "06:00")
    }

    @Test func wakesAreDrawnInTheLaneOfTheAppTheyServedAndLinkToTheRequest() throws {
        let (_, _, html) = try HTMLReportTests.demo()
        let page = html.html()
        let tasks = try #require(HTMLReportTests.svgs(in: page).first { $0.contains("id=\"plot-tasks\"") })
        #expect(tasks.contains("maintenance wake #1: the device was asleep, for com.colorfeed.wwdc25.appRefresh"))
        let events = try #require(HTMLReportTests.svgs(in: page).first { $0.contains("id=\"plot-events\"") })
        #expect(events.contains("served com.colorfeed.wwdc25 [com.colorfeed.wwdc25.appRefresh]"))
        // Every link in the plots names a row of the request table.
        let anchors = page.components(separatedBy: "<a href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(anchors.count > 10)
        for anchor in Set(anchors) { #expect(page.contains("id=\"\(anchor)\""), "no row \(anchor)") }
        #expect(page.contains("<tr class=\"group\"><th colspan=\"8\">com.colorfeed.wwdc25: "))
    }

    @Test func delayBeyondTheEarliestBeginDateIsTheSystemsPartOfTheWait() throws {
        let (_, _, html) = try HTMLReportTests.demo()
        let requests = html.timeline.requests
        // ColorFeed's refresh asks for 1 h. Resumed at 08:15:00 for it, the app first hears
        // applicationDidEnterBackground (iOS's order), saves for 1 s and submits; its handler then submits again at
        // 08:15:01, replacing that one. Opened twice, the app is little known: this one waits for 6 h after the
        // run of 08:15 and runs at 14:15, 5 h beyond its date, all of it the system's.
        let resubmitted = requests.filter {
            $0.identifier == "com.colorfeed.wwdc25.appRefresh" && $0.submittedAt == Instant(seconds: 8.25 * 3600 + 1)
        }
        #expect(resubmitted.map(\.outcome) == [.replaced, .started])
        let spaced = try #require(resubmitted.last)
        #expect(spaced.earliestBegin == Instant(seconds: 9.25 * 3600 + 1))
        #expect(spaced.delayedBeyondEarliestBegin == 5 * 3600 - 1)
        // Submitted at 07:11:01 for 08:11:01, it waited for the wake of 08:15: 4 min beyond.
        let late = try #require(requests.first { $0.submittedAt == Instant(seconds: 7 * 3600 + 11 * 60 + 1) })
        #expect(late.delayedBeyondEarliestBegin == 239)
        // The request of 07:04:01 (for 08:04:01), replaced at 07:11:01, before its date: not delayed at all.
        let replaced = try #require(requests.first { $0.submittedAt == Instant(seconds: 7 * 3600 + 4 * 60 + 1) })
        #expect(replaced.outcome == .replaced && replaced.delayedBeyondEarliestBegin == 0)
    }

    @Test func theScenariosOwnBatteryChangesAreMarked() throws {
        let (_, _, html) = try HTMLReportTests.demo()
        let battery = try #require(HTMLReportTests.svgs(in: html.html()).first { $0.contains("id=\"plot-battery\"") })
        for level in ["48%", "16%", "100%"] { #expect(battery.contains(">set \(level)</text>")) }
    }

    @Test func fromAndToShowAWindowOfTheRun() async throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("w.html").path
        let outcome = await CLI.run([
            "demo", "--summary", "--html", path, "--from", "6h", "--to", "2026-11-21 10:00:00Z",
        ])
        #expect(outcome.error == nil)
        let page = try String(contentsOfFile: path, encoding: .utf8)
        #expect(page.contains("<dt>from</dt><dd>2026-11-21 06:00:00Z</dd><dt>to</dt><dd>2026-11-21 10:00:00Z</dd>"))
        // Nothing after the window: not the pushes of 19:00, nor the requests submitted then (a request submitted
        // within it is shown whole, its later waits and outcome included).
        #expect(page.contains("<title>2026-11-21 09:40:00Z background push arrived"))
        #expect(!page.contains("<title>2026-11-21 19:00:00Z background push arrived"))
        let submitted = page.ranges(of: "</code></td><td>").compactMap { code in
            page[code.upperBound...].split(separator: "<td>", maxSplits: 2).dropFirst().first?.prefix(20)
        }
        #expect(!submitted.isEmpty && submitted.allSatisfy { $0 < "2026-11-21 10:00:00Z" })
        #expect(page.contains("(the whole run, not only the window)."))
        let lonely = await CLI.run(["demo", "--from", "6h"])
        #expect(lonely.error?.hasPrefix("Error: --from chooses the window of the HTML report: add --html FILE") == true)
        let empty = await CLI.run(["demo", "--html", path, "--from", "6h", "--to", "5h"])
        #expect(empty.error?.contains("is not before --to 5h") == true)
    }
}
