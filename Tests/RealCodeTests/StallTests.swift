import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// The silent-audio keep-alive pattern: a `Task` loop that ends its background task and begins a new one every
/// 10 s, its expiration handler starting the loop again; with `playsAudio`, audio starts playing first (the
/// seam AVFoundation's player reports through, `OffstageBackgroundActivity.audio`).
nonisolated final class KeepAliveLoopApp: UIApplicationDelegate, @unchecked Sendable {
    let sightings: Sightings
    let playsAudio: Bool
    private var taskID = UIBackgroundTaskIdentifier.invalid

    init(sightings: Sightings, playsAudio: Bool) {
        self.sightings = sightings
        self.playsAudio = playsAudio
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        if playsAudio { OffstageBackgroundActivity.audio.begin() }
        startLoop()
    }

    private func startLoop() {
        Task { @MainActor in
            while true {
                let previous = self.taskID
                self.taskID = UIApplication.shared.beginBackgroundTask(withName: "renewal") {
                    self.sightings.note("expired")
                    self.startLoop()
                }
                if previous != .invalid { UIApplication.shared.endBackgroundTask(previous) }
                self.sightings.note("renewed")
                try? await Task.sleep(for: .seconds(10))
            }
        }
    }
}

/// An app whose code blocks its thread for good, outside the simulator's control (a condition never signalled).
nonisolated final class BlockedApp: UIApplicationDelegate, @unchecked Sendable {
    private let saveQueue = DispatchQueue(label: "com.example.blocked.save")

    func applicationDidEnterBackground(_ application: UIApplication) {
        saveQueue.async {
            let never = NSCondition()
            never.lock()
            while true { never.wait() }
        }
    }
}

/// An app whose code busy-waits on the clock for a second: virtual time does not move while its code holds the
/// loop, so the wait never ends by itself (it gives up when the test releases it, or after `maxSpins`).
nonisolated final class BusyWaitApp: UIApplicationDelegate, @unchecked Sendable {
    static let maxSpins = 50_000_000
    private let saveQueue = DispatchQueue(label: "com.example.busy.save")
    private let lock = NSLock()
    private var isReleased = false

    /// Ends the busy wait, so the test leaves no thread spinning behind it.
    func release() { lock.withLock { isReleased = true } }

    func applicationDidEnterBackground(_ application: UIApplication) {
        saveQueue.async {
            let end = Date().addingTimeInterval(1)
            var spins = 0
            while Date() < end, spins < Self.maxSpins, !self.lock.withLock({ self.isReleased }) { spins += 1 }
        }
    }
}

/// Apple's ColorFeed pattern: an `OperationQueue` operation that sleeps (`Thread.sleep`) under a lock, as its delete
/// operation does inside `performAndWait`, while a background task covers it.
nonisolated final class SleepUnderLockApp: UIApplicationDelegate, @unchecked Sendable {
    let sightings: Sightings
    private let operations = OperationQueue()
    private let store = NSLock()

    init(sightings: Sightings) { self.sightings = sightings }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let started = Date()
        let taskID = application.beginBackgroundTask(withName: "delete", expirationHandler: nil)
        operations.addOperation {
            self.store.withLock { Thread.sleep(forTimeInterval: 2) }
            self.sightings.note("deleted after \(Date().timeIntervalSince(started)) s")
            DispatchQueue.main.async { UIApplication.shared.endBackgroundTask(taskID) }
        }
    }
}

@Suite struct StallTests {
    let app = "com.example.stall"

    /// The app opened at 1 s and sent home at 10 s.
    func run(
        _ make: @escaping @MainActor @Sendable () -> any UIApplicationDelegate, limits: StallLimits = StallLimits()
    ) throws
        -> (Simulation, [Record])
    {
        let manifest = AppManifest(bundleIdentifier: BundleID(app), backgroundModes: [.audio])
        let simulation = try RealCodeRun(
            apps: [(manifest, make)], timeline: [at(1, .open(BundleID(app))), at(10, .home)], duration: 600
        ).simulation()
        simulation.stallLimits = limits
        return (simulation, simulation.run())
    }

