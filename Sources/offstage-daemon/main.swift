import ArgumentParser
import OffstageDaemonCLI

/// `offstage-daemon`: the daemon alone, with the options of `offstage daemon` (which runs it when it is
/// installed beside `offstage`).
struct OffstageDaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offstage-daemon",
        abstract: "Run Offstage for real: manage app processes on this machine (the daemon of `offstage daemon`).")

    @OptionGroup var options: DaemonOptions

    func run() throws { try options.run() }
}

OffstageDaemonCommand.main()
