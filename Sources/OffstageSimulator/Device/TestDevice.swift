public import Foundation
public import OffstageCore

/// A simulated device a test steps through: install apps, act as the user or the world, move virtual time, and
/// read the apps' states, requests, records and the battery in between (as `TestClock.advance` and WorkManager's
/// `TestDriver` let tests do).
///
/// It drives the same loop as a scenario's run (`Simulation`), so the same steps give the same records byte for
/// byte; a scenario's timeline is one way to drive it (`play`). Its methods block the caller while virtual time
/// moves (real milliseconds), from a synchronous or an async test alike (`TestDevice.steps` runs them off the
/// caller's thread for an async test); it is not to be used from two threads at once. While it hosts Swift app code, other
/// runs that host Swift code wait for it (`finish()` ends its turn).
public final class TestDevice: @unchecked Sendable {
    /// The run it steps: its records, battery history and system.
    public let simulation: Simulation
    private let catalog: SwiftAppCatalog
    /// Whether it holds the turn of runs hosting Swift code (`Simulation.swiftCodeRuns`).
    private var holdsSwiftCodeTurn = false
    private var finished = false

    /// A device with the scenario's apps installed, its conditions, settings, policy and seed; its timeline is
    /// not played (`play` does). Throws when an app's Swift code is not in `catalog`.
    public init(
        scenario: Scenario = Scenario(name: "test device", source: "TestDevice"),
        catalog: SwiftAppCatalog = SwiftAppCatalog()
    ) throws(ScenarioError) {
        var apps = scenario
        apps.timeline = []
        simulation = try Simulation(scenario: apps, catalog: catalog)
        self.catalog = catalog
        takeSwiftCodeTurnIfNeeded()
        simulation.step(to: .zero, including: false) { $0.installScenarioApps() }
    }

    deinit { endSwiftCodeTurn() }

    // MARK: Apps

    /// Installs an app now: a declarative one, or Swift code from the catalog by its `code` name. Throws when the
    /// code is not in the catalog, or an app with this bundle identifier is installed already.
    public func install(_ app: ScenarioApp) throws(ScenarioError) {
        let id = app.manifest.bundleIdentifier
        try Simulation.requireCode(of: app, in: catalog, source: simulation.scenario.source)
        guard !simulation.scenario.apps.contains(where: { $0.manifest.bundleIdentifier == id }) else {
            throw ScenarioError(
                source: simulation.scenario.source, field: "apps[\(id)]", message: "'\(id)' is installed already")
        }
        simulation.scenario.apps.append(app)
        takeSwiftCodeTurnIfNeeded()
        simulation.step(to: now, including: false) { $0.install(app) }
    }

    /// Installs the catalog's Swift app `code` with the Info.plist in `infoPlist` (XML or binary); errors name
    /// `source` and the plist's field at fault.
    public func install(code: String, infoPlist: Data, source: String, memoryFootprint: Int? = nil)
        throws(ScenarioError)
    {
        let manifest: AppManifest
        do {
            manifest = try AppManifest(plist: infoPlist, source: source)
        } catch {
            throw ScenarioError(source: error.source, field: error.field, message: error.message)
        }
        try install(ScenarioApp(manifest: manifest, code: code, memoryFootprint: memoryFootprint))
    }

    // MARK: The user and the world

