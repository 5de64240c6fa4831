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
            scenario = try ScenarioLoader.load(contentsOf: file)
        } catch {
            throw CLIError("\(error)")
        }
        try options.run(scenario)
    }
}
