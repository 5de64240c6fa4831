import Glibc
import OffstageCore
import OffstageLinux

/// The environment an app's process starts with: a minimal one, never the daemon's (which may hold its service
/// manager's variables and secrets), then what the bundle declares, then Offstage's own variables, which win.
enum AppEnvironment {
    /// The search path apps get: systemd's default for services.
    static let searchPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

    /// `PATH`, `HOME`, `USER` and `LOGNAME` of the user the app runs as (`HOME` `/` for a user id without an
    /// account, as `--app-uids` gives), `LANG` (the daemon's, or `C.UTF-8`), the bundle's `LSEnvironment`, and
    /// `OFFSTAGE_SOCKET`, `OFFSTAGE_BUNDLE_ID`, `OFFSTAGE_LAUNCH_REASON`.
    static func variables(
        for id: BundleID, bundle: AppBundle, user: AppUser?, socket: String, reason: LaunchReason
    ) -> [String: String] {
        let language = getenv("LANG").flatMap { String(validatingCString: $0) } ?? ""
        var result = ["PATH": searchPath, "LANG": language.isEmpty ? "C.UTF-8" : language]
        if let account = getpwuid(user?.uid ?? getuid()) {
            let name = String(cString: account.pointee.pw_name)
            result["HOME"] = String(cString: account.pointee.pw_dir)
            result["USER"] = name
            result["LOGNAME"] = name
        } else {
            result["HOME"] = "/"
        }
        result.merge(bundle.declaredEnvironment) { _, declared in declared }
        result.merge([
            "OFFSTAGE_SOCKET": socket, "OFFSTAGE_BUNDLE_ID": id.rawValue, "OFFSTAGE_LAUNCH_REASON": reason.rawValue,
        ]) { _, own in own }
        return result
    }
}
