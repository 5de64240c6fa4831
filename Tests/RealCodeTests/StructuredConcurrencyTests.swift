import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// The rest of Swift concurrency in a refresh: `async let`, a task group, an actor, `Task.detached`, a checked
/// continuation resumed from a queue, `Task.sleep(until:clock:)`, `Task.sleep(for:tolerance:)` and `MainActor.run`.
final class StructuredRefreshApp: UIApplicationDelegate, @unchecked Sendable {
    static let refresh = "com.example.structured.refresh"
    let sightings: Sightings

    init(sightings: Sightings) { self.sightings = sightings }

    /// The feed's store, kept by an actor.
    actor Store {
        private(set) var items: [String] = []
        func add(_ item: String) { items.append(item) }
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            Task.detached { await self.refresh(task) }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        submitAppRefresh(Self.refresh, after: 24 * 3600)
    }

    func refresh(_ task: BGTask) async {
        let started = Date()
        let store = Store()
        async let headlines = fetch("headlines", seconds: 2)
        async let weather = fetch("weather", seconds: 3)
        await store.add(await headlines)
        await store.add(await weather)
        await withTaskGroup(of: String.self) { group in
            for (name, seconds) in [("sports", 4.0), ("markets", 1.0)] {
                group.addTask { await self.fetch(name, seconds: seconds) }
            }
            for await item in group { await store.add(item) }
        }
        let confirmed: String = await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) { continuation.resume(returning: "confirmed") }
        }
        try? await Task.sleep(until: .now + .seconds(1), clock: .continuous)
        // With a tolerance, the runtime arms a timer source whose handler it sets by function.
        try? await Task.sleep(for: .seconds(1), tolerance: .seconds(1))
        let items = await store.items
        let state = await MainActor.run { UIApplication.shared.applicationState }
        sightings.note(
            "\(items.joined(separator: ", ")), \(confirmed) after \(Date().timeIntervalSince(started)) s, "
                + "state \(state.rawValue)")
        task.setTaskCompleted(success: true)
    }

    func fetch(_ name: String, seconds: Double) async -> String {
        try? await Task.sleep(for: .seconds(seconds))
        return name
    }
}

@Suite struct StructuredConcurrencyTests {
    let app = "com.example.structured"

    func scenario(sightings: Sightings) -> RealCodeRun {
        .launchingTask(
            StructuredRefreshApp.refresh, of: manifest(app, identifiers: [StructuredRefreshApp.refresh]),
            duration: 300
        ) { @Sendable in StructuredRefreshApp(sightings: sightings) }
    }

    @Test func structuredConcurrencyRunsInVirtualTimeAsTheApp() throws {
        let sightings = Sightings()
        let records = try scenario(sightings: sightings).run()
        // 3 s for the two `async let`s (together), 4 s for the group (together), 1 s continuation, 1 s sleep,
        // 1 s sleep with a tolerance.
        #expect(sightings.lines == ["headlines, weather, markets, sports, confirmed after 10.0 s, state 2"])
        #expect(records.of(.completed, app, task: StructuredRefreshApp.refresh).map(\.at.seconds) == [110])
    }

    @Test func structuredConcurrencyGivesTheSameRecordsInTwentyRuns() throws {
        #expect(Set(try scenario(sightings: Sightings()).texts(runs: 20)).count == 1)
    }
}
