import ArgumentParser
import ColorFeed
import Foundation
import OffstageSimulator

/// The options `demo` and `simulate` share: how long, where the JSON goes, how much to print, the Battery view.
struct RunOptions: ParsableArguments {
    @Option(name: .long, help: "Virtual time to run, e.g. 2h, 1d, \"1d 07:00\" (default: the scenario's).")
    var until: String?

    @Option(name: .long, help: "Write every record as JSON to this file.")
    var json: String?

    @Flag(name: .long, help: "Show every record: callbacks, registrations, assertions, state changes.")
    var verbose = false

    @Flag(name: .long, help: "Print only the summary, not the timeline.")
    var summary = false

    @Option(name: .long, help: "Explain one request by its identifier: where it stands at the end, and its history.")
    var why: String?
    @Flag(name: .long, help: "Show the Battery view at the end: the level, and energy per app over 24 h and 10 days.")
    var battery = false

    /// `--until` in seconds, or a validation error that names the option.
    func duration() throws -> Double? {
        guard let until else { return nil }
        guard let seconds = ScenarioSyntax.duration(until), seconds > 0 else {
            throw ValidationError("--until: expected \(ScenarioSyntax.durationHint), got \"\(until)\"")
        }
        return seconds
    }

    /// Runs `scenario` and prints the timeline and the summary; writes JSON if asked.
    func run(_ scenario: Scenario) throws {
        let duration = try duration()
        let simulation = try Simulation(scenario: scenario, catalog: .bundled)
        let progress = ProgressBar(label: scenario.name)
        let report = simulation.report(for: duration, progress: progress.update)
        progress.finish()
        if let why {
            guard let explanation = report.why(why) else {
                throw CLIError("--why: no request with identifier \"\(why)\" appears in this run")
            }
            print(explanation)
            return
        }
        if !summary {
            print(report.timeline(verbose: verbose))
            print("")
        }
        print(report.summary())
        if battery {
            print("")
            print(BatteryReport(system: simulation.system).text())
        }
        if let json {
            do {
                try report.json().write(to: URL(fileURLWithPath: json))
            } catch {
                throw CLIError("--json: cannot write \(json): \(error.localizedDescription)")
            }
            print("Records written to \(json)")
        }
    }
}

extension SwiftAppCatalog {
    /// The Swift apps this build of `offstage` can host.
    static let bundled = SwiftAppCatalog(["ColorFeed": { ColorFeed.makeDelegate() }])
}
