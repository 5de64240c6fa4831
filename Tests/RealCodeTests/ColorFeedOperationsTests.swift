import ColorFeed
import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// Apple's ColorFeed sample in its OperationQueue style (Examples/ColorFeed/…/OperationsStyle.swift), run in
/// the simulator: refreshes by an asynchronous download operation, cleans by a long operation while charging.
@Suite struct ColorFeedOperationsTests {
    let app = ColorFeed.bundleIdentifier
    let refresh = "com.colorfeed.wwdc25.appRefresh"
    let cleaning = "com.example.apple-samplecode.ColorFeed.db_cleaning"

    func run(_ timeline: [TimelineEntry], duration: Double) throws -> RealCodeRun {
        let manifest = try AppManifest(plist: Data(ColorFeed.infoPlist), source: "ColorFeed-Info.plist")
        return RealCodeRun(
            apps: [(manifest, { @Sendable in ColorFeed.makeOperationsDelegate() })], timeline: timeline,
            duration: duration)
    }

    var day: [TimelineEntry] {
        [
            at(0, .setBattery(level: 0.8, charging: false)), at(60, .open(BundleID(app))), at(120, .home),
            at(130, .lock), at(3 * 3600, .setBattery(level: 0.5, charging: true)),
        ]
    }

    @Test func colorFeedOperationsRefreshCompletesAfterItsDownloadOperation() throws {
        let records = try run(day, duration: 8 * 3600).run()
        // A refresh that starts in the run's last 4 s has no time left to complete before the run ends.
        let starts = records.of(.started, app, task: refresh).filter { $0.at.seconds + 4 <= 8 * 3600 }
        let completions = records.of(.completed, app, task: refresh)
        #expect(!starts.isEmpty)
        #expect(completions.count == starts.count)
        #expect(zip(starts, completions).allSatisfy { $1.at.seconds == $0.at.seconds + 4 })
        #expect(completions.allSatisfy { $0.reason == "setTaskCompleted(success: true) after 4.0 s" })
    }

    @Test func colorFeedOperationsCleaningRunsWhileChargingAndCompletes() throws {
        let records = try run(day, duration: 8 * 3600).run()
        let started = try #require(records.of(.started, app, task: cleaning).first)
        #expect(started.at.seconds >= 3 * 3600)
        let completed = try #require(records.of(.completed, app, task: cleaning).first)
        #expect(completed.at.seconds == started.at.seconds + 300)
        #expect(completed.reason == "setTaskCompleted(success: true) after 300.0 s")
    }

    @Test func colorFeedOperationsCleaningIsCancelledWhenTheUserReturns() throws {
        let cleaningStart = try #require(
            try run(day, duration: 8 * 3600).run().of(.started, app, task: cleaning).first?.at.seconds)
        let records = try run(day + [at(cleaningStart + 42, .open(BundleID(app)))], duration: 8 * 3600).run()
        #expect(records.of(.expired, app, task: cleaning).map(\.at.seconds) == [cleaningStart + 42])
        // The batch under way ends (at 45 s), the operation sees it was cancelled and the task completes.
        let completed = try #require(records.of(.completed, app, task: cleaning).first)
        #expect(completed.at.seconds == cleaningStart + 45)
        #expect(completed.succeeded == false)
    }

    @Test func colorFeedOperationsGivesTheSameRecordsInTwentyRuns() throws {
        #expect(Set(try run(day, duration: 8 * 3600).texts(runs: 20)).count == 1)
    }
}
