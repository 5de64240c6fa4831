import ArgumentParser
import ColorFeed
import ExplorerExamples
import Foundation
import OffstageCore
import OffstageSimulator

/// The options `demo` and `simulate` share: how long, what to print, and the files to write. Every option is
/// honoured or refused: options that contradict each other are an error, never silently dropped.
struct RunOptions: ParsableArguments {
    @Option(
        name: .long,
        help: """
            When to stop: a duration from the start (2h, 1d, "1d 07:00") or a time as the timeline prints it \
            ("2026-11-22 07:00:00Z"); default: the scenario's.
            """)
    var until: String?

    @Option(name: .long, help: "Write every record as JSON to this file.")
    var json: String?

    @Flag(name: .long, help: "Show every record: callbacks, registrations, assertions, state changes.")
    var verbose = false

    @Flag(name: .long, help: "Print only the summary, not the timeline.")
    var summary = false

    @Option(
        name: .long,
        help: """
            Explain one request by its identifier (where it stands at the end, and its history) instead of the \
            timeline and the summary.
            """)
    var why: String?
    @Flag(name: .long, help: "Show the Battery view at the end: the level, and energy per app over 24 h and 10 days.")
    var battery = false

    @Option(
        name: .long,
        help: "Write the HTML report (app states, tasks, device, pushes, battery, energy, requests) to this file.")
    var html: String?

    @Option(name: .long, help: "The HTML report shows the run from this moment (a duration or a time, as --until).")
    var from: String?
    @Option(name: .long, help: "The HTML report shows the run up to this moment (a duration or a time, as --until).")
    var to: String?

    @Option(
        name: .customLong("trace-events"),
        help:
            "Write the run in the Trace Event Format (JSON) to this file, to open in ui.perfetto.dev or about:tracing.")
    var traceEvents: String?

    /// When the run ends: a duration from the start, or a wall-clock time to be placed against the scenario's start.
    enum End {
        case after(seconds: Double)
        case at(epoch: Double)
    }

    /// `--until` as written, or a validation error that names the option and says what was wrong.
    func end() throws -> End? {
        guard let until else { return nil }
        let end = try Self.moment(until, option: "--until")
        if case .after(let seconds) = end, seconds <= 0 {
            throw ValidationError("--until: \"\(until)\" would end the run where it starts: give a positive duration")
        }
        return end
    }

    /// A moment written as a duration from the start or as a time, or a validation error naming `option`.
    static func moment(_ text: String, option: String) throws -> End {
        if let epoch = ScenarioSyntax.moment(text) { return .at(epoch: epoch) }
        guard let seconds = ScenarioSyntax.duration(text) else {
            throw ValidationError(
                "\(option): expected a duration from the start like 2h, 1d or \"1d 07:00\", or a time like "
                    + "\"2026-11-22 07:00:00Z\", got \"\(text)\"")
        }
        return .after(seconds: seconds)
    }

    /// The files the options name, to check before the run.
    var outputs: [OutputFile] {
        [
            json.map { OutputFile(option: "--json", path: $0) }, html.map { OutputFile(option: "--html", path: $0) },
            traceEvents.map { OutputFile(option: "--trace-events", path: $0) },
        ].compactMap { $0 }
    }

    func validate() throws {
        _ = try end()
        if summary && verbose {
            throw ValidationError("--summary prints no timeline, and --verbose shows more of it: choose one")
        }
        if let why, summary || verbose {
            throw ValidationError(
                "--why \(why) prints the request's history instead of the timeline and the summary: "
                    + "drop \(summary ? "--summary" : "--verbose")")
        }
        for (option, value) in [("--from", from), ("--to", to)] {
            guard let value else { continue }
            guard html != nil else {
                throw ValidationError("\(option) chooses the window of the HTML report: add --html FILE")
            }
            _ = try Self.moment(value, option: option)
        }
        try OutputFile.check(outputs)
    }

