public import Foundation

/// Where the daemon keeps its state and listens, by default: the daemon and `offstage ctl` (which does not link
/// the daemon) both read it from here, following the XDG base directories.
public enum DaemonLocation {
    /// `$XDG_STATE_HOME/offstage`, or `~/.local/state/offstage`: the store and the apps' logs.
    public static func stateDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let stateHome = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.local/state"
        return stateHome + "/offstage"
    }

    /// `$XDG_RUNTIME_DIR/offstage.sock`, or the socket in the state folder.
    public static func socketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        return (runtime ?? stateDirectory(environment: environment)) + "/offstage.sock"
    }
}
