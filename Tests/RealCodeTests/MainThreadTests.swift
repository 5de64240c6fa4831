import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// An app that checks where it runs, as UIKit code does before touching the UI: `Thread.isMainThread`,
/// `OperationQueue.current` in a delegate callback, in main-queue work and on a background queue.
nonisolated final class MainThreadCheckingApp: UIApplicationDelegate, @unchecked Sendable {
    let sightings: Sightings

    init(sightings: Sightings) { self.sightings = sightings }

    func note(_ place: String) {
        sightings.note(
            "\(place): isMainThread \(Thread.isMainThread), "
                + "operation queue is main \(OperationQueue.current == OperationQueue.main)")
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        note("didFinishLaunching")
        DispatchQueue.global().async {
            self.note("global queue")
            DispatchQueue.main.async { self.note("back on main") }
        }
        return true
    }
}

@Suite struct MainThreadTests {
    @Test func threadIsMainThreadOnTheAppsMainQueueOnly() throws {
        let sightings = Sightings()
        let app = "com.example.mainthread"
        _ = try RealCodeRun(
            apps: [(manifest(app, identifiers: []), { @Sendable in MainThreadCheckingApp(sightings: sightings) })],
            timeline: [at(1, .open(BundleID(app)))], duration: 10
        ).run()
        #expect(
            sightings.lines == [
                "didFinishLaunching: isMainThread true, operation queue is main true",
                "global queue: isMainThread false, operation queue is main false",
                "back on main: isMainThread true, operation queue is main true",
            ])
    }
}
