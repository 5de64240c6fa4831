import OffstageCore
import OffstageKit
import OffstageSimulator
import Synchronization

/// A Swift app for tests: each callback runs the closure it was given, with the app's `UIApplication`.
nonisolated final class TestApp: UIApplicationDelegate, OffstageUserActions, Sendable {
    /// A callback's work: main-actor code, as the app delegate's callbacks are on iOS.
    typealias Step = @MainActor @Sendable (UIApplication) -> Void
    let launch: Step
    let background: Step
    let tap: Step

    init(launch: @escaping Step = { _ in }, background: @escaping Step = { _ in }, tap: @escaping Step = { _ in }) {
        self.launch = launch
        self.background = background
        self.tap = tap
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        MainActor.assumeIsolated { launch(application) }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        MainActor.assumeIsolated { background(application) }
    }
    func performUserAction(_ action: String) { MainActor.assumeIsolated { tap(UIApplication.shared) } }
}

/// Things a test app observed, in order: its code runs one piece at a time, but not always on one thread, so the
/// lines sit in a `Mutex` the compiler checks.
final class Observations: Sendable {
    private let noted = Mutex<[String]>([])
    var lines: [String] { noted.withLock { $0 } }
    func note(_ line: String) { noted.withLock { $0.append(line) } }
}

/// A value a test app's closures share (its code runs one piece at a time, on any thread): behind a `Mutex`,
/// so that the closures that capture it are checked `Sendable`.
final class Shared<Value: Sendable>: Sendable {
    private let stored: Mutex<Value>
    init(_ value: Value) { stored = Mutex(value) }
    var value: Value {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

/// A manifest permitting `identifiers` with the modes a refresh and a processing task need.
func manifest(_ bundle: String, modes: Set<BackgroundMode> = [.fetch, .processing], identifiers: [String])
    -> AppManifest
{
    AppManifest(bundleIdentifier: BundleID(bundle), backgroundModes: modes, permittedIdentifiers: identifiers)
}

/// Runs Swift apps (by catalog name) through a timeline and returns the records.
func simulate(
    _ apps: [(AppManifest, TestApp)], timeline: [TimelineEntry], duration: Double, device: DeviceState = DeviceState()
) throws -> [Record] {
    try simulation(apps, timeline: timeline, duration: duration, device: device).run()
}

/// Runs any Swift app delegates (one instance each) through a timeline and returns the records.
func simulate(
    delegates apps: [(AppManifest, any UIApplicationDelegate & Sendable)], timeline: [TimelineEntry],
    duration: Double, device: DeviceState = DeviceState()
) throws -> [Record] {
    try simulation(delegates: apps, timeline: timeline, duration: duration, device: device).run()
}

/// A simulation of Swift apps (by catalog name) through a timeline, not yet run.
func simulation(
    _ apps: [(AppManifest, TestApp)], timeline: [TimelineEntry], duration: Double, device: DeviceState = DeviceState()
) throws -> Simulation {
    try simulation(delegates: apps.map { ($0, $1) }, timeline: timeline, duration: duration, device: device)
}

/// A simulation of any Swift app delegates through a timeline, not yet run.
func simulation(
    delegates apps: [(AppManifest, any UIApplicationDelegate & Sendable)], timeline: [TimelineEntry],
    duration: Double, device: DeviceState = DeviceState()
) throws -> Simulation {
    var catalog: [String: @MainActor @Sendable () -> any UIApplicationDelegate] = [:]
    var scenarioApps: [ScenarioApp] = []
    for (manifest, app) in apps {
        let name = manifest.bundleIdentifier.rawValue
        catalog[name] = { app }
        scenarioApps.append(ScenarioApp(manifest: manifest, code: name))
    }
    let scenario = Scenario(
        name: "test", source: "test", device: device, apps: scenarioApps, timeline: timeline, duration: duration)
    return try Simulation(scenario: scenario, catalog: SwiftAppCatalog(catalog))
}

extension Array where Element == Record {
    /// The records of one kind for one app, optionally for one task.
    func of(_ kind: RecordKind, _ app: String, task: String? = nil) -> [Record] {
        filter { $0.kind == kind && $0.app?.rawValue == app && (task == nil || $0.task == task) }
    }
}

/// A timeline entry at `seconds` for a system event.
func at(_ seconds: Double, _ event: SystemEvent) -> TimelineEntry { TimelineEntry(at: seconds, action: .system(event)) }