    /// The user opens the app (launching it if it is not running).
    public func open(_ app: BundleID) { perform(.system(.open(app))) }
    /// The user goes to the home screen.
    public func home() { perform(.system(.home)) }
    public func lock() { perform(.system(.lock)) }
    public func unlock() { perform(.system(.unlock)) }
    /// The charger is plugged in or out.
    public func plug() { perform(.system(.setCharging(true))) }
    public func unplug() { perform(.system(.setCharging(false))) }
    public func setNetwork(_ network: NetworkKind) { perform(.system(.setNetwork(network))) }
    /// What a suspended app hears when the system resumes it in the background: Apple's documented order
    /// (`.didEnterBackground`, the default) or the event alone (`.none`), so a test can check the app works either way.
    public func setResumeCallback(_ callback: ResumeCallback) { perform(.system(.setResumeCallback(callback))) }
    /// A background push arrives for the app.
    public func push(_ app: BundleID, payload: String = "") { perform(.system(.backgroundPush(app, payload: payload))) }
    /// A notification of the app comes up now, as a scenario's `notification APP` step (a server's alert).
    public func showNotification(_ app: BundleID) { perform(.system(.notificationShown(app))) }
    /// The user taps the app's delivered notification with this identifier (nil: the newest) in Notification
    /// Center: the app opens and its notification delegate gets `didReceive`.
    public func tapNotification(_ app: BundleID, identifier: String? = nil) {
        perform(.system(.notificationTapped(app, identifier: identifier)))
    }
    /// The user swipes the app away in the switcher (a force-quit).
    public func forceQuit(_ app: BundleID) { perform(.system(.swipeAway(app))) }
    /// The user taps a named control of the app on screen (its `performUserAction`).
    public func tap(_ app: BundleID, _ control: String) { perform(.tap(app, action: control)) }

    /// Anything else that happens to the device (Low Power Mode, thermal state, memory pressure, the wall clock…),
    /// now; then the work it causes at this instant runs.
    public func perform(_ action: UserAction) {
        simulation.inject(action)
        simulation.step(to: now, including: true)
    }

    // MARK: Tasks

    /// `_simulateLaunchForTaskWithIdentifier:` as the debugger calls it: the app's pending request starts now,
    /// whatever blocks it.
    public func simulateLaunch(_ app: BundleID, task identifier: String) {
        perform(.system(.simulateLaunch(app, identifier: identifier)))
    }

    /// `_simulateExpirationForTaskWithIdentifier:`: the app's running task expires now.
    public func simulateExpiration(_ app: BundleID, task identifier: String) {
        perform(.system(.simulateExpiration(app, identifier: identifier)))
    }

    /// WorkManager's `TestDriver.setAllConstraintsMet`: the pending request's conditions count as met now, so it
    /// starts (as a simulated launch does). Returns what blocked it until now; empty if it was not pending.
    @discardableResult
    public func setAllConstraintsMet(for identifier: String, of app: BundleID) -> [Blocker] {
        let pending = requests(of: app).first { $0.request.identifier == identifier && $0.phase == .pending }
        guard let pending else { return [] }
        simulateLaunch(app, task: identifier)
        return pending.blockers
    }

    // MARK: Time

    /// Virtual time now.
    public var now: Instant { simulation.now }

    /// Why the device stopped, if its virtual time could not move on (the same instant repeating, or app code
    /// held outside the simulator): every step after it does nothing, and the records end there.
    public var stall: SimulationStall? { simulation.stall }

    /// Moves virtual time on by `seconds`, running everything due up to and including the new now.
    public func advance(by seconds: Double) { advance(to: now + max(0, seconds)) }

    /// Moves virtual time to `time` (not back), running everything due up to and including it.
    public func advance(to time: Instant) { simulation.step(to: time, including: true) }

    /// Moves virtual time one step at a time until `condition` holds, for at most `limit` seconds; true if it
    /// held (checked before the first step too). Time stops at the step where it first holds, or at a stall.
    @discardableResult
    public func advance(until condition: (TestDevice) -> Bool, within limit: Double = 86_400) -> Bool {
        let deadline = now + max(0, limit)
        while !condition(self) {
            guard stall == nil else { return false }
            guard let next = simulation.upcomingStep, next <= deadline else {
                advance(to: deadline)
                return condition(self)
            }
            advance(to: next)
        }
        return true
    }

    /// Runs until no app has work under way (no task running, no `beginBackgroundTask` outstanding, no app in the
    /// background that is not suspended), for at most `limit` seconds; true if the device became idle.
    @discardableResult
    public func runUntilIdle(within limit: Double = 3_600) -> Bool {
        advance(until: { $0.isIdle }, within: limit)
    }

