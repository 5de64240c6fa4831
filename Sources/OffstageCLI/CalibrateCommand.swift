import ArgumentParser
import Foundation
import OffstageCore
import OffstageSimulator

/// `offstage calibrate --trace FILE`: how well the launch model's probabilities match the trace's launches,
/// by bucket of predicted probability (see `LaunchCalibration`).
struct CalibrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Show the launch model's calibration on a usage trace: predicted probability against launches.")

    @Option(help: "The usage trace (CSV; see docs/traces.md); `offstage trace generate` makes one.")
    var trace: String
    @Option(help: "Seconds between samples of every app's likelihood.")
    var interval: Double = 300
    @Option(help: "Calibrate under the numbers of this policy file (YAML or JSON, as `evaluate --policy` reads).")
    var policy: String?

    func validate() throws {
        guard interval >= 60 else { throw ValidationError("--interval: at least 60 seconds, got \(interval)") }
    }

    func run() async throws {
        let usage: UsageTrace
        do {
            usage = try TraceLoader.load(contentsOf: trace)
        } catch {
            throw CLIError("\(error)")
        }
        var numbers = Policy.iOS
        if let policy {
            do {
                numbers = try EvaluatedPolicy.load(contentsOf: policy).policy
            } catch {
                throw CLIError("\(error)")
            }
        }
        let calibration = LaunchCalibration.measure(usage, policy: numbers, interval: interval)
        Console.print(
            "Calibration of the launch model on \(trace): \(usage.users.count) users, \(calibration.samples) "
                + "predictions (every app, every \(Int(interval)) s, once learnt); observed: opened within 15 min")
        Console.print(calibration.table())
        Console.print(
            "\nThe app refreshes the judgement ran (\(calibration.runCount)), at the "
                + "likelihood it acted on; observed: opened within 15 min after the run started")
        Console.print(calibration.runTables())
    }
}
