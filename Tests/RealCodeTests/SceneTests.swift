import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// A scene-based app as Xcode's template writes it: the app delegate registers the refresh, the scene delegate
/// (named in the Info.plist's scene manifest) schedules it when the scene enters the background.
nonisolated final class NotesAppDelegate: UIResponder, UIApplicationDelegate, @unchecked Sendable {
    static let refresh = "com.example.notes.refresh"
    nonisolated(unsafe) static var sightings = Sightings()

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        Self.sightings.note("app didFinishLaunching")
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            // `connectedScenes` is main-actor: the handler, on a background queue, reads it on the main queue.
            DispatchQueue.main.async {
                Self.sightings.note("refresh with \(UIApplication.shared.connectedScenes.count) scene(s)")
                task.setTaskCompleted(success: true)
            }
        }
        for name in [
            UIApplication.didBecomeActiveNotification, UIApplication.willResignActiveNotification,
            UIApplication.didEnterBackgroundNotification, UIApplication.willEnterForegroundNotification,
            UIApplication.willTerminateNotification, UIApplication.backgroundRefreshStatusDidChangeNotification,
        ] {
            _ = NotificationCenter.default.addObserver(forName: name, object: application, queue: nil) { note in
                // UIKit posts from the main queue, where an observer with no queue runs.
                let name = note.name
                let status = MainActor.assumeIsolated {
                    name == UIApplication.backgroundRefreshStatusDidChangeNotification
                        ? " \(UIApplication.shared.backgroundRefreshStatus.rawValue)" : ""
                }
                Self.sightings.note("posted \(note.name.rawValue)\(status)")
            }
        }
        return true
    }

    // A scene-based app never gets these: iOS sends the scene's instead.
    func applicationDidBecomeActive(_ application: UIApplication) { Self.sightings.note("app didBecomeActive") }
    func applicationDidEnterBackground(_ application: UIApplication) { Self.sightings.note("app didEnterBackground") }
    func applicationWillTerminate(_ application: UIApplication) { Self.sightings.note("app willTerminate") }
}

nonisolated class NotesSceneDelegate: UIResponder, UIWindowSceneDelegate, @unchecked Sendable {
    var window: UIWindow?
    var saving = UIBackgroundTaskIdentifier.invalid

    /// How long saving the note takes once the scene has left the screen: five seconds, well within the
    /// background time iOS gives (`LongSaveSceneDelegate` takes longer).
    class var saveSeconds: Double { 5 }

    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions
    ) {
        guard let windowScene = scene as? UIWindowScene else { return }
        window = UIWindow(windowScene: windowScene)
        window?.makeKeyAndVisible()
        NotesAppDelegate.sightings.note("scene willConnect \(session.configuration.name ?? "-")")
    }

    func sceneDidBecomeActive(_ scene: UIScene) {
        NotesAppDelegate.sightings.note("scene didBecomeActive \(scene.activationState.rawValue)")
    }
    func sceneWillResignActive(_ scene: UIScene) { NotesAppDelegate.sightings.note("scene willResignActive") }
    func sceneWillEnterForeground(_ scene: UIScene) { NotesAppDelegate.sightings.note("scene willEnterForeground") }
    func sceneDidDisconnect(_ scene: UIScene) { NotesAppDelegate.sightings.note("scene didDisconnect") }

    func sceneDidEnterBackground(_ scene: UIScene) {
        NotesAppDelegate.sightings.note("scene didEnterBackground")
        // Time to save the note, on the main queue, as apps do when they leave the screen; the expiration
        // handler ends the background task if the save outlives the time iOS gives.
        let application = MainActor.assumeIsolated { UIApplication.shared }
        let began = Date()
        saving = application.beginBackgroundTask(withName: "save") {
            NotesAppDelegate.sightings.note("save expired after \(Date().timeIntervalSince(began)) s")
            application.endBackgroundTask(self.saving)
            self.saving = .invalid
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.saveSeconds) {
            guard self.saving != .invalid else { return }
            application.endBackgroundTask(self.saving)
            self.saving = .invalid
        }
        let request = BGAppRefreshTaskRequest(identifier: NotesAppDelegate.refresh)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 60)
        try? BGTaskScheduler.shared.submit(request)
    }
}

/// The notes app's scene delegate with a save that takes ten minutes: longer than the background time iOS gives.
nonisolated final class LongSaveSceneDelegate: NotesSceneDelegate, @unchecked Sendable {
    override class var saveSeconds: Double { 600 }
}

/// One test at a time: the apps note what they see in one shared place, as a delegate made by class name must.
@Suite(.serialized) struct SceneTests {
    let app = "com.example.notes"

