import ArgumentParser
import OffstageSimulator

/// `offstage demo`: the built-in day on a phone with ColorFeed and two other apps.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Watch a simulated day on a phone: launches, background time, tasks, suspension."
    )

    @OptionGroup var options: RunOptions

    @Flag(name: .long, help: "Print the demo's scenario (YAML) instead of running it.")
    var printScenario = false

    func validate() throws {
        let running = [
            ("--until", options.until != nil), ("--json", options.json != nil), ("--verbose", options.verbose),
            ("--summary", options.summary), ("--why", options.why != nil), ("--battery", options.battery),
            ("--html", options.html != nil), ("--trace-events", options.traceEvents != nil),
        ].filter(\.1).map(\.0)
        if printScenario, !running.isEmpty {
            throw ValidationError(
                "--print-scenario prints the scenario and runs nothing, so \(running.joined(separator: ", ")) "
                    + "would do nothing: drop one or the other")
        }
    }

    func run() throws {
        if printScenario {
            Console.print(DemoScenario.yaml)
            return
        }
        try options.run(try DemoScenario.load())
    }
}

/// The demo scenario, embedded in the binary from Resources/demo.yaml.
enum DemoScenario {
    static var yaml: String { String(decoding: PackageResources.demo_yaml, as: UTF8.self) }

    static func load() throws -> Scenario {
        do {
            return try ScenarioLoader.parse(yaml: yaml, source: "built-in demo")
        } catch {
            throw CLIError("\(error)")
        }
    }
}
