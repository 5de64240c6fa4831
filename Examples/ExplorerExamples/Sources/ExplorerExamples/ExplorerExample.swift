public import OffstageCore
public import OffstageKit
public import OffstageSimulator

/// The example apps by name, each with the scenario the explorer explores it in and the app's own invariants
/// (what `SyncApp` promises about its disk): the corrected `SyncApp` and one app per classic bug.
public enum ExplorerExample: String, CaseIterable, Sendable {
    case correct = "SyncApp"
    case noCompletionOnError = "NoCompletionOnErrorApp"
    case unendedBackgroundTask = "UnendedBackgroundTaskApp"
    case noExpirationHandler = "NoExpirationHandlerApp"
    case lateRegistration = "LateRegistrationApp"
    case saveOnlyInWillTerminate = "SaveOnlyInWillTerminateApp"
    case workAfterExpiration = "WorkAfterExpirationApp"

    /// Every example app's bundle identifier.
    public static let bundle = BundleID("com.example.sync")

    /// A fresh delegate of this example, keeping its items on `disk` (made on the main actor, as UIKit makes it).
    @MainActor public func makeDelegate(disk: ExampleDisk) -> any UIApplicationDelegate {
        switch self {
        case .correct: SyncApp(disk: disk)
        case .noCompletionOnError: NoCompletionOnErrorApp(disk: disk)
        case .unendedBackgroundTask: UnendedBackgroundTaskApp(disk: disk)
        case .noExpirationHandler: NoExpirationHandlerApp(disk: disk)
        case .lateRegistration: LateRegistrationApp(disk: disk)
        case .saveOnlyInWillTerminate: SaveOnlyInWillTerminateApp(disk: disk)
        case .workAfterExpiration: WorkAfterExpirationApp(disk: disk)
        }
    }

    /// Every example, by name (a scenario's `code:`), each launch made with a fresh delegate on `disk`.
    public static func catalog(disk: ExampleDisk) -> SwiftAppCatalog {
        SwiftAppCatalog(
            Dictionary(
                uniqueKeysWithValues: allCases.map { example in
                    (example.rawValue, { @MainActor @Sendable in example.makeDelegate(disk: disk) })
                }))
    }

    /// A scenario with this example installed (its Info.plist permits the refresh) and the feed served in 2 s.
    public var scenario: Scenario {
        let manifest = AppManifest(
            bundleIdentifier: Self.bundle, backgroundModes: [.fetch], permittedIdentifiers: [SyncApp.refresh])
        var scenario = Scenario(
            name: rawValue, source: "ExplorerExample.\(rawValue)", startEpoch: ExampleDisk.startEpoch,
            apps: [ScenarioApp(manifest: manifest, code: rawValue)])
        scenario.network.routes.append(
            NetworkRoute(match: .host("api.example.com"), answer: .response(OffstageNetworkResponse()), serverTime: 2))
        return scenario
    }

    /// An explorer of this example with the standard invariants and the app's own, on a disk of its own that
    /// is reset before each history, with the user tapping "add".
    public func explorer() throws(ScenarioError) -> Explorer {
        let disk = ExampleDisk()
        var explorer = try Explorer(scenario: scenario, catalog: Self.catalog(disk: disk), app: Self.bundle)
        explorer.controls = ["add"]
        explorer.invariants += [Self.noItemLost(on: disk), Self.writesOnlyWhileATaskRuns(on: disk)]
        explorer.beforeEachHistory = { disk.reset() }
        return explorer
    }

    /// No item the user added is lost across a kill: when the process ends after leaving the screen, every item
    /// added before is saved.
    public static func noItemLost(on disk: ExampleDisk) -> Invariant {
        Invariant("no item the user saved is lost across a kill") { outcome in
            // Items of a process that ended on screen had no chance to be saved: they are not asked for.
            var forgivenUntil = -Double.infinity
            for record in outcome.appRecords {
                guard case .terminated(let from, _) = record.detail else { continue }
                // Only an app that left the screen had its chance to save (`applicationDidEnterBackground`).
                guard from == .background || from == .suspended else {
                    forgivenUntil = record.at.seconds
                    continue
                }
                let lost = disk.added.first { added in
                    added.at > forgivenUntil && added.at <= record.at.seconds
                        && (disk.saved[added.item].map { $0 > record.at.seconds } ?? true)
                }
                if let lost { return Violation(at: record.at, "\(lost.item) was lost when the process ended") }
            }
            return nil
        }
    }

    /// The refresh writes only while its task runs (between its start and its completion).
    public static func writesOnlyWhileATaskRuns(on disk: ExampleDisk) -> Invariant {
        Invariant("no work after the task ended") { outcome in
            // Runs may overlap (a new request launched while the last runs): a stretch lasts while any runs.
            var runs: [ClosedRange<Double>] = []
            var running = 0
            var since = 0.0
            for record in outcome.appRecords where record.task == SyncApp.refresh {
                switch record.detail {
                case .started:
                    if running == 0 { since = record.at.seconds }
                    running += 1
                case .completed, .killed:
                    running = max(0, running - 1)
                    // The disk's times are rounded to the millisecond: so are the stretch's bounds.
                    if running == 0 { runs.append(since - 0.001...record.at.seconds + 0.001) }
                default: break
                }
            }
            if running > 0 { runs.append(since...Double.infinity) }
            guard let stray = disk.writes.first(where: { at in !runs.contains { $0.contains(at) } }) else {
                return nil
            }
            return Violation(at: Instant(seconds: stray), "a chunk was written after its refresh task had ended")
        }
    }
}
