import ArgumentParser
import ExplorerExamples
import OffstageCore
import OffstageSimulator

/// `offstage explore`: runs an app's code under many seeded device histories and checks the invariants of
/// background code; a failure is shrunk and printed with its seed, a timeline and the scenario timeline.
struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Run an app under many seeded device histories and report the first that breaks an invariant.",
        discussion: """
            Give a scenario file (its apps, device and settings; --app picks the app, default the first) or \
            --example NAME for one of the bundled example apps (\(ExplorerExample.allCases.map(\.rawValue)
                .joined(separator: ", "))), which adds its own invariants. Exits with status 1 when an \
            invariant breaks.
            """)

    @Argument(help: "The scenario file (YAML) with the app to explore.")
    var file: String?

    @Option(name: .long, help: "A bundled example app to explore instead of a scenario file.")
    var example: String?

    @Option(name: .long, help: "The bundle identifier of the app to explore (default: the scenario's first app).")
    var app: String?

    @Option(name: .long, help: "How many histories (default 200).")
    var runs = 200

    @Option(name: .long, help: "The seed of the first history; history i uses seed + i (default 1).")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Disturbances per history after the first open (default 30).")
    var events = 30

    @Option(name: .long, help: "The length of each history, a duration like 12h or 1d (default 1d).")
    var length = "1d"

    @Option(name: .long, help: "A control the user may tap in the app (repeat for several).")
    var tap: [String] = []

    func validate() throws {
        guard (file == nil) != (example == nil) else {
            throw ValidationError("give either a scenario file or --example NAME, not both nor neither")
        }
        guard runs >= 1 else { throw ValidationError("--runs must be at least 1, got \(runs)") }
        guard events >= 0 else { throw ValidationError("--events must not be negative, got \(events)") }
        guard let seconds = ScenarioSyntax.duration(length), seconds >= 3_600 else {
            throw ValidationError("--length expects a duration of at least 1h like 12h or 1d, got \"\(length)\"")
        }
    }

    func run() throws {
        var explorer = try makeExplorer()
        explorer.runs = runs
        explorer.seed = seed
        explorer.events = events
        explorer.length = ScenarioSyntax.duration(length) ?? explorer.length
        explorer.controls += tap
        let result = explorer.explore()
        Console.print(result.description)
        if !result.passed { throw ExitCode(1) }
    }

    /// The explorer of the example, or of the scenario file's app.
    private func makeExplorer() throws -> Explorer {
        if let example {
            guard let chosen = ExplorerExample(rawValue: example) else {
                let names = ExplorerExample.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("--example: no example app '\(example)' (known: \(names))")
            }
            do { return try chosen.explorer() } catch { throw CLIError("\(error)") }
        }
        do {
            let scenario = try ScenarioLoader.load(
                contentsOf: file ?? "", swiftApps: Set(SwiftAppCatalog.bundled.apps.keys))
            for warning in scenario.warnings { Console.warn("warning: \(warning)") }
            guard let first = scenario.apps.first else {
                throw ScenarioError(source: scenario.source, field: "apps", message: "no app to explore")
            }
            let id = app.map { BundleID($0) } ?? first.manifest.bundleIdentifier
            return try Explorer(scenario: scenario, catalog: .bundled, app: id)
        } catch {
            throw CLIError("\(error)")
        }
    }
}
