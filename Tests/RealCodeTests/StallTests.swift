import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// The silent-audio keep-alive pattern: a `Task` loop that ends its background task and begins a new one every
/// 10 s, its expiration handler starting the loop again; with `playsAudio`, audio starts playing first (the
/// seam AVFoundation's player reports through, `OffstageBackgroundActivity.audio`).
final class KeepAliveLoopApp: UIApplicationDelegate, @unchecked Sendable {
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
final class BlockedApp: UIApplicationDelegate, @unchecked Sendable {
    private let saveQueue = DispatchQueue(label: "com.example.blocked.save")

    func applicationDidEnterBackground(_ application: UIApplication) {
        saveQueue.async {
            let never = NSCondition()
            never.lock()
            while true { never.wait() }
        }
    }
}

/// Apple's ColorFeed pattern: an `OperationQueue` operation that sleeps (`Thread.sleep`) under a lock, as its delete
/// operation does inside `performAndWait`, while a background task covers it.
final class SleepUnderLockApp: UIApplicationDelegate, @unchecked Sendable {
    let sightings: Sightings
    private let operations = OperationQueue()
    private let store = NSLock()

    init(sightings: Sightings) { self.sightings = sightings }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let started = Date()
        let taskID = UIApplication.shared.beginBackgroundTask(withName: "delete", expirationHandler: nil)
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
    func run(_ make: @escaping @Sendable () -> any UIApplicationDelegate, limits: StallLimits = StallLimits()) throws
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