    /// Whether no app has background work under way now.
    public var isIdle: Bool {
        let system = simulation.systemNow
        return system.runningTasks.isEmpty
            && simulation.scenario.apps.map(\.manifest.bundleIdentifier).allSatisfy { app in
                system.app(app).outstandingAssertions.isEmpty && system.app(app).state != .background
            }
    }

    /// Plays a scenario's timeline from now on, each entry at its time as a scenario's run does (an entry runs
    /// before the work queued for its instant): the same entries give the same records as `Simulation.run`.
    public func play(_ timeline: [TimelineEntry]) {
        for entry in timeline.sorted(by: { $0.at < $1.at }) where entry.at >= now.seconds {
            simulation.step(to: Instant(seconds: entry.at), including: false)
            simulation.inject(entry.action)
        }
    }

    /// Ends the run at now with the final tick a scenario's run makes, and ends the device's turn for Swift code.
    /// Returns every record; nothing more may be done with the device.
    @discardableResult
    public func finish() -> [Record] {
        if !finished {
            finished = true
            simulation.finishSteps()
        }
        endSwiftCodeTurn()
        return simulation.records
    }

    /// Makes a device with `scenario` and `catalog`, runs `steps` on it on a thread of their own, finishes it and
    /// then resumes the caller: an async test steps a device this way without blocking its cooperative thread and
    /// without holding the process's turn of Swift-code runs across an `await` (tests waiting for that turn block
    /// their threads, so a turn held while suspended could wait for them forever).
    public static func steps<Result: Sendable>(
        scenario: Scenario = Scenario(name: "test device", source: "TestDevice"),
        catalog: SwiftAppCatalog = SwiftAppCatalog(),
        _ steps: @escaping @Sendable (TestDevice) throws -> Result
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    with: Swift.Result {
                        let device = try TestDevice(scenario: scenario, catalog: catalog)
                        defer { device.finish() }
                        return try steps(device)
                    })
            }
            thread.name = "offstage test device"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    // MARK: Reading

    /// The app's life-cycle state now.
    public func state(of app: BundleID) -> AppState { simulation.systemNow.app(app).state }

    /// The app's requests not yet finished: pending ones with every constraint that blocks each now, queued
    /// continued-processing ones, and running ones.
    public func requests(of app: BundleID) -> [RequestStatus] {
        simulation.systemNow.explain().filter { $0.app == app }
    }

    /// The app's outstanding `beginBackgroundTask` identifiers.
    public func backgroundTasks(of app: BundleID) -> [Int] { simulation.systemNow.app(app).outstandingAssertions }

    /// The device's conditions now: battery level and charger, network, thermal state, screen and lock.
    public var conditions: DeviceState { simulation.systemNow.device }

    /// The battery's level now, 0–1.
    public var batteryLevel: Double { conditions.batteryLevel }

    /// A point in the records, to read what happened after it (`records(since:)`).
    public func mark() -> RecordMark { RecordMark(count: simulation.records.count) }

    /// The records made since `mark`, oldest first; with `app`, only that app's.
    public func records(since mark: RecordMark = .start, of app: BundleID? = nil) -> [Record] {
        let records = simulation.records.dropFirst(mark.count)
        guard let app else { return Array(records) }
        return records.filter { $0.app == app }
    }

    // MARK: The turn of runs hosting Swift code

    /// Takes the process-wide turn once the device hosts Swift code (its first such app).
    private func takeSwiftCodeTurnIfNeeded() {
        guard !holdsSwiftCodeTurn, simulation.hostsSwiftCode else { return }
        Simulation.swiftCodeRuns.wait()
        holdsSwiftCodeTurn = true
    }

    /// Lets other runs that host Swift code go on.
    private func endSwiftCodeTurn() {
        guard holdsSwiftCodeTurn else { return }
        holdsSwiftCodeTurn = false
        Simulation.swiftCodeRuns.signal()
    }
}

/// A point in a device's records: how many there were when it was taken.
public struct RecordMark: Hashable, Sendable {
    /// The number of records made before the mark.
    public var count: Int

    /// The mark before the first record (every record comes after it).
    public static let start = RecordMark(count: 0)
}
