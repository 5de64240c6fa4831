import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `offstage-daemon`, the daemon alone, found beside the running `offstage`: `offstage` itself links no daemon
/// (no SQLite), so `offstage daemon` is this executable under another name.
enum DaemonExecutable {
    /// Replaces this process with `offstage-daemon` from `folder` (by default this executable's) given `arguments`;
    /// returns only when that fails, with an error that says why and how to build the daemon.
    static func replaceThisProcess(arguments: [String], folder: String? = nil) -> String {
        let folder = folder ?? executablePath().map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
        let path = (folder ?? ".") + "/offstage-daemon"
        guard access(path, X_OK) == 0 else { return Self.missing(path) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        for pointer in argv { free(pointer) }
        return "offstage daemon: cannot run \(path): \(reason)"
    }

    /// The error when `offstage-daemon` is not beside `offstage`: where it was looked for, and how to build it.
    static func missing(_ path: String) -> String {
        """
        offstage daemon: the daemon is a separate executable, and \(path) is not there (or not executable).
        Build it with `swift build --product offstage-daemon` (or `swift build`, which builds everything); it \
        stores its state in SQLite, so it needs the SQLite headers: `sudo apt-get install libsqlite3-dev` \
        (Debian/Ubuntu).
        """
    }

    /// This process's executable, resolved (`/proc/self/exe`).
    private static func executablePath() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }
}
