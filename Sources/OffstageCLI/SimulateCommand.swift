import ArgumentParser
import OffstageSimulator

/// `offstage simulate FILE.yaml`: runs any scenario file.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate", abstract: "Run a scenario file (YAML) and print its timeline and summary.")

    @Argument(help: "The scenario file (YAML).")
    var file: String

    @OptionGroup var options: RunOptions

    func run() throws {
        let scenario: Scenario
        do {
            scenario = try ScenarioLoader.load(contentsOf: file, swiftApps: Set(SwiftAppCatalog.bundled.apps.keys))
        } catch {
            throw CLIError("\(error)")
        }
        for warning in scenario.warnings { Console.warn("warning: \(warning)") }
        try options.run(scenario)
    }
}
