import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator

/// Runs app delegates written as for iOS (one instance per launch, made by `make`) through a timeline.
struct RealCodeRun {
    var apps: [(AppManifest, @MainActor @Sendable () -> any UIApplicationDelegate)]
    var timeline: [TimelineEntry]
    var duration: Double
    /// Changes the scenario before it runs (its network, the apps' scene manifests…).
    var adjust: @Sendable (inout Scenario) -> Void = { _ in }

    /// A simulation of the apps, not yet run.
    func simulation() throws -> Simulation {
        var catalog: [String: @MainActor @Sendable () -> any UIApplicationDelegate] = [:]
        var scenarioApps: [ScenarioApp] = []
        for (manifest, make) in apps {
            catalog[manifest.bundleIdentifier.rawValue] = make
            scenarioApps.append(ScenarioApp(manifest: manifest, code: manifest.bundleIdentifier.rawValue))
        }
        var scenario = Scenario(
            name: "real code", source: "test", apps: scenarioApps, timeline: timeline, duration: duration)
        adjust(&scenario)
        return try Simulation(scenario: scenario, catalog: SwiftAppCatalog(catalog))
    }

    func run() throws -> [Record] { try simulation().run() }

    /// One app (`make` makes its delegate) opened at 1 s and sent home at 10 s, its task `identifier` launched at
    /// 100 s (a simulated launch of its pending request), then the entries of `then`.
    static func launchingTask(
        _ identifier: String, of manifest: AppManifest, then: [TimelineEntry] = [], duration: Double = 400,
        make: @escaping @MainActor @Sendable () -> any UIApplicationDelegate
    ) -> RealCodeRun {
        let app = manifest.bundleIdentifier
        return RealCodeRun(
            apps: [(manifest, make)],
            timeline: [at(1, .open(app)), at(10, .home), at(100, .simulateLaunch(app, identifier: identifier))] + then,
            duration: duration)
    }

    /// The records of `times` runs as text, one string per run, for comparing them byte for byte.
    func texts(runs times: Int) throws -> [String] {
        try (0..<times).map { _ in try run().map { "\($0)" }.joined(separator: "\n") }
    }
}

/// What an app's code saw, in the order it saw it (its code runs one piece at a time in the simulator).
final class Sightings: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }
    func note(_ line: String) { lock.withLock { stored.append(line) } }
}

/// Submits an app refresh request to begin no earlier than `seconds` from now, as apps do when they leave the
/// screen.
func submitAppRefresh(_ identifier: String, after seconds: TimeInterval) {
    let request = BGAppRefreshTaskRequest(identifier: identifier)
    request.earliestBeginDate = Date(timeIntervalSinceNow: seconds)
    try? BGTaskScheduler.shared.submit(request)
}

/// A manifest permitting `identifiers`, with the modes refresh and processing tasks need.
func manifest(_ bundle: String, identifiers: [String]) -> AppManifest {
    AppManifest(
        bundleIdentifier: BundleID(bundle), backgroundModes: [.fetch, .processing], permittedIdentifiers: identifiers)
}

/// A timeline entry at `seconds` for a system event.
func at(_ seconds: Double, _ event: SystemEvent) -> TimelineEntry { TimelineEntry(at: seconds, action: .system(event)) }

extension Array where Element == Record {
    /// The records of one kind for one app, optionally for one task.
    func of(_ kind: RecordKind, _ app: String, task: String? = nil) -> [Record] {
        filter { $0.kind == kind && $0.app?.rawValue == app && (task == nil || $0.task == task) }
    }
}

extension Record {
    /// Whether a `completed` record's task succeeded (its typed detail); nil for other records.
    var succeeded: Bool? {
        if case .completed(let success, _) = detail { success } else { nil }
    }
}

/// A responder that keeps the test's `Sightings`, the base of app delegates that note what they see (each adopts
/// `UIApplicationDelegate` itself, so its own methods are the protocol's witnesses).
class SightingsResponder: UIResponder {
    let sightings: Sightings

    init(sightings: Sightings) {
        self.sightings = sightings
        super.init()
    }
}
