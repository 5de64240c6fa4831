import Foundation

/// A file the user asked a command to write (`--html`, `--json`, `-o`…): checked before any work starts, so that a
/// long run never ends on "cannot write", and written with an error that names the option and the path.
struct OutputFile {
    /// The option that named the file, for errors (`--html`).
    var option: String
    var path: String

    /// Fails, naming the option and the path, unless the file can be created or overwritten: its folder exists
    /// and is writable, and the path is not a folder or a read-only file.
    func check() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else { throw failure("it is a folder") }
            guard FileManager.default.isWritableFile(atPath: path) else { throw failure("the file is read-only") }
            return
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw failure("the folder \(folder) does not exist")
        }
        guard isDirectory.boolValue else { throw failure("\(folder) is not a folder") }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw failure("the folder \(folder) is not writable")
        }
    }

    /// Writes `data` to the file.
    func write(_ data: Data) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw failure(error.localizedDescription)
        }
    }

    private func failure(_ reason: String) -> CLIError { CLIError("\(option): cannot write \(path): \(reason)") }

    /// Checks each file, and that no two options name the same one (the second would overwrite the first).
    static func check(_ files: [OutputFile]) throws {
        for (index, file) in files.enumerated() {
            if let other = files[..<index].first(where: { $0.path == file.path }) {
                throw CLIError("\(other.option) and \(file.option) both name \(file.path): give each its own file")
            }
            try file.check()
        }
    }
}
