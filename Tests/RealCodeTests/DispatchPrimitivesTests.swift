import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// A refresh that waits the ways GCD code waits: `DispatchGroup.wait`, `DispatchSemaphore.wait(timeout:)` that
/// succeeds and one that times out, `concurrentPerform`, a `sync` read after `async` writes on a serial queue, and
/// `DispatchGroup.notify` on the main queue.
nonisolated final class DispatchWaitsApp: UIApplicationDelegate, @unchecked Sendable {
    static let refresh = "com.example.gcd.refresh"
    let sightings: Sightings

    init(sightings: Sightings) { self.sightings = sightings }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            self.refresh(task)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        submitAppRefresh(Self.refresh, after: 24 * 3600)
    }

    func refresh(_ task: BGTask) {
        let started = Date()
        func note(_ what: String) { sightings.note("\(what) at +\(Date().timeIntervalSince(started)) s") }
        let group = DispatchGroup()
        for index in 1...3 {
            group.enter()
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(index)) { group.leave() }
        }
        group.wait()
        note("group waited")
        let semaphore = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 4) { semaphore.signal() }
        note("semaphore \(semaphore.wait(timeout: .now() + 10) == .success ? "signalled" : "timed out")")
        note("semaphore \(semaphore.wait(timeout: .now() + 5) == .success ? "signalled" : "timed out")")
        let store = QueueGuardedStore()
        DispatchQueue.concurrentPerform(iterations: 3) { index in
            _ = BGTaskScheduler.shared  // each iteration runs as the app
            store.add(index + 1)
        }
        note("read \(store.all)")
        let last = DispatchGroup()
        DispatchQueue.global().async(group: last) { Thread.sleep(forTimeInterval: 1) }
        last.notify(queue: .main) {
            dispatchPrecondition(condition: .onQueue(.main))
            note("notified on the main queue")
            task.setTaskCompleted(success: true)
        }
    }
}

/// A store guarded by a serial queue, as apps write them: writes `async`, reads `sync`.
final class QueueGuardedStore: @unchecked Sendable {
    private let queue = DispatchQueue(label: "com.example.gcd.store")
    private var values: [Int] = []

    func add(_ value: Int) { queue.async { self.values.append(value) } }

    var all: [Int] { queue.sync { values } }
}

@Suite struct DispatchPrimitivesTests {
    let app = "com.example.gcd"

    func scenario(sightings: Sightings) -> RealCodeRun {
        .launchingTask(
            DispatchWaitsApp.refresh, of: manifest(app, identifiers: [DispatchWaitsApp.refresh]), duration: 300
        ) { @Sendable in DispatchWaitsApp(sightings: sightings) }
    }

    @Test func dispatchWaitsAndNotificationsTakeVirtualTime() throws {
        let sightings = Sightings()
        let records = try scenario(sightings: sightings).run()
        #expect(
            sightings.lines == [
                "group waited at +3.0 s", "semaphore signalled at +7.0 s", "semaphore timed out at +12.0 s",
                "read [1, 2, 3] at +12.0 s",
                "notified on the main queue at +13.0 s",
            ])
        #expect(records.of(.completed, app, task: DispatchWaitsApp.refresh).map(\.at.seconds) == [113])
    }

    @Test func dispatchWaitsGiveTheSameRecordsInTwentyRuns() throws {
        let texts = try scenario(sightings: Sightings()).texts(runs: 20)
        #expect(Set(texts).count == 1)
    }
}
