import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Synchronization
import Testing

/// A completion handler carried into `OffstageClock.after` work (app code runs one piece at a time).
/// Unchecked because UIKit's handler type is not `Sendable` (`(UIBackgroundFetchResult) -> Void`, as in Apple's
/// SDK) and a parameter cannot be sent: the box stands for what an iOS app does when it answers later.
final class FetchCompletion: @unchecked Sendable {
    let call: (UIBackgroundFetchResult) -> Void
    init(_ call: @escaping (UIBackgroundFetchResult) -> Void) { self.call = call }
}

/// An app written as for iOS 12: background pushes, legacy fetch and significant-location monitoring.
nonisolated final class LegacyNewsApp: UIApplicationDelegate, CLLocationManagerDelegate, Sendable {
    let seen: Observations
    let locationManager = Shared<CLLocationManager?>(nil)

    init(seen: Observations) { self.seen = seen }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        MainActor.assumeIsolated {
            application.setMinimumBackgroundFetchInterval(UIApplication.backgroundFetchIntervalMinimum)
        }
        let manager = CLLocationManager()
        manager.delegate = self
        manager.startMonitoringSignificantLocationChanges()
        locationManager.value = manager
        return true
    }

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        let aps = userInfo["aps"] as? [String: Int]
        seen.note("push \(userInfo["payload"] as? String ?? "?") content-available \(aps?["content-available"] ?? 0)")
        let completion = FetchCompletion(completionHandler)
        OffstageClock.after(seconds: 2) { completion.call(.newData) }
    }

    func application(
        _ application: UIApplication,
        performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        seen.note("fetch in state \(MainActor.assumeIsolated { application.applicationState.rawValue })")
        completionHandler(.noData)
    }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        seen.note(
            "location \(locations.count) invalid \(locations.first?.coordinate == kCLLocationCoordinate2DInvalid)")
    }
}

/// §7 as app code sees it: Apple's delegate methods, `UIBackgroundFetchResult`, `CLLocationManager`.
@Suite struct BackgroundEventKitTests {
    let bundle = "com.example.legacynews"

    @Test func realDelegateCodeReceivesAPushAFetchAndALocationChange() throws {
        let seen = Observations()
        let manifest = AppManifest(
            bundleIdentifier: BundleID(bundle), backgroundModes: [.remoteNotification, .fetch])
        let records = try simulate(
            delegates: [(manifest, LegacyNewsApp(seen: seen))],
            timeline: [
                at(1, .open(BundleID(bundle))), at(2, .home),
                at(60, .backgroundPush(BundleID(bundle), payload: "headline-7")),
                at(120, .locationEvent(BundleID(bundle), .significantChange)),
            ],
            duration: 1000)
        #expect(
            seen.lines == [
                "push headline-7 content-available 1", "location 1 invalid true", "fetch in state 2",
            ])
        let handled = records.of(.handled, bundle)
        #expect(
            handled.map(\.reason) == [
                "completion handler called with .newData after 2.0 s",
                "the 10 s the location event gives the app are over",
                "completion handler called with .noData after 0.0 s",
            ])
        #expect(handled.map(\.at.seconds) == [62, 130, 901])  // the interval counts from launch (t = 1 s)
        #expect(records.of(.suspended, bundle).map(\.at.seconds) == [2, 62, 130, 901])
        #expect(records.of(.crashed, bundle).isEmpty)
    }

    /// A delegate with neither form of the push method answers through the defaults: the completion-handler form
    /// calls the `async` form, whose default (running on its caller's actor) returns `.noData` at once.
    @Test func aDelegateWithoutEitherPushMethodAnswersNoDataAtOnce() throws {
        let manifest = AppManifest(bundleIdentifier: BundleID(bundle), backgroundModes: [.remoteNotification])
        let records = try simulate(
            [(manifest, TestApp())],
            timeline: [
                at(1, .open(BundleID(bundle))), at(2, .home), at(60, .backgroundPush(BundleID(bundle), payload: "p")),
            ],
            duration: 200)
        let handled = records.of(.handled, bundle)
        #expect(handled.map(\.reason) == ["completion handler called with .noData after 0.0 s"])
        #expect(handled.map(\.at.seconds) == [60])
        #expect(records.of(.killed, bundle).isEmpty && records.of(.crashed, bundle).isEmpty)
    }

    @Test func backgroundAudioAndLocationUpdatesKeepTheAppRunningUntilTheyStop() throws {
        let manager = Shared<CLLocationManager?>(nil)
        let app = TestApp(
            launch: { _ in
                OffstageBackgroundActivity.audio.begin()
                let location = CLLocationManager()
                location.allowsBackgroundLocationUpdates = true
                location.startUpdatingLocation()
                manager.value = location
            },
            tap: { _ in
                OffstageBackgroundActivity.audio.end()
                OffstageClock.after(seconds: 60) { manager.value?.stopUpdatingLocation() }
            })
        let records = try simulate(
            [(manifest(bundle, modes: [.audio, .location], identifiers: []), app)],
            timeline: [
                at(1, .open(BundleID(bundle))), at(2, .home), at(3600, .open(BundleID(bundle))),
                TimelineEntry(at: 3601, action: .tap(BundleID(bundle), action: "stop")), at(3602, .home),
            ],
            duration: 4000)
        #expect(
            records.of(.backgroundMode, bundle).map(\.reason) == [
                "audio started: the app keeps running in the background while it lasts",
                "location started: the app keeps running in the background while it lasts",
                "audio stopped", "location stopped",
            ])
        #expect(records.of(.suspended, bundle).map(\.at.seconds) == [3661])
    }
}
