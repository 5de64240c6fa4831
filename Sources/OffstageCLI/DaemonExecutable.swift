import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `offstage-daemon`, the daemon alone, found beside the running `offstage`: the same daemon without the
/// simulator, the scenario loader and the rest of the CLI, so less code is mapped for as long as it runs.
enum DaemonExecutable {
    /// Replaces this process with `offstage-daemon` given the arguments after `daemon`, if it is installed beside
    /// this executable (building `offstage` builds it too); returns otherwise.
    static func replaceThisProcess() {
        guard let own = executablePath(), let path = besideThis(own) else { return }
        let arguments = [path] + CommandLine.arguments.drop { $0 != "daemon" }.dropFirst()
        let argv = arguments.map { strdup($0) } + [nil]
        execv(path, argv)
        // Only a failed `execv` returns: the daemon runs in this process instead.
        for pointer in argv { free(pointer) }
    }

    /// This process's executable, resolved (`/proc/self/exe`).
    private static func executablePath() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// `offstage-daemon` in the folder of `own`, if it is there and executable.
    private static func besideThis(_ own: String) -> String? {
        let path = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("offstage-daemon").path
        return access(path, X_OK) == 0 ? path : nil
    }
}