    @Test func theKeepAliveLoopWithoutAudioEndsWithAStallNotAHang() throws {
        let sightings = Sightings()
        var limits = StallLimits()
        limits.piecesAtOneInstant = 1000
        let (simulation, records) = try run(
            { KeepAliveLoopApp(sightings: sightings, playsAudio: false) }, limits: limits)
        let stall = try #require(simulation.stall)
        // Renewed at 10, 20 and 30 s; at 35 s the background time runs out and each new assertion expires at once,
        // its handler starting the loop again at that same instant.
        #expect(stall.kind == .sameInstant(pieces: 1000))
        #expect(stall.at.seconds == 35)
        #expect(stall.app == BundleID(app))
        #expect(stall.queue == "the queue 'Swift global concurrent queue'")
        #expect(stall.running == "work it queued")
        #expect("\(stall)".contains("com.example.stall"))
        #expect(records.of(.launched, app).count == 1)
        #expect(sightings.lines.filter { $0 == "expired" }.count > 100)
    }

    @Test func theKeepAliveLoopKeepsRunningWhileAudioPlays() throws {
        let sightings = Sightings()
        let (simulation, records) = try run({ KeepAliveLoopApp(sightings: sightings, playsAudio: true) })
        #expect(simulation.stall == nil)
        #expect(records.of(.terminated, app).isEmpty)
        #expect(records.of(.suspended, app).isEmpty)
        // Renewed at 10 s, then every 10 s until the run ends at 600 s.
        #expect(sightings.lines.filter { $0 == "renewed" }.count == 60)
    }

    @Test func appCodeBlockedOutsideTheSimulatorStopsTheRunInRealSecondsNamingItsQueue() throws {
        var limits = StallLimits()
        limits.realSecondsHeld = 0.5
        let (simulation, records) = try run({ BlockedApp() }, limits: limits)
        let stall = try #require(simulation.stall)
        #expect(stall.kind == .appCodeHeld(realSeconds: 0.5))
        #expect(stall.app == BundleID(app))
        #expect(stall.queue == "the queue 'com.example.blocked.save'")
        #expect(stall.running == "work it queued")
        #expect(stall.at.seconds == 10)
        #expect(records.of(.launched, app).count == 1)
    }

    @Test func appCodeBusyWaitingOnTheClockStopsTheRunInRealSecondsNamingItsQueue() throws {
        let busy = BusyWaitApp()
        defer { busy.release() }
        var limits = StallLimits()
        limits.realSecondsHeld = 0.5
        let (simulation, _) = try run({ busy }, limits: limits)
        let stall = try #require(simulation.stall)
        #expect(stall.kind == .appCodeHeld(realSeconds: 0.5))
        #expect(stall.queue == "the queue 'com.example.busy.save'")
        #expect(stall.at.seconds == 10)
    }

    @Test func colorFeedsDeletePatternCompletesInVirtualTime() throws {
        let sightings = Sightings()
        let manifest = AppManifest(
            bundleIdentifier: BundleID(app), backgroundModes: [.processing],
            permittedIdentifiers: [ColorFeedDeletePatternApp.cleanup])
        let simulation = try RealCodeRun.launchingTask(ColorFeedDeletePatternApp.cleanup, of: manifest) {
            ColorFeedDeletePatternApp(sightings: sightings)
        }.simulation()
        simulation.stallLimits.realSecondsHeld = 5
        let records = simulation.run()
        #expect(simulation.stall == nil)
        #expect(sightings.lines == ["deleted after 6.0 s"])
        let completed = try #require(records.of(.completed, app, task: ColorFeedDeletePatternApp.cleanup).first)
        #expect(completed.at.seconds == 106)
        #expect(records.of(.terminated, app).isEmpty)
    }

    @Test func threadSleepUnderALockInAnOperationRunsInVirtualTime() throws {
        let sightings = Sightings()
        var limits = StallLimits()
        limits.realSecondsHeld = 5
        let (simulation, records) = try run({ SleepUnderLockApp(sightings: sightings) }, limits: limits)
        #expect(simulation.stall == nil)
        #expect(sightings.lines == ["deleted after 2.0 s"])
        #expect(records.of(.terminated, app).isEmpty)
    }
}

