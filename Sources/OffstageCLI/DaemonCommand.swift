import ArgumentParser
import OffstageDaemonCLI

/// `offstage daemon`: the background manager for real Linux processes, until SIGTERM or SIGINT.
/// When `offstage-daemon` (the daemon alone) is installed beside `offstage`, as a build makes it, this process
/// becomes it; otherwise the daemon runs here. The same daemon either way; the lone one maps less code.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run Offstage for real: manage app processes on this machine.",
        discussion: """
            State lives in $XDG_STATE_HOME/offstage (or ~/.local/state/offstage); the socket in \
            $XDG_RUNTIME_DIR (or the state folder). Drive it with `offstage ctl`.
            """)

    @OptionGroup var options: DaemonOptions

    func run() throws {
        DaemonExecutable.replaceThisProcess()
        try options.run()
    }
}
