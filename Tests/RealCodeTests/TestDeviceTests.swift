import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// The stepping device (`TestDevice`): a test moves virtual time and asserts in between, on an async app's real
/// code, and the same steps give the same records as a scenario.
@Suite struct TestDeviceTests {
    let app = BundleID("com.example.async")

    /// A device with the async refresh app (8 s fetch) installed, as a test writes it.
    func device(sightings: Sightings = Sightings()) throws -> TestDevice {
        let catalog = SwiftAppCatalog(["AsyncRefresh": { AsyncRefreshApp(fetchSeconds: 8, sightings: sightings) }])
        let device = try TestDevice(catalog: catalog)
        try device.install(
            ScenarioApp(manifest: manifest(app.rawValue, identifiers: [AsyncRefreshApp.refresh]), code: "AsyncRefresh"))
        return device
    }

    @Test func afterGoingHomeTheAppIsSuspendedAndFifteenMinutesLaterItsRefreshHasRunAndItIsSuspendedAgain() async throws
    {
        let sightings = Sightings()
        let device = try device(sightings: sightings)
        defer { device.finish() }
        device.open(app)
        #expect(device.state(of: app) == .active)
        device.advance(by: 10)
        device.home()
        device.runUntilIdle()
        #expect(device.state(of: app) == .suspended)
        let pending = try #require(device.requests(of: app).first)
        #expect(pending.request.identifier == AsyncRefreshApp.refresh)
        #expect(pending.phase == .pending)
        #expect(!pending.blockers.isEmpty)  // its earliest begin date is 15 minutes away

        let mark = device.mark()
        device.advance(by: 15 * 60)
        let ran = device.advance(
            until: { $0.records(since: mark, of: app).contains { $0.kind == .completed } }, within: 6 * 3600)
        #expect(ran)
        device.runUntilIdle()
        let since = device.records(since: mark, of: app)
        #expect(since.contains { $0.kind == .started && $0.task == AsyncRefreshApp.refresh })
        #expect(since.first { $0.kind == .completed }?.succeeded == true)
        #expect(sightings.lines == ["fetched 3 after 8.0 s"])
        #expect(device.state(of: app) == .suspended)
        #expect(device.backgroundTasks(of: app).isEmpty)
    }

    @Test func theResumeCallbackTurnedOffOnTheDeviceResumesTheAppForItsRefreshWithNoCallback() throws {
        let device = try device()
        defer { device.finish() }
        device.setResumeCallback(.none)
        #expect(device.conditions.resumeCallback == .none)
        device.open(app)
        device.home()
        device.runUntilIdle()
        let mark = device.mark()
        let ran = device.advance(
            until: { $0.records(since: mark, of: app).contains { $0.kind == .completed } }, within: 6 * 3600)
        #expect(ran)
        let since = device.records(since: mark, of: app)
        #expect(since.first?.kind == .resumed)
        #expect(!since.contains { $0.kind == .callback })
        #expect(since.contains { $0.kind == .started && $0.task == AsyncRefreshApp.refresh })
    }

    @Test func anAsyncTestStepsTheDeviceOffItsCooperativeThread() async throws {
        let app = app
        let catalog = SwiftAppCatalog(["AsyncRefresh": { AsyncRefreshApp(fetchSeconds: 8, sightings: Sightings()) }])
        let (state, ran) = try await TestDevice.steps(catalog: catalog) { device in
            try device.install(
                ScenarioApp(
                    manifest: manifest(app.rawValue, identifiers: [AsyncRefreshApp.refresh]), code: "AsyncRefresh"))
            device.open(app)
            device.home()
            device.runUntilIdle()
            let state = device.state(of: app)
            let ran = device.advance(
                until: { $0.records(of: app).contains { $0.kind == .completed } }, within: 6 * 3600)
            return (state, ran)
        }
        #expect(state == .suspended)
        #expect(ran)
    }

    @Test func simulateLaunchAndExpirationReachTheAppsHandlers() throws {
        let sightings = Sightings()
        let device = try device(sightings: sightings)
        defer { device.finish() }
        device.open(app)
        device.home()
        device.simulateLaunch(app, task: AsyncRefreshApp.refresh)
        #expect(device.requests(of: app).contains { if case .running = $0.phase { true } else { false } })
        device.advance(by: 2)
        device.simulateExpiration(app, task: AsyncRefreshApp.refresh)
        device.runUntilIdle()
        let records = device.records(of: app)
        #expect(records.of(.expired, app.rawValue).count == 1)
        #expect(records.of(.completed, app.rawValue).first?.succeeded == false)
        #expect(sightings.lines.count == 1 && sightings.lines[0].hasPrefix("cancelled after 2.0"))
    }

    @Test func setAllConstraintsMetStartsThePendingRequestAndSaysWhatBlockedIt() throws {
        let device = try device()
        defer { device.finish() }
        device.open(app)
        device.home()
        device.runUntilIdle()
        let lifted = device.setAllConstraintsMet(for: AsyncRefreshApp.refresh, of: app)
        #expect(lifted.count == 1)  // its earliest begin date, 15 minutes away
        #expect(device.records(of: app).contains { $0.kind == .started })
        #expect(device.setAllConstraintsMet(for: "com.example.none", of: app).isEmpty)
    }