/// Apple's ColorFeed delete pattern: a processing task's handler adds an operation to an `OperationQueue`; the
/// operation works in batches inside the store's `performAndWait` (a serial queue's `sync`, as a private-queue
/// context's is) under a lock, sleeping with `Thread.sleep` between batches; the operation's completion block
/// completes the task, and the expiration handler cancels the queue.
nonisolated final class ColorFeedDeletePatternApp: UIApplicationDelegate, @unchecked Sendable {
    static let cleanup = "com.example.stall.cleanup"
    let sightings: Sightings
    private let operations: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
    private let context = DispatchQueue(label: "NSManagedObjectContext")
    private let store = NSLock()

    init(sightings: Sightings) { self.sightings = sightings }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.cleanup, using: nil) { task in
            self.handleCleanup(task as! BGProcessingTask)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: Self.cleanup))
    }

    /// `performAndWait`: the block runs on the context's queue while the caller waits.
    private func performAndWait(_ block: () -> Void) { context.sync(execute: block) }

    private func handleCleanup(_ task: BGProcessingTask) {
        let started = Date()
        let delete = BlockOperation()
        delete.addExecutionBlock { [unowned delete] in
            self.performAndWait {
                self.store.withLock {
                    for _ in 0..<3 where !delete.isCancelled { Thread.sleep(forTimeInterval: 2) }
                }
            }
        }
        delete.completionBlock = {
            self.sightings.note("deleted after \(Date().timeIntervalSince(started)) s")
            task.setTaskCompleted(success: !delete.isCancelled)
        }
        task.expirationHandler = { self.operations.cancelAllOperations() }
        operations.addOperation(delete)
    }
}

/// The stall watch covers the stepping device (`TestDevice`) as it covers a scenario's run: each kind of stall ends
/// the step with the stall, and the steps after it return at once.
@Suite(.serialized) struct SteppedStallTests {
    let app = BundleID("com.example.stall")

    func device(_ make: @escaping @MainActor @Sendable () -> any UIApplicationDelegate, limits: StallLimits) throws
        -> TestDevice
    {
        let device = try TestDevice(catalog: SwiftAppCatalog(["Stall": make]))
        device.simulation.stallLimits = limits
        try device.install(
            ScenarioApp(manifest: AppManifest(bundleIdentifier: app, backgroundModes: [.audio]), code: "Stall"))
        return device
    }

    @Test func aSteppedAppBlockedOutsideTheSimulatorEndsWithTheStallNotAHang() throws {
        var limits = StallLimits()
        limits.realSecondsHeld = 0.5
        let device = try device({ BlockedApp() }, limits: limits)
        defer { device.finish() }
        device.open(app)
        device.advance(by: 10)
        device.home()
        let stall = try #require(device.stall)
        #expect(stall.kind == .appCodeHeld(realSeconds: 0.5))
        #expect(stall.queue == "the queue 'com.example.blocked.save'")
        #expect(stall.at.seconds == 10)
        // Every step after the stall returns at once: time stays where the run stopped.
        #expect(!device.runUntilIdle(within: 3600))
        device.advance(by: 60)
        #expect(device.now.seconds == 10)
        #expect(device.records(of: app).contains { $0.kind == .launched })
    }

    @Test func aSteppedAppRepeatingOneInstantEndsWithTheStallNotAHang() throws {
        let sightings = Sightings()
        var limits = StallLimits()
        limits.piecesAtOneInstant = 1000
        let device = try device({ KeepAliveLoopApp(sightings: sightings, playsAudio: false) }, limits: limits)
        defer { device.finish() }
        device.open(app)
        device.advance(by: 10)
        device.home()
        #expect(!device.advance(until: { _ in false }, within: 600))
        let stall = try #require(device.stall)
        #expect(stall.kind == .sameInstant(pieces: 1000))
        #expect(stall.at.seconds == 35)
        #expect(stall.app == app)
        #expect(device.now.seconds == 35)
    }
}
