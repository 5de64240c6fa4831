import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// `beginBackgroundTask` called from a serial queue when the app leaves the screen, the work blocking that queue
/// (`Thread.sleep` stands in for it), the expiration handler hopping to the main queue to end the assertion.
nonisolated final class SerialQueueSaveApp: UIApplicationDelegate, @unchecked Sendable {
    let workSeconds: Double
    let sightings: Sightings
    private let saveQueue = DispatchQueue(label: "com.example.save")
    private var taskID = UIBackgroundTaskIdentifier.invalid

    init(workSeconds: Double, sightings: Sightings) {
        self.workSeconds = workSeconds
        self.sightings = sightings
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        saveQueue.async {
            let started = Date()
            self.taskID = application.beginBackgroundTask(withName: "save") {
                DispatchQueue.main.async {
                    dispatchPrecondition(condition: .onQueue(.main))
                    self.sightings.note("expired after \(Date().timeIntervalSince(started)) s, on the main queue")
                    UIApplication.shared.endBackgroundTask(self.taskID)
                    self.taskID = .invalid
                }
            }
            Thread.sleep(forTimeInterval: self.workSeconds)
            self.sightings.note("saved after \(Date().timeIntervalSince(started)) s")
            DispatchQueue.main.async {
                guard self.taskID != .invalid else { return }
                UIApplication.shared.endBackgroundTask(self.taskID)
                self.taskID = .invalid
            }
        }
    }
}

@Suite struct BackgroundTaskQueueTests {
    let app = "com.example.save"

    func scenario(workSeconds: Double, sightings: Sightings) -> RealCodeRun {
        RealCodeRun(
            apps: [
                (
                    manifest(app, identifiers: []),
                    { @Sendable in SerialQueueSaveApp(workSeconds: workSeconds, sightings: sightings) }
                )
            ],
            timeline: [at(1, .open(BundleID(app))), at(10, .home)], duration: 300)
    }

    @Test func backgroundTaskFromASerialQueueEndsWhenItsWorkIsDone() throws {
        let sightings = Sightings()
        let records = try scenario(workSeconds: 12, sightings: sightings).run()
        #expect(records.of(.assertionBegan, app).map(\.at.seconds) == [10])
        #expect(records.of(.assertionEnded, app).map(\.at.seconds) == [22])
        #expect(records.of(.assertionExpired, app).isEmpty)
        #expect(sightings.lines == ["saved after 12.0 s"])
        #expect(records.of(.suspended, app).map(\.at.seconds) == [22])
    }

    @Test func backgroundTaskThatTakesTooLongExpiresWithItsHandlerOnTheMainQueue() throws {
        let sightings = Sightings()
        let records = try scenario(workSeconds: 100, sightings: sightings).run()
        let expired = try #require(records.of(.assertionExpired, app).first)
        #expect(sightings.lines.first == "expired after \(expired.at.seconds - 10) s, on the main queue")
        #expect(records.of(.killed, app).isEmpty)
        #expect(records.of(.terminated, app).isEmpty)
    }

    @Test func backgroundTaskFromASerialQueueGivesTheSameRecordsInTwentyRuns() throws {
        let texts = try scenario(workSeconds: 100, sightings: Sightings()).texts(runs: 20)
        #expect(Set(texts).count == 1)
    }
}
