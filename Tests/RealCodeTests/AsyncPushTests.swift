import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// A background push handled with the `async` form, as Swift apps write it since iOS 15: it awaits its sync
/// (a sleep of `syncSeconds` standing in for it) and returns the result; the system reads the answer when the
/// function returns.
final class AsyncPushApp: UIApplicationDelegate {
    let syncSeconds: Double
    let sightings: Sightings

    /// Made by the system when it launches the app, as UIKit makes the delegate.
    nonisolated init(syncSeconds: Double, sightings: Sightings) {
        (self.syncSeconds, self.sightings) = (syncSeconds, sightings)
    }

    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]) async
        -> UIBackgroundFetchResult
    {
        let started = Date()
        sightings.note("push in state \(application.applicationState.rawValue)")
        do {
            try await Task.sleep(for: .seconds(syncSeconds))
        } catch {
            return .failed
        }
        sightings.note("synced after \(Date().timeIntervalSince(started)) s")
        return .newData
    }
}

@Suite struct AsyncPushTests {
    let app = "com.example.asyncpush"

    func run(syncSeconds: Double, sightings: Sightings) throws -> [Record] {
        let manifest = AppManifest(bundleIdentifier: BundleID(app), backgroundModes: [.remoteNotification])
        return try RealCodeRun(
            apps: [(manifest, { @Sendable in AsyncPushApp(syncSeconds: syncSeconds, sightings: sightings) })],
            timeline: [
                at(1, .open(BundleID(app))), at(10, .home), at(100, .backgroundPush(BundleID(app), payload: "{}")),
            ],
            duration: 300
        ).run()
    }

    @Test func anAsyncPushHandlerAnswersWithWhatItReturnsAndTheAppIsSuspended() throws {
        let sightings = Sightings()
        let records = try run(syncSeconds: 8, sightings: sightings)
        #expect(sightings.lines == ["push in state 2", "synced after 8.0 s"])
        let handled = records.of(.handled, app)
        #expect(handled.map(\.at.seconds) == [108])
        #expect(
            handled.contains {
                guard case .handlerCalled(.newData, _) = $0.detail else { return false }
                return true
            })
        #expect(records.of(.killed, app).isEmpty)
        #expect(records.of(.suspended, app).map(\.at.seconds).last == 108)
    }

    @Test func anAsyncPushHandlerThatOutlastsThirtySecondsIsEndedByTheWatchdog() throws {
        let sightings = Sightings()
        let records = try run(syncSeconds: 60, sightings: sightings)
        #expect(sightings.lines == ["push in state 2"])
        #expect(records.of(.handled, app).isEmpty)
        // The watchdog ends the process 30 s after the push, as iOS ends an app that never answers.
        let ended = records.of(.terminated, app)
        #expect(ended.map(\.at.seconds) == [130])
        #expect(ended.first.map { "\($0.reason)".contains("within 30 s") } == true)
    }
}
