import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// An app that decides by the date, as apps do: on each refresh it cleans its database if a week has passed since
/// the last cleaning (`Date()` against a stored date), and asks for the next refresh a day later (`Calendar`).
nonisolated final class WeeklyCleanerApp: UIApplicationDelegate, @unchecked Sendable {
    static let refresh = "com.example.weekly.refresh"
    let sightings: Sightings
    private var lastCleaning = Date()

    init(sightings: Sightings) { self.sightings = sightings }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        lastCleaning = Date()
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            let now = Date.now
            self.sightings.note("refresh at \(now.timeIntervalSince1970)")
            if now.timeIntervalSince(self.lastCleaning) >= 7 * 24 * 3600 {
                self.lastCleaning = now
                self.sightings.note("cleaned at \(now.timeIntervalSince1970)")
            }
            self.submit()
            task.setTaskCompleted(success: true)
        }
        submit()
        return true
    }

    func submit() {
        let request = BGAppRefreshTaskRequest(identifier: Self.refresh)
        request.earliestBeginDate = Calendar.current.date(byAdding: .day, value: 1, to: Date())
        try? BGTaskScheduler.shared.submit(request)
    }
}

@Suite struct VirtualNowTests {
    let app = "com.example.weekly"

    @Test func appCodeReadingDateSeesTheSimulationsTime() throws {
        let sightings = Sightings()
        let run = RealCodeRun(
            apps: [
                (
                    manifest(app, identifiers: [WeeklyCleanerApp.refresh]),
                    { @Sendable in WeeklyCleanerApp(sightings: sightings) }
                )
            ],
            timeline: [at(0, .setBattery(level: 1, charging: true))]
                + (0..<20).flatMap { day in
                    [at(Double(day) * 24 * 3600 + 1, .open(BundleID(app))), at(Double(day) * 24 * 3600 + 60, .home)]
                }, duration: 20 * 24 * 3600)
        let simulation = try run.simulation()
        let records = simulation.run()
        // What the app should have seen: each refresh at its start time on the simulation's wall clock, and a
        // cleaning at the first refresh a week or more after its launch or its last cleaning.
        var expected: [String] = []
        var lastCleaning = 0.0
        for record in records where record.app?.rawValue == app {
            let epoch = simulation.system.wallClock.epoch(at: record.at)
            if record.kind == .launched { lastCleaning = epoch }
            guard record.kind == .started, record.task == WeeklyCleanerApp.refresh else { continue }
            expected.append("refresh at \(epoch)")
            if epoch - lastCleaning >= 7 * 24 * 3600 {
                lastCleaning = epoch
                expected.append("cleaned at \(epoch)")
            }
        }
        #expect(expected.filter { $0.hasPrefix("cleaned") }.count == 2)
        #expect(sightings.lines == expected)
    }
}