    /// Seconds from the scenario's start to `--until`, or nil for the scenario's own length.
    func duration(of scenario: Scenario) throws -> Double? {
        try end().map { try Self.seconds($0, of: scenario, option: "--until", written: until ?? "") }
    }

    /// Seconds from the scenario's start to `moment`; a time before the start is an error naming `option`.
    static func seconds(_ moment: End, of scenario: Scenario, option: String, written: String) throws -> Double {
        switch moment {
        case .after(let seconds): return seconds
        case .at(let epoch):
            let start = WallClock(epochAtZero: scenario.startEpoch).timestamp(at: .zero)
            guard epoch > scenario.startEpoch else {
                throw CLIError("\(option): \(written) is not after the scenario's start, \(start)")
            }
            return epoch - scenario.startEpoch
        }
    }

    /// The HTML report's window, `--from` to `--to`, as instants of the run (nil where not given).
    func window(of scenario: Scenario) throws -> (from: Instant?, to: Instant?) {
        func instant(_ text: String?, _ option: String) throws -> Instant? {
            guard let text else { return nil }
            return Instant(
                seconds: try Self.seconds(
                    try Self.moment(text, option: option), of: scenario, option: option, written: text))
        }
        let window = (from: try instant(from, "--from"), to: try instant(to, "--to"))
        if let start = window.from, let end = window.to, start >= end {
            throw CLIError("--from \(from ?? "") is not before --to \(to ?? ""): the window would be empty")
        }
        return window
    }

    /// Runs `scenario` and prints the timeline and the summary (or the explanation `--why` asks for), the Battery
    /// view with `--battery`, and writes the files asked for.
    func run(_ scenario: Scenario) throws {
        let duration = try duration(of: scenario)
        let window = try window(of: scenario)
        try OutputFile.check(outputs)
        let simulation = try Simulation(scenario: scenario, catalog: .bundled)
        let progress = ProgressBar(label: scenario.name)
        let report = simulation.report(for: duration, progress: progress.update)
        progress.finish()
        // An unknown --why is reported after the files are written: the run itself went well.
        var unknownRequest: CLIError?
        if let why {
            if let explanation = report.why(why) {
                Console.print(explanation)
            } else {
                unknownRequest = CLIError("--why: no request with identifier \"\(why)\" appears in this run")
            }
        } else {
            if !summary {
                Console.print(report.timeline(verbose: verbose))
                Console.print("")
            }
            Console.print(report.summary())
        }
        if battery {
            Console.print("")
            Console.print(BatteryReport(system: simulation.system).text())
        }
        if let json {
            try OutputFile(option: "--json", path: json).write(try report.json())
            Console.print("Records written to \(json)")
        }
        if let html {
            try OutputFile(option: "--html", path: html).write(
                Data(HTMLReport(report: report, simulation: simulation, from: window.from, to: window.to).html().utf8))
            Console.print("HTML report written to \(html)")
        }
        if let traceEvents {
            try OutputFile(option: "--trace-events", path: traceEvents).write(
                try TraceEventFile(report: report, simulation: simulation).json())
            Console.print("Trace events written to \(traceEvents) (open it in https://ui.perfetto.dev)")
        }
        // A stall ends the run early: its records up to there are out, and the command fails naming the app code.
        if let stall = simulation.stall { throw CLIError("\(scenario.source): \(stall)") }
        if let unknownRequest { throw unknownRequest }
    }
}

extension SwiftAppCatalog {
    /// The Swift apps this build of `offstage` can host: ColorFeed, and the explorer's example apps (by their
    /// class names, keeping their items on a disk of their own).
    static let bundled: SwiftAppCatalog = {
        var apps = ExplorerExample.catalog(disk: ExampleDisk()).apps
        apps["ColorFeed"] = { ColorFeed.makeDelegate() }
        return SwiftAppCatalog(apps)
    }()
}
