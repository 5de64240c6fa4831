import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// An app that starts threads of its own, as older code does: one computes and hops back to the main queue to
/// finish its task; another (a mistake) asks `UIApplication.shared` from its own thread.
nonisolated final class ThreadStartingApp: UIApplicationDelegate, @unchecked Sendable {
    static let refresh = "com.example.threads.refresh"
    let sightings: Sightings
    let misuse: Bool

    init(sightings: Sightings, misuse: Bool) {
        self.sightings = sightings
        self.misuse = misuse
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            Thread.detachNewThread { [self] in
                let sum = (1...1000).reduce(0, +)
                if misuse { _ = BGTaskScheduler.shared }
                DispatchQueue.main.async {
                    self.sightings.note("sum \(sum), main thread: \(Thread.isMainThread)")
                    task.setTaskCompleted(success: true)
                }
            }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        submitAppRefresh(Self.refresh, after: 24 * 3600)
    }
}

@Suite struct AppThreadTests {
    let app = "com.example.threads"

    func run(sightings: Sightings, misuse: Bool) throws -> [Record] {
        try RealCodeRun.launchingTask(
            ThreadStartingApp.refresh, of: manifest(app, identifiers: [ThreadStartingApp.refresh])
        ) { @Sendable in ThreadStartingApp(sightings: sightings, misuse: misuse) }.run()
    }

    @Test func workAnAppsOwnThreadQueuesOnTheMainQueueRunsAsTheApp() throws {
        let sightings = Sightings()
        let records = try run(sightings: sightings, misuse: false)
        #expect(sightings.lines == ["sum 500500, main thread: true"])
        #expect(records.of(.completed, app, task: ThreadStartingApp.refresh).map(\.succeeded) == [true])
    }

    @Test func anAppsOwnThreadCallingTheSystemIsStoppedNotTheHost() throws {
        let sightings = Sightings()
        let records = try run(sightings: sightings, misuse: true)
        #expect(sightings.lines.isEmpty)
        // The thread never finished the task: it expires as iOS would expire it, and the run goes on to its end.
        #expect(records.of(.expired, app, task: ThreadStartingApp.refresh).count == 1)
        #expect(records.of(.crashed, app).isEmpty)
    }
}
