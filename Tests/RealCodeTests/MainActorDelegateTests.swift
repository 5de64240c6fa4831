import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// A `@MainActor` app delegate, as Swift 6 apps write it: it registers its refresh `using: .main`, hops into the
/// main actor with `MainActor.assumeIsolated`, and starts `Task { @MainActor in … }` for the work.
@MainActor final class MainActorRefreshDelegate: UIApplicationDelegate {
    nonisolated static let refresh = "com.example.mainactor.refresh"
    let fetchSeconds: Double
    let sightings: Sightings
    var lastRefresh: Date?

    /// Made by the system when it launches the app (UIKit makes the delegate from `UIApplicationMain`).
    nonisolated init(fetchSeconds: Double, sightings: Sightings) {
        self.fetchSeconds = fetchSeconds
        self.sightings = sightings
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: .main) { task in
            MainActor.assumeIsolated { self.handleAppRefresh(task: task as! BGAppRefreshTask) }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        submitAppRefresh(Self.refresh, after: 15 * 60)
    }

    func handleAppRefresh(task: BGAppRefreshTask) {
        let work = Task { @MainActor in
            do {
                try await Task.sleep(for: .seconds(fetchSeconds))
                lastRefresh = Date()
                sightings.note("refreshed at \(lastRefresh!.timeIntervalSince1970), main queue: \(onMainQueue())")
                task.setTaskCompleted(success: true)
            } catch {
                sightings.note("cancelled, main queue: \(onMainQueue())")
                task.setTaskCompleted(success: false)
            }
        }
        task.expirationHandler = {
            MainActor.assumeIsolated { self.sightings.note("expiring, main queue: \(onMainQueue())") }
            work.cancel()
        }
    }
}

/// Whether the calling code runs on the main queue (`dispatchPrecondition` would trap otherwise).
func onMainQueue() -> Bool {
    dispatchPrecondition(condition: .onQueue(.main))
    return true
}

@Suite struct MainActorDelegateTests {
    let app = "com.example.mainactor"

    func scenario(fetchSeconds: Double, sightings: Sightings) -> RealCodeRun {
        .launchingTask(
            MainActorRefreshDelegate.refresh, of: manifest(app, identifiers: [MainActorRefreshDelegate.refresh]),
            duration: 400
        ) { @Sendable in MainActorRefreshDelegate(fetchSeconds: fetchSeconds, sightings: sightings) }
    }

    @Test func mainActorDelegateRefreshesOnTheMainQueue() throws {
        let sightings = Sightings()
        let simulation = try scenario(fetchSeconds: 6, sightings: sightings).simulation()
        let records = simulation.run()
        let refresh = MainActorRefreshDelegate.refresh
        #expect(records.of(.completed, app, task: refresh).map(\.at.seconds) == [106])
        let epoch = simulation.system.wallClock.epoch(at: Instant(seconds: 106))
        #expect(sightings.lines == ["refreshed at \(epoch), main queue: true"])
    }

    @Test func mainActorDelegateRefreshExpiresWithItsHandlerOnTheMainQueue() throws {
        let sightings = Sightings()
        let records = try scenario(fetchSeconds: 120, sightings: sightings).run()
        let refresh = MainActorRefreshDelegate.refresh
        #expect(records.of(.expired, app, task: refresh).count == 1)
        #expect(records.of(.completed, app, task: refresh).first?.succeeded == false)
        #expect(sightings.lines == ["expiring, main queue: true", "cancelled, main queue: true"])
        #expect(records.of(.killed, app).isEmpty)
    }

    @Test func mainActorDelegateGivesTheSameRecordsInTwentyRuns() throws {
        let texts = try scenario(fetchSeconds: 120, sightings: Sightings()).texts(runs: 20)
        #expect(Set(texts).count == 1)
    }
}

/// A main-actor state machine as apps write them, which the app delegate drives synchronously from its callbacks
/// (DuckDuckGo's `AppStateMachine` pattern): it compiles only because `UIApplicationDelegate` is main-actor.
@MainActor final class LifecycleStateMachine {
    private(set) var events: [String] = []

    /// Takes one life-cycle event, noting whether it came on the main thread.
    func handle(_ event: String) { events.append("\(event), main thread: \(Thread.isMainThread)") }
}

/// An app delegate with no isolation written on it: main-actor through `UIApplicationDelegate`, as in UIKit.
final class StateMachineAppDelegate: SightingsResponder, UIApplicationDelegate {
    let machine = LifecycleStateMachine()

    func applicationDidBecomeActive(_ application: UIApplication) { machine.handle("didBecomeActive") }

    func applicationDidEnterBackground(_ application: UIApplication) {
        machine.handle("didEnterBackground")
        sightings.note(machine.events.joined(separator: "; "))
    }
}

/// A main-actor app delegate that registers its refresh with no queue: the handler, `@Sendable` as in Apple's SDK,
/// is not main-actor code, so it runs on a background queue without tripping the main actor's isolation check.
final class BackgroundQueueRefreshDelegate: SightingsResponder, UIApplicationDelegate {
    nonisolated static let refresh = "com.example.backgroundqueue.refresh"

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let sightings = sightings
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            sightings.note("handler on the main thread: \(Thread.isMainThread)")
            task.setTaskCompleted(success: true)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: Self.refresh))
    }
}

@Suite struct ImplicitMainActorDelegateTests {
    @Test func aMainActorDelegatesLaunchHandlerWithNoQueueRunsOnABackgroundQueue() throws {
        let sightings = Sightings()
        let app = "com.example.backgroundqueue"
        let refresh = BackgroundQueueRefreshDelegate.refresh
        let records = try RealCodeRun.launchingTask(refresh, of: manifest(app, identifiers: [refresh])) {
            @Sendable in BackgroundQueueRefreshDelegate(sightings: sightings)
        }.run()
        #expect(sightings.lines == ["handler on the main thread: false"])
        #expect(records.of(.completed, app, task: refresh).map(\.at.seconds) == [10])  // due as soon as it is home
    }

    @Test func anImplicitlyMainActorDelegateDrivesMainActorCodeSynchronouslyOnTheMainThread() throws {
        let sightings = Sightings()
        let app = "com.example.statemachine"
        let run = RealCodeRun(
            apps: [(manifest(app, identifiers: []), { @Sendable in StateMachineAppDelegate(sightings: sightings) })],
            timeline: [at(1, .open(BundleID(app))), at(10, .home)], duration: 60)
        let records = try run.run()
        #expect(sightings.lines == ["didBecomeActive, main thread: true; didEnterBackground, main thread: true"])
        #expect(records.of(.killed, app).isEmpty)
    }
}
