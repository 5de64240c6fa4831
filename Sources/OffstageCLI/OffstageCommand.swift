public import ArgumentParser

/// `offstage`: the command-line face of Offstage: run the demo day, or any scenario.
public struct OffstageCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "offstage",
        abstract: "The iOS background-execution system, off the device.",
        discussion: "Run `offstage demo` to watch a day on a phone; `offstage simulate FILE.yaml` runs any scenario; "
            + "`offstage evaluate --trace FILE.csv` measures scheduling policies on a usage trace; "
            + "`offstage daemon` manages real processes, `offstage ctl` drives it.",
        subcommands: [
            DemoCommand.self, SimulateCommand.self, ExploreCommand.self, EvaluateCommand.self, CalibrateCommand.self,
            TraceCommand.self,
            DaemonCommand.self,
            CtlCommand.self,
        ]
    )

    public init() {}
}

extension OffstageCommand {
    /// Parses the process's arguments and runs the command (the `offstage` executable's whole job).
    public static func runFromCommandLine() async { await main() }
}
