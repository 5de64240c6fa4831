import Foundation
import OffstageCore
import Testing

@testable import OffstageCLI
@testable import OffstageSimulator

/// The built-in demo day: it shows every moment the issue asks for, and it is deterministic.
@Suite struct DemoTests {
    func runDemo() throws -> RunReport {
        try Simulation(scenario: try DemoScenario.load(), catalog: .bundled).report()
    }

    @Test func demoShowsEveryMomentOfTheDay() throws {
        let records = try runDemo().records
        func has(_ kind: RecordKind, _ app: String?, task: String? = nil, _ says: (Record) -> Bool) -> Bool {
            records.contains { $0.kind == kind && $0.app?.rawValue == app && $0.task == task && says($0) }
        }
        func completedWell(_ record: Record) -> Bool {
            if case .completed(success: true, _) = record.detail { true } else { false }
        }
        func blockedBy(_ constraint: String) -> (Record) -> Bool {
            {
                if case .deferred(let blockers) = $0.detail {
                    blockers.contains { $0.constraint == constraint }
                } else {
                    false
                }
            }
        }
        // An app switch: ColorFeed leaves the screen for News and is suspended.
        #expect(has(.suspended, "com.colorfeed.wwdc25") { $0.detail == .suspendedWithoutWork })
        #expect(has(.user, nil) { $0.reason == "lock" })
        #expect(has(.device, nil) { $0.reason == "battery 14%, plugged in" })
        // A refresh, run in the background and completed.
        #expect(has(.completed, "com.colorfeed.wwdc25", task: "com.colorfeed.wwdc25.appRefresh", completedWell))
        // A processing task that waits for the charger, then runs.
        #expect(
            has(.deferred, "com.example.photosync", task: "com.example.photosync.upload", blockedBy("externalPower")))
        #expect(
            has(.started, "com.example.photosync", task: "com.example.photosync.upload") {
                $0.detail == .started(kind: .processing, cause: .allConstraintsSatisfied)
            })
        // An expiration: the upload needs 25 min, processing gets 10.
        #expect(
            has(.expired, "com.example.photosync", task: "com.example.photosync.upload") {
                $0.detail == .expired(cause: .runtimeUsedUp(seconds: 600))
            })
        // A force-quit, and the refresh it blocks until the user opens the app again.
        #expect(
            has(.terminated, "com.example.news") { $0.detail == .terminated(from: .inactive, reason: .userForceQuit) })
        #expect(has(.deferred, "com.example.news", task: "com.example.news.refresh", blockedBy("forceQuit")))
        // Background pushes: one delivered at once, one held by the critical battery and coalesced, the
        // newer delivered on the charger.
        #expect(has(.deferred, "com.example.photosync", task: "remote-notification", blockedBy("criticalBattery")))
        #expect(
            has(.dropped, "com.example.photosync", task: "remote-notification") {
                if case .pushCoalesced = $0.detail { true } else { false }
            })
        #expect(records.filter { $0.kind == .delivered && $0.app == "com.example.photosync" }.count == 2)
        // ColorFeed's own code ran: the continued-processing export.
        #expect(has(.completed, "com.colorfeed.wwdc25", task: "com.colorfeed.wwdc25.userTask", completedWell))
        #expect(!records.contains { $0.kind == .crashed })
    }

    @Test func sameScenarioAndSeedGiveTheSameRecordsByteForByte() throws {
        let first = try runDemo().json()
        let second = try runDemo().json()
        #expect(first == second)
        #expect(first.count > 10_000)
    }

    @Test func anotherSeedDrawsOtherWorkDurations() throws {
        var scenario = try DemoScenario.load()
        scenario.seed = 8
        let other = try Simulation(scenario: scenario, catalog: .bundled).report().json()
        #expect(try runDemo().json() != other)
    }

    @Test func timelineShowsWallClockAppKindTaskAndWhy() throws {
        let report = try runDemo()
        let lines = report.timeline(verbose: false).split(separator: "\n")
        #expect(
            lines.contains { $0.hasPrefix("2026-11-21 07:00:05Z  com.colorfeed.wwdc25") && $0.contains("launched") })
        #expect(report.timeline(verbose: true).contains("applicationDidEnterBackground(_:)"))
        #expect(!report.timeline(verbose: false).contains("applicationDidEnterBackground(_:)"))
        #expect(
            report.summary().contains("com.example.photosync: opened 2 times by the user (1 launch, 1 from memory)"))
    }

    @Test func unknownSwiftAppIsAnErrorNamingTheField() throws {
        let scenario = try ScenarioLoader.parse(
            yaml: "name: x\napps:\n  - code: Nope\n    manifest: {CFBundleIdentifier: com.x}\n", source: "x.yaml")
        #expect(throws: ScenarioError.self) { try Simulation(scenario: scenario, catalog: .bundled) }
        do {
            _ = try Simulation(scenario: scenario, catalog: .bundled)
        } catch {
            #expect(error.description.contains("no Swift app named 'Nope'"))
            #expect(error.description.hasPrefix("x.yaml"))
        }
    }
}
