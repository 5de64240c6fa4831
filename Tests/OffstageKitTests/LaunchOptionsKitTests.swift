import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// An app that notes the launch options of every launch, and monitors significant location changes.
nonisolated final class LaunchOptionsApp: UIApplicationDelegate, CLLocationManagerDelegate, Sendable {
    let seen: Observations
    let locationManager = Shared<CLLocationManager?>(nil)

    init(seen: Observations) { self.seen = seen }

    func application(
        _ application: UIApplication,
        willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        seen.note("will \(Self.describe(launchOptions))")
        return true
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        seen.note("did \(Self.describe(launchOptions))")
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.options.refresh", using: nil) { task in
            task.setTaskCompleted(success: true)
        }
        let manager = CLLocationManager()
        manager.delegate = self
        manager.startMonitoringSignificantLocationChanges()
        locationManager.value = manager
        return true
    }

    func applicationDidBecomeActive(_ application: UIApplication) {
        let request = BGAppRefreshTaskRequest(identifier: "com.example.options.refresh")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 24 * 3600)  // pending until the test launches it
        try? BGTaskScheduler.shared.submit(request)
    }

    /// The options as a line: nil, or each key with what it holds.
    static func describe(_ options: [UIApplication.LaunchOptionsKey: Any]?) -> String {
        guard let options else { return "nil" }
        var parts: [String] = []
        if let push = options[.remoteNotification] as? [AnyHashable: Any] {
            let aps = push["aps"] as? [String: Int]
            parts.append(
                "remoteNotification \(push["payload"] as? String ?? "?") content-available \(aps?["content-available"] ?? 0)"
            )
        }
        if let location = options[.location] as? Bool { parts.append("location \(location)") }
        return parts.isEmpty ? "empty" : parts.joined(separator: ", ")
    }
}

/// §2/§7 as app code sees it: `application(_:didFinishLaunchingWithOptions:)` says why the app was launched.
@Suite struct LaunchOptionsKitTests {
    let bundle = BundleID("com.example.options")

    @Test func launchOptionsSayWhyTheAppWasLaunched() throws {
        let seen = Observations()
        let manifest = AppManifest(
            bundleIdentifier: bundle, backgroundModes: [.remoteNotification, .fetch],
            permittedIdentifiers: ["com.example.options.refresh"])
        let records = try simulate(
            delegates: [(manifest, LaunchOptionsApp(seen: seen))],
            timeline: [
                at(1, .open(bundle)), at(2, .home), at(10, .processExited(bundle, reason: "test")),
                at(60, .backgroundPush(bundle, payload: "headline-7")), at(70, .processExited(bundle, reason: "test")),
                at(120, .locationEvent(bundle, .significantChange)), at(140, .processExited(bundle, reason: "test")),
                at(200, .simulateLaunch(bundle, identifier: "com.example.options.refresh")),
            ],
            duration: 300)
        #expect(records.of(.launched, bundle.rawValue).count == 4)
        #expect(
            seen.lines == [
                "will nil", "did nil",
                "will remoteNotification headline-7 content-available 1",
                "did remoteNotification headline-7 content-available 1",
                "will location true", "did location true",
                "will nil", "did nil",
            ])
    }
}

/// Core Location's rule for background updates: `allowsBackgroundLocationUpdates = true` needs `location` in
/// `UIBackgroundModes`; without it iOS's assertion crashes the app.
@Suite struct BackgroundLocationMisuseKitTests {
    /// An app that turns background location updates on when it launches.
    func app(_ seen: Observations) -> TestApp {
        TestApp(launch: { _ in
            let manager = CLLocationManager()
            manager.allowsBackgroundLocationUpdates = true
            manager.startUpdatingLocation()
            seen.note("updating in the background")
        })
    }

    @Test func allowingBackgroundLocationUpdatesWithoutTheLocationModeCrashesTheApp() throws {
        let seen = Observations()
        let records = try simulate(
            [(manifest("com.a", modes: [.fetch], identifiers: []), app(seen))],
            timeline: [at(1, .open("com.a"))], duration: 10)
        #expect(
            records.of(.crashed, "com.a").map(\.reason) == [
                "crash: Invalid parameter not satisfying: !stayUp || CLClientIsBackgroundable(internal->fClient) "
                    + "|| _CFMZEnabled()"
            ])
        #expect(seen.lines.isEmpty)
    }

    @Test func allowingBackgroundLocationUpdatesWithTheLocationModeDoesNotCrash() throws {
        let seen = Observations()
        let records = try simulate(
            [(manifest("com.a", modes: [.location], identifiers: []), app(seen))],
            timeline: [at(1, .open("com.a")), at(2, .home)], duration: 10)
        #expect(records.of(.crashed, "com.a").isEmpty)
        #expect(seen.lines == ["updating in the background"])
        #expect(
            records.of(.backgroundMode, "com.a").map(\.reason).first
                == "location started: the app keeps running in the background while it lasts")
    }
}