    @Test func theBatteryAndConditionsAreReadAtAnyMoment() throws {
        let device = try device()
        defer { device.finish() }
        let full = device.batteryLevel
        device.unplug()
        device.advance(by: 6 * 3600)
        #expect(device.batteryLevel < full)
        device.plug()
        #expect(device.conditions.isCharging)
        #expect(device.now == Instant(seconds: 6 * 3600))
    }

    @Test func installingUnknownCodeOrAnAppTwiceIsAClearError() throws {
        let device = try device()
        defer { device.finish() }
        let unknown = ScenarioApp(manifest: manifest("com.example.other", identifiers: []), code: "Missing")
        #expect(throws: ScenarioError.self) { try device.install(unknown) }
        let twice = ScenarioApp(manifest: manifest(app.rawValue, identifiers: []), code: "AsyncRefresh")
        let error = #expect(throws: ScenarioError.self) { try device.install(twice) }
        #expect(error?.message.contains("installed already") == true)
        let plist = Data("<plist><dict><key>CFBundleIdentifier</key><integer>3</integer></dict></plist>".utf8)
        let bad = #expect(throws: ScenarioError.self) {
            try device.install(code: "AsyncRefresh", infoPlist: plist, source: "Bad-Info.plist")
        }
        #expect(bad?.source == "Bad-Info.plist")
    }

    /// A scenario with the async app and a declarative one: opened, sent home, a Low Power stretch, a task
    /// simulated, locked overnight.
    func equivalenceScenario() -> (Scenario, SwiftAppCatalog) {
        let scripted = BundleID("com.example.news")
        var behaviour = AppBehaviour()
        behaviour.register = ["com.example.news.refresh"]
        behaviour.onEnterBackground = [
            .backgroundTask(name: "save", work: .between(1, 3), leak: false),
            .submit(RequestTemplate(identifier: "com.example.news.refresh", kind: .appRefresh, after: 1800)),
        ]
        let news = ScenarioApp(
            manifest: manifest(scripted.rawValue, identifiers: ["com.example.news.refresh"]), behaviour: behaviour)
        let async = ScenarioApp(
            manifest: manifest(app.rawValue, identifiers: [AsyncRefreshApp.refresh]), code: "AsyncRefresh")
        let timeline = [
            at(1, .open(app)), at(30, .open(scripted)), at(31, .home), at(31, .lock),
            at(400, .setLowPowerMode(true)), at(900.5, .simulateLaunch(app, identifier: AsyncRefreshApp.refresh)),
            at(3000, .setLowPowerMode(false)), at(3000, .setCharging(true)), at(7200, .unlock),
        ]
        let scenario = Scenario(
            name: "equivalence", source: "test", seed: 7, apps: [async, news], timeline: timeline, duration: 12 * 3600)
        let catalog = SwiftAppCatalog(["AsyncRefresh": { AsyncRefreshApp(fetchSeconds: 8, sightings: Sightings()) }])
        return (scenario, catalog)
    }

    @Test func aScenarioAndTheSameTimelinePlayedOnTheDeviceGiveTheSameRecordsByteForByte() throws {
        let (scenario, catalog) = equivalenceScenario()
        let run = try Simulation(scenario: scenario, catalog: catalog).run()
        let device = try TestDevice(scenario: scenario, catalog: catalog)
        device.play(scenario.timeline)
        device.advance(to: Instant(seconds: 12 * 3600))
        let stepped = device.finish()
        #expect(run.count > 20)
        #expect(stepped.map { "\($0)" } == run.map { "\($0)" })
    }

    @Test func aScenarioAndTheSameStepsCalledOneByOneGiveTheSameRecordsByteForByte() throws {
        let (scenario, catalog) = equivalenceScenario()
        let run = try Simulation(scenario: scenario, catalog: catalog).run()
        let device = try TestDevice(scenario: scenario, catalog: catalog)
        let news = BundleID("com.example.news")
        device.advance(to: Instant(seconds: 1))
        device.open(app)
        device.advance(to: Instant(seconds: 30))
        device.open(news)
        device.advance(to: Instant(seconds: 31))
        device.home()
        device.lock()
        device.advance(to: Instant(seconds: 400))
        device.perform(.system(.setLowPowerMode(true)))
        device.advance(to: Instant(seconds: 900.5))
        device.simulateLaunch(app, task: AsyncRefreshApp.refresh)
        device.advance(to: Instant(seconds: 3000))
        device.perform(.system(.setLowPowerMode(false)))
        device.plug()
        device.advance(to: Instant(seconds: 7200))
        device.unlock()
        device.advance(to: Instant(seconds: 12 * 3600))
        let stepped = device.finish()
        #expect(stepped.map { "\($0)" } == run.map { "\($0)" })
    }
}
