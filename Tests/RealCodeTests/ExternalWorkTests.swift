import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// A refresh whose two transfers run on threads of their own (as a framework's would), taking real time there,
/// and hand their results back to the main queue through `OffstageExternalWork` after 2 s and 3 s of latency.
nonisolated final class ExternalTransferApp: UIApplicationDelegate, @unchecked Sendable {
    static let refresh = "com.example.external.refresh"
    let sightings: Sightings

    init(sightings: Sightings) { self.sightings = sightings }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            let started = Date()
            let group = DispatchGroup()
            for (name, realMilliseconds, latency) in [("first", 30, 3.0), ("second", 5, 2.0)] {
                let transfer = OffstageExternalWork.begin()
                group.enter()
                Thread.detachNewThread {
                    usleep(UInt32(realMilliseconds * 1000))
                    transfer.finish(on: .main, after: latency) {
                        dispatchPrecondition(condition: .onQueue(.main))
                        self.sightings.note("\(name) arrived after \(Date().timeIntervalSince(started)) s")
                        group.leave()
                    }
                }
            }
            group.notify(queue: .main) { task.setTaskCompleted(success: true) }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        submitAppRefresh(Self.refresh, after: 24 * 3600)
    }
}

@Suite struct ExternalWorkTests {
    let app = "com.example.external"

    func scenario(sightings: Sightings) -> RealCodeRun {
        .launchingTask(
            ExternalTransferApp.refresh, of: manifest(app, identifiers: [ExternalTransferApp.refresh]), duration: 300
        ) { @Sendable in ExternalTransferApp(sightings: sightings) }
    }

    @Test func externalWorkHoldsVirtualTimeAndArrivesAfterItsLatency() throws {
        let sightings = Sightings()
        let records = try scenario(sightings: sightings).run()
        #expect(sightings.lines == ["second arrived after 2.0 s", "first arrived after 3.0 s"])
        #expect(records.of(.completed, app, task: ExternalTransferApp.refresh).map(\.at.seconds) == [103])
    }

    @Test func externalWorkGivesTheSameRecordsInTwentyRuns() throws {
        #expect(Set(try scenario(sightings: Sightings()).texts(runs: 20)).count == 1)
    }
}
