import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// An app refresh written as iOS apps write it today: the launch handler starts a `Task` that awaits a helper
/// and `Task.sleep`, the expiration handler cancels it.
nonisolated final class AsyncRefreshApp: UIApplicationDelegate, @unchecked Sendable {
    static let refresh = "com.example.async.refresh"
    let fetchSeconds: Double
    let sightings: Sightings
    private var refreshTask: Task<Void, Never>?

    init(fetchSeconds: Double, sightings: Sightings) {
        self.fetchSeconds = fetchSeconds
        self.sightings = sightings
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            self.handleAppRefresh(task: task as! BGAppRefreshTask)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) { scheduleAppRefresh() }

    func scheduleAppRefresh() {
        submitAppRefresh(Self.refresh, after: 15 * 60)
    }

    func handleAppRefresh(task: BGAppRefreshTask) {
        let started = Date()
        refreshTask = Task {
            do {
                let entries = try await fetchLatestEntries()
                sightings.note("fetched \(entries) after \(Date().timeIntervalSince(started)) s")
                task.setTaskCompleted(success: true)
            } catch {
                sightings.note("cancelled after \(Date().timeIntervalSince(started)) s")
                task.setTaskCompleted(success: false)
            }
        }
        task.expirationHandler = { self.refreshTask?.cancel() }
    }

    /// Stands in for a network fetch: half the time in one sleep, half in another form of sleep.
    func fetchLatestEntries() async throws -> Int {
        try await Task.sleep(nanoseconds: UInt64(fetchSeconds / 2 * 1e9))
        try await Task.sleep(for: .seconds(fetchSeconds / 2))
        return 3
    }
}

@Suite struct AsyncRefreshTests {
    let app = "com.example.async"

    func scenario(fetchSeconds: Double, sightings: Sightings) -> RealCodeRun {
        .launchingTask(
            AsyncRefreshApp.refresh, of: manifest(app, identifiers: [AsyncRefreshApp.refresh]), duration: 400
        ) { @Sendable in AsyncRefreshApp(fetchSeconds: fetchSeconds, sightings: sightings) }
    }

    @Test func asyncRefreshCompletesAfterItsAwaitedSleepsInVirtualTime() throws {
        let sightings = Sightings()
        let records = try scenario(fetchSeconds: 8, sightings: sightings).run()
        let refresh = AsyncRefreshApp.refresh
        #expect(records.of(.started, app, task: refresh).map(\.at.seconds) == [100])
        #expect(records.of(.completed, app, task: refresh).map(\.at.seconds) == [108])
        #expect(records.of(.completed, app, task: refresh).first?.succeeded == true)
        #expect(sightings.lines == ["fetched 3 after 8.0 s"])
        #expect(records.of(.terminated, app).isEmpty)
    }

    @Test func asyncRefreshThatTakesTooLongIsCancelledByItsExpirationHandler() throws {
        let sightings = Sightings()
        let records = try scenario(fetchSeconds: 200, sightings: sightings).run()
        let refresh = AsyncRefreshApp.refresh
        let expired = records.of(.expired, app, task: refresh)
        #expect(expired.count == 1)
        let completed = records.of(.completed, app, task: refresh)
        #expect(completed.map(\.at) == expired.map(\.at))
        #expect(completed.first?.succeeded == false)
        #expect(sightings.lines.count == 1 && sightings.lines[0].hasPrefix("cancelled after"))
        #expect(records.of(.killed, app).isEmpty)
    }

    @Test func asyncRefreshGivesTheSameRecordsInTwentyRuns() throws {
        let texts = try scenario(fetchSeconds: 8, sightings: Sightings()).texts(runs: 20)
        #expect(Set(texts).count == 1)
    }
}
