import ColorFeed
import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// The WWDC25 samples in Examples/ColorFeed, run in the simulator, behave as the talk says.
@Suite struct ColorFeedTests {
    let app = BundleID(ColorFeed.bundleIdentifier)

    func run(_ timeline: [TimelineEntry], duration: Double) throws -> [Record] {
        try simulation(timeline, duration: duration).run()
    }

    /// ColorFeed alone through the timeline, not yet run.
    func simulation(_ timeline: [TimelineEntry], duration: Double) throws -> Simulation {
        let manifest = try AppManifest(plist: Data(ColorFeed.infoPlist), source: "ColorFeed-Info.plist")
        let scenario = Scenario(
            name: "ColorFeed", source: "test", apps: [ScenarioApp(manifest: manifest, code: "ColorFeed")],
            timeline: timeline,
            duration: duration)
        return try Simulation(scenario: scenario, catalog: SwiftAppCatalog(["ColorFeed": { ColorFeed.makeDelegate() }]))
    }

    @Test func colorFeedReportsTheEnergyOfItsWork() throws {
        let simulation = try simulation(
            [at(1, .open(app)), TimelineEntry(at: 10, action: .tap(app, action: "export")), at(20, .home)],
            duration: 600)
        simulation.run()
        let totals = simulation.system.energy.totals[.app(app)]
        let watts = simulation.system.policy.power.cpuWattsPerCore
        // The export's 100 steps of 3 s at half a core: 3 end on screen (at 13, 16 and 19 s), 97 in the
        // background; saving state at home takes 1 s at a quarter of a core, in the background.
        #expect(abs((totals?.background ?? 0) - (97 * 1.5 + 0.25) * watts) < 1e-6)
        #expect((totals?.foreground ?? 0) >= 3 * 1.5 * watts)
    }

    @Test func infoPlistIsReadWithPropertyListSerialization() throws {
        let manifest = try AppManifest(plist: Data(ColorFeed.infoPlist), source: "ColorFeed-Info.plist")
        #expect(manifest.bundleIdentifier == app)
        #expect(manifest.backgroundModes == [.fetch, .processing])
        #expect(manifest.permission(for: "com.colorfeed.wwdc25.userTask") == .wildcard("com.colorfeed.wwdc25.*"))
        #expect(manifest.permission(for: "com.example.apple-samplecode.ColorFeed.db_cleaning") == .exact)
    }

    @Test func continuedProcessingSampleRunsToCompletionInTheBackground() throws {
        let records = try run(
            [at(1, .open(app)), TimelineEntry(at: 10, action: .tap(app, action: "export")), at(20, .home)],
            duration: 600)
        let task = "com.colorfeed.wwdc25.userTask"
        #expect(records.of(.started, app.rawValue, task: task).map(\.at.seconds) == [10])
        let completed = records.of(.completed, app.rawValue, task: task)
        #expect(completed.map(\.at.seconds) == [310])
        #expect(completed.first?.reason == "setTaskCompleted(success: true) after 300.0 s")
        #expect(records.of(.suspended, app.rawValue).map(\.at.seconds) == [310])
    }

    @Test func continuedProcessingSampleStopsWhenExpired() throws {
        let records = try run(
            [
                at(1, .open(app)), TimelineEntry(at: 10, action: .tap(app, action: "export")),
                at(40, .simulateExpiration(app, identifier: "com.colorfeed.wwdc25.userTask")),
            ], duration: 120)
        let task = "com.colorfeed.wwdc25.userTask"
        #expect(records.of(.expired, app.rawValue, task: task).map(\.reason) == ["simulated expiration"])
        // The loop sees shouldContinue == false after its current 3 s step and completes (success: true, as written).
        #expect(records.of(.completed, app.rawValue, task: task).map(\.at.seconds) == [40])
        #expect(records.of(.terminated, app.rawValue).isEmpty)
    }

    @Test func processingSampleWaitsForTheChargerAndIdleThenCleans() throws {
        let records = try run(
            [at(1, .open(app)), at(60, .home), at(61, .lock), at(3600, .setBattery(level: 0.5, charging: true))],
            duration: 2 * 3600)
        let task = "com.example.apple-samplecode.ColorFeed.db_cleaning"
        let deferred = records.of(.deferred, app.rawValue, task: task).map(\.reason)
        #expect(deferred.first?.contains("externalPower: not on external power") == true)
        #expect(records.of(.started, app.rawValue, task: task).map(\.at.seconds) == [3600])
        #expect(
            records.of(.completed, app.rawValue, task: task).first?.reason
                == "setTaskCompleted(success: true) after 300.0 s")
    }

    @Test func beginEndSampleHoldsAnAssertionWhileSavingState() throws {
        let records = try run([at(1, .open(app)), at(60, .home)], duration: 120)
        #expect(records.of(.assertionBegan, app.rawValue).map(\.reason) == ["background task 1 (\"Finish Export\")"])
        #expect(records.of(.assertionEnded, app.rawValue).map(\.at.seconds) == [61])
        #expect(records.of(.suspended, app.rawValue).map(\.at.seconds) == [61])
    }
}
