import ArgumentParser

/// `offstage daemon`: the background manager for real Linux processes, until SIGTERM or SIGINT. The daemon is its
/// own executable, `offstage-daemon`, beside `offstage`: this process becomes it, with every argument after
/// `daemon`, so that `offstage` links no SQLite and the simulator builds without its headers.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run Offstage for real: manage app processes on this machine (runs offstage-daemon).",
        discussion: """
            State lives in $XDG_STATE_HOME/offstage (or ~/.local/state/offstage); the socket in \
            $XDG_RUNTIME_DIR (or the state folder). Drive it with `offstage ctl`. Every argument goes to \
            `offstage-daemon`, built beside `offstage` by `swift build` (which needs the SQLite headers, \
            libsqlite3-dev): `offstage daemon --help` shows its options.
            """)

    @Argument(parsing: .captureForPassthrough, help: "The daemon's options (see `offstage daemon --help`).")
    var arguments: [String] = []

    func run() throws {
        throw CLIError(DaemonExecutable.replaceThisProcess(arguments: arguments))
    }
}
