import Foundation
import Glibc
import OffstageCore
import OffstageProtocol

/// An app bundle on disk: a `Name.app` folder with an `Info.plist` and the executable it names
/// (`CFBundleExecutable`). Errors name the file and the key at fault.
struct AppBundle {
    var path: String
    var manifest: AppManifest
    var executablePath: String

    init(path: String) throws(DaemonError) {
        guard path.hasPrefix("/") else { throw DaemonError("\(path): the bundle path must be absolute") }
        let plistPath = path + "/Info.plist"
        guard let data = FileManager.default.contents(atPath: plistPath) else {
            throw DaemonError("\(plistPath): cannot be read (an app bundle is a folder with an Info.plist)")
        }
        do {
            manifest = try AppManifest(plist: data, source: plistPath)
        } catch {
            throw DaemonError(error.description)
        }
        do { try BundleID.check(manifest.bundleIdentifier.rawValue, in: plistPath, field: "CFBundleIdentifier") } catch
        {
            throw DaemonError(error.description)
        }
        guard let executable = manifest.executable, !executable.isEmpty, !executable.contains("/") else {
            throw DaemonError("\(plistPath): field 'CFBundleExecutable': missing (the executable's name in the bundle)")
        }
        executablePath = path + "/" + executable
        guard access(executablePath, X_OK) == 0 else {
            throw DaemonError("\(plistPath): field 'CFBundleExecutable': \(executablePath) is not an executable file")
        }
        self.path = path
    }
}
