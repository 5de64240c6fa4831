import Foundation
import Glibc
import OffstageCore
import OffstageLinux
import OffstageProtocol

/// An app bundle on disk: a `Name.app` folder with an `Info.plist` and the executable it names
/// (`CFBundleExecutable`). Errors name the file and the key at fault.
struct AppBundle {
    var path: String
    var manifest: AppManifest
    var executablePath: String
    /// The controls a user can tap (`ctl tap`), as the bundle declares them under `OffstageControls` (ours, not
    /// Apple's: a real UI's controls are its views; the daemon knows an app's controls only when it lists them).
    var controls: [String]
    /// The variables the bundle declares for its process (`LSEnvironment`, Launch Services' key for them), added
    /// to the minimal environment an app gets (`AppEnvironment`).
    var declaredEnvironment: [String: String]

    init(path: String) throws(DaemonError) {
        guard path.hasPrefix("/") else { throw DaemonError(.badBundle, "\(path): the bundle path must be absolute") }
        let plistPath = path + "/Info.plist"
        guard let data = FileManager.default.contents(atPath: plistPath) else {
            throw DaemonError(.badBundle, "\(plistPath): cannot be read (an app bundle is a folder with an Info.plist)")
        }
        do {
            manifest = try AppManifest(plist: data, source: plistPath)
        } catch {
            throw DaemonError(.badBundle, error.description)
        }
        do { try BundleID.check(manifest.bundleIdentifier.rawValue, in: plistPath, field: "CFBundleIdentifier") } catch
        {
            throw DaemonError(.badBundle, error.description)
        }
        guard let executable = manifest.executable, !executable.isEmpty, !executable.contains("/") else {
            throw DaemonError(
                .badBundle, "\(plistPath): field 'CFBundleExecutable': missing (the executable's name in the bundle)")
        }
        executablePath = path + "/" + executable
        guard access(executablePath, X_OK) == 0 else {
            throw DaemonError(
                .badBundle, "\(plistPath): field 'CFBundleExecutable': \(executablePath) is not an executable file")
        }
        self.path = path
        let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        switch plist?["OffstageControls"] {
        case nil: controls = []
        case let names as [String]: controls = names
        default:
            throw DaemonError(.badBundle, "\(plistPath): field 'OffstageControls': must be an array of control names")
        }
        declaredEnvironment = try Self.declaredEnvironment(plist?["LSEnvironment"], in: plistPath)
    }

    /// `LSEnvironment` checked: a dictionary of strings, each name a shell variable's (letters, digits and `_`, not
    /// starting with a digit) and no value holding a NUL; absent, none.
    private static func declaredEnvironment(_ value: Any?, in plistPath: String) throws(DaemonError) -> [String: String]
    {
        guard let value else { return [:] }
        guard let variables = value as? [String: String] else {
            throw DaemonError(
                .badBundle, "\(plistPath): field 'LSEnvironment': must be a dictionary of variable names to strings")
        }
        for (name, text) in variables {
            let isName =
                name.first.map { !$0.isNumber } == true
                && name.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
                }
            guard isName, !text.utf8.contains(0) else {
                throw DaemonError(
                    .badBundle,
                    "\(plistPath): field 'LSEnvironment': '\(name)' is not a variable name with a value (letters, "
                        + "digits and _, not starting with a digit; no NUL in the value)")
            }
        }
        return variables
    }
}

extension AppBundle {
    /// The user owning the bundle folder, with the primary group of that account; nil when root owns it. A folder
    /// owned by a uid with no account is refused: the app would run as a user the system does not know.
    func owner() throws(DaemonError) -> AppUser? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw DaemonError(.badBundle, "\(path): cannot be read: \(String(cString: strerror(errno)))")
        }
        guard info.st_uid != 0 else { return nil }
        guard let account = getpwuid(info.st_uid) else {
            throw DaemonError(
                .badBundle, "\(path): owned by uid \(info.st_uid), which has no account: the app cannot run as it")
        }
        return AppUser(uid: info.st_uid, gid: account.pointee.pw_gid)
    }
}