    /// Runs the notes app through `timeline`, its scene delegate of class `sceneDelegate`.
    func run(
        _ timeline: [TimelineEntry], duration: Double = 600,
        sceneDelegate: NotesSceneDelegate.Type = NotesSceneDelegate.self
    ) throws -> (records: [Record], seen: [String]) {
        NotesAppDelegate.sightings = Sightings()
        let scenes = try #require(
            try OffstageSceneManifest(infoDictionary: [
                "UIApplicationSceneManifest": [
                    "UIApplicationSupportsMultipleScenes": false,
                    "UISceneConfigurations": [
                        "UIWindowSceneSessionRoleApplication": [
                            [
                                "UISceneConfigurationName": "Default Configuration",
                                "UISceneDelegateClassName": NSStringFromClass(sceneDelegate),
                            ]
                        ]
                    ],
                ]
            ]))
        let surface = RealCodeRun(
            apps: [(manifest(app, identifiers: [NotesAppDelegate.refresh]), { @Sendable in NotesAppDelegate() })],
            sceneManifests: [app: scenes], timeline: timeline, duration: duration)
        let records = try surface.run()
        return (records, NotesAppDelegate.sightings.lines)
    }

    @Test func aSceneBasedAppGetsTheSceneCallbacksInsteadOfTheAppDelegates() throws {
        let (records, seen) = try run([at(1, .open(BundleID(app))), at(10, .home), at(300, .open(BundleID(app)))])
        let didBecomeActive = "posted UIApplicationDidBecomeActiveNotification"
        #expect(
            seen == [
                "app didFinishLaunching", "scene willConnect Default Configuration", "scene willEnterForeground",
                "scene didBecomeActive 0", didBecomeActive,
                "scene willResignActive", "posted UIApplicationWillResignActiveNotification",
                "scene didEnterBackground", "posted UIApplicationDidEnterBackgroundNotification",
                // Resumed from suspension for the refresh: the scene hears it is in the background again first
                // ("About the background execution sequence").
                "scene didEnterBackground", "posted UIApplicationDidEnterBackgroundNotification",
                "refresh with 1 scene(s)",
                "scene willEnterForeground", "posted UIApplicationWillEnterForegroundNotification",
                "scene didBecomeActive 0", didBecomeActive,
            ])
        #expect(records.of(.started, app, task: NotesAppDelegate.refresh).count == 1)
        #expect(records.of(.crashed, app).isEmpty)
        // The records name the callbacks the app's code heard: the scene's, not the app delegate's.
        #expect(
            records.of(.callback, app).map(\.reason) == [
                "application(_:willFinishLaunchingWithOptions:)", "application(_:didFinishLaunchingWithOptions:)",
                "scene(_:willConnectTo:options:), sceneWillEnterForeground(_:), sceneDidBecomeActive(_:)",
                "sceneWillResignActive(_:)", "sceneDidEnterBackground(_:)", "sceneDidEnterBackground(_:)",
                "sceneWillEnterForeground(_:)", "sceneDidBecomeActive(_:)",
            ])
    }

    @Test func aSceneAppsSaveThatOutlivesItsAllowanceIsExpiredAsOnIOS() throws {
        // Home at 10 s: the save begun in `sceneDidEnterBackground` needs 600 s; iOS gives 30 s of background time
        // and calls the expiration handler 5 s before they end, which ends the task: the app is suspended, not
        // killed. (The run ends at 60 s, before the refresh it asked for at 70 s.)
        let (records, seen) = try run(
            [at(1, .open(BundleID(app))), at(10, .home)], duration: 60, sceneDelegate: LongSaveSceneDelegate.self)
        #expect(records.of(.assertionBegan, app).map(\.at.seconds) == [10])
        #expect(records.of(.assertionExpired, app).map(\.at.seconds) == [35])
        #expect(records.of(.assertionEnded, app).map(\.at.seconds) == [35])
        #expect(records.of(.suspended, app).map(\.at.seconds) == [35])
        #expect(
            seen.suffix(3) == [
                "scene didEnterBackground", "posted UIApplicationDidEnterBackgroundNotification",
                "save expired after 25.0 s",
            ])
        #expect(records.of(.crashed, app).isEmpty)
        #expect(records.of(.terminated, app).isEmpty)
    }

    @Test func withTheResumeCallbackOffTheResumedSceneHearsOnlyItsRefresh() throws {
        let (records, seen) = try run([
            at(0, .setResumeCallback(.none)), at(1, .open(BundleID(app))), at(10, .home),
        ])
        #expect(
            Array(seen.drop { $0 != "posted UIApplicationDidEnterBackgroundNotification" }) == [
                "posted UIApplicationDidEnterBackgroundNotification", "refresh with 1 scene(s)",
            ])
        #expect(records.of(.callback, app).map(\.reason).filter { $0 == "sceneDidEnterBackground(_:)" }.count == 1)
        #expect(records.of(.completed, app, task: NotesAppDelegate.refresh).count == 1)
    }

    @Test func anAppLaunchedInTheBackgroundForATaskHasNoScene() throws {
        let (_, seen) = try run([
            at(1, .open(BundleID(app))), at(10, .home), at(20, .processExited(BundleID(app), reason: "test")),
        ])
        // The process that ran the refresh was launched for it: no scene connects, no scene callback comes.
        #expect(
            seen.suffix(3) == [
                "app didFinishLaunching", "posted UIApplicationDidEnterBackgroundNotification",
                "refresh with 0 scene(s)",
            ])
    }

    @Test func terminationDisconnectsTheSceneThenTellsTheAppDelegate() throws {
        // Swiped away while it still runs in the background (saving for 5 s after it left): terminated.
        let (records, seen) = try run([
            at(1, .open(BundleID(app))), at(10, .home), at(11, .openSwitcher), at(12, .swipeAway(BundleID(app))),
        ])
        #expect(
            seen.suffix(3) == [
                "scene didDisconnect", "app willTerminate", "posted UIApplicationWillTerminateNotification",
            ])
        #expect(records.of(.suspended, app).isEmpty)
    }

    @Test func turningBackgroundAppRefreshOffPostsTheStatusChange() throws {
        let (_, seen) = try run([
            at(1, .open(BundleID(app))), at(5, .setBackgroundAppRefresh(false)), at(6, .setLowPowerMode(true)),
        ])
        // Low Power Mode after the switch is already off changes nothing the app can see.
        #expect(
            seen.filter { $0.contains("RefreshStatus") } == [
                "posted UIApplicationBackgroundRefreshStatusDidChangeNotification 1"
            ])
    }

    @Test func lowPowerModeTurningItselfOffOnTheChargerPostsTheStatusChange() throws {
        // Low Power Mode at 50 % denies refresh; on the charger iOS turns it off at 80 %, with no other event.
        let (records, seen) = try run(
            [
                at(1, .open(BundleID(app))), at(2, .setBattery(level: 0.5, charging: false)),
                at(3, .setLowPowerMode(true)), at(4, .setCharging(true)),
            ], duration: 4 * 3600)
        let off = try #require(records.first { $0.reason == "Low Power Mode off: the charging battery reached 80%" })
        #expect(
            seen.filter { $0.contains("RefreshStatus") } == [
                "posted UIApplicationBackgroundRefreshStatusDidChangeNotification 1",
                "posted UIApplicationBackgroundRefreshStatusDidChangeNotification 2",
            ])
        #expect(off.at.seconds > 4)
    }

    @Test func aSceneBasedAppGivesTheSameRecordsInTwentyRuns() throws {
        let timeline = [at(1, .open(BundleID(app))), at(10, .home), at(300, .open(BundleID(app)))]
        let texts = try (0..<20).map { _ in try run(timeline).records.map { "\($0)" }.joined(separator: "\n") }
        #expect(Set(texts).count == 1)
    }
}

/// An app that hears of leaving the screen as many do: an observer on the main queue, not a delegate method.
nonisolated final class ObservingApp: UIApplicationDelegate, @unchecked Sendable {
    let sightings: Sightings
    init(sightings: Sightings) { self.sightings = sightings }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let sightings = sightings
        _ = NotificationCenter.default.addObserver(
            forName: UIApplication.didEnterBackgroundNotification, object: application, queue: .main
        ) { _ in
            dispatchPrecondition(condition: .onQueue(.main))
            let state = MainActor.assumeIsolated { UIApplication.shared.applicationState.rawValue }
            sightings.note("left the screen, state \(state)")
        }
        return true
    }
}

extension SceneTests {
    @Test func anObserverOnTheMainQueueRunsAsTheAppOnItsMainQueue() throws {
        let sightings = Sightings()
        let app = "com.example.observing"
        let run = RealCodeRun(
            apps: [(AppManifest(bundleIdentifier: BundleID(app)), { @Sendable in ObservingApp(sightings: sightings) })],
            timeline: [at(1, .open(BundleID(app))), at(10, .home)], duration: 60)
        let records = try run.run()
        #expect(sightings.lines == ["left the screen, state 2"])
        #expect(records.of(.crashed, app).isEmpty)
    }
}
