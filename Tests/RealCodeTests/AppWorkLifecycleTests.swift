import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// An app whose refresh ignores its expiration (the system kills it) and whose pending work would finish the
/// task late; and whose delayed main-queue work falls due while it is suspended.
nonisolated final class StubbornApp: UIApplicationDelegate, @unchecked Sendable {
    static let refresh = "com.example.stubborn.refresh"
    let sightings: Sightings

    init(sightings: Sightings) { self.sightings = sightings }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            task.expirationHandler = { self.sightings.note("expiration ignored") }
            Task {
                try? await Task.sleep(for: .seconds(600))
                self.sightings.note("late completion")
                task.setTaskCompleted(success: true)
            }
            DispatchQueue.global().async {
                Thread.sleep(forTimeInterval: 700)
                self.sightings.note("late work")
            }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        submitAppRefresh(Self.refresh, after: 24 * 3600)
        let left = Date()
        DispatchQueue.main.asyncAfter(deadline: .now() + 60) {
            self.sightings.note("delayed work ran \(Date().timeIntervalSince(left)) s after leaving")
        }
    }
}

@Suite struct AppWorkLifecycleTests {
    let app = "com.example.stubborn"

    /// The app's refresh launched at 100 s (see `RealCodeRun.launchingTask`), then the entries of `then`.
    func refreshRun(then: [TimelineEntry] = [], sightings: Sightings) -> RealCodeRun {
        .launchingTask(
            StubbornApp.refresh, of: manifest(app, identifiers: [StubbornApp.refresh]), then: then, duration: 2000
        ) { @Sendable in StubbornApp(sightings: sightings) }
    }

    @Test func killedAppsPendingWorkIsDroppedWithoutCrashingTheHost() throws {
        let sightings = Sightings()
        let records = try refreshRun(sightings: sightings).run()
        #expect(records.of(.terminated, app).count == 1)
        #expect(!sightings.lines.contains("late completion"))
        #expect(!sightings.lines.contains("late work"))
        #expect(sightings.lines.contains("expiration ignored"))
    }

    @Test func suspendedAppsDelayedWorkWaitsForItsResume() throws {
        let sightings = Sightings()
        let records = try RealCodeRun(
            apps: [
                (manifest(app, identifiers: [StubbornApp.refresh]), { @Sendable in StubbornApp(sightings: sightings) })
            ],
            timeline: [at(1, .open(BundleID(app))), at(10, .home), at(200, .open(BundleID(app)))], duration: 400
        ).run()
        #expect(records.of(.suspended, app).map(\.at.seconds) == [10])
        #expect(sightings.lines == ["delayed work ran 190.0 s after leaving"])
    }

    @Test func killedAppGivesTheSameRecordsInTwentyRuns() throws {
        let run = refreshRun(then: [at(1500, .open(BundleID(app)))], sightings: Sightings())
        #expect(Set(try run.texts(runs: 20)).count == 1)
    }
}
