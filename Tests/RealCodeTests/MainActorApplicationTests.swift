import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// An upload written against UIKit's `@MainActor class UIApplication`: the delegate reads the state on the main
/// actor, a background queue begins and ends the assertion on the `UIApplication` it was handed (`nonisolated`
/// members of a `Sendable` class), and hops to the main queue, then into a main-actor `Task`, to read the rest.
final class MainActorUploadApp: UIApplicationDelegate {
    let sightings: Sightings
    private let uploads = DispatchQueue(label: "com.example.upload")

    /// Made by the system when it launches the app, as UIKit makes the delegate.
    nonisolated init(sightings: Sightings) { self.sightings = sightings }

    func applicationDidEnterBackground(_ application: UIApplication) {
        sightings.note("entered background: state \(application.applicationState.rawValue), main: \(onMainQueue())")
        let sightings = sightings
        uploads.async {
            // Off the main actor: `UIApplication.shared` is out of reach here, the application handed in is not.
            let upload = application.beginBackgroundTask(withName: "upload", expirationHandler: nil)
            Thread.sleep(forTimeInterval: 4)
            sightings.note("uploaded off the main queue: \(!Thread.isMainThread)")
            DispatchQueue.main.async {
                let left = UIApplication.shared.backgroundTimeRemaining
                sightings.note("time left read on the main queue: \(left > 0 && left <= 30), main: \(onMainQueue())")
                Task { @MainActor in
                    let state = UIApplication.shared.applicationState
                    sightings.note("state read in a main-actor task: \(state.rawValue), main: \(onMainQueue())")
                    application.endBackgroundTask(upload)
                }
            }
        }
    }
}

@Suite struct MainActorApplicationTests {
    let app = "com.example.mainactor.upload"

    /// UIKit declares `UIApplication` `@MainActor` with `beginBackgroundTask`/`endBackgroundTask` `nonisolated`:
    /// the compiler holds code to that (a background queue reaches the main-actor members only by hopping; the
    /// sites in Offstage's own code and tests that did not are fixed), and at run time every main-actor read here
    /// runs on the simulated app's main queue while the assertion is begun and ended from the upload queue.
    @Test func uiApplicationIsMainActorAndABackgroundQueueHopsToTheMainActorToReadIt() throws {
        let sightings = Sightings()
        let records = try RealCodeRun(
            apps: [(manifest(app, identifiers: []), { @Sendable in MainActorUploadApp(sightings: sightings) })],
            timeline: [at(1, .open(BundleID(app))), at(10, .home)], duration: 120
        ).run()
        #expect(
            sightings.lines == [
                "entered background: state 2, main: true",
                "uploaded off the main queue: true",
                "time left read on the main queue: true, main: true",
                "state read in a main-actor task: 2, main: true",
            ])
        #expect(records.of(.assertionBegan, app).map(\.at.seconds) == [10])
        #expect(records.of(.assertionEnded, app).map(\.at.seconds) == [14])
        #expect(records.of(.assertionExpired, app).isEmpty)
    }

    /// `UIApplication` is `Sendable` (a main-actor class), so a queue may hold it: checked by the type system.
    @Test func uiApplicationIsSendableAsAMainActorClass() {
        func sendable<T: Sendable>(_: T.Type) -> String { "\(T.self)" }
        #expect(sendable(UIApplication.self) == "UIApplication")
    }
}
