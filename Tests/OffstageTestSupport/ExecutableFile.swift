import Foundation
import Glibc

/// Executables the tests write and then spawn (shell scripts an app bundle points at), written so that starting
/// them never fails with "text file busy".
///
/// Linux refuses to `execve` a file while any process holds it open for writing (`ETXTBSY`; the daemon's
/// trampoline shell exits 126). All the package's tests run in one process, so a descriptor that process opens is
/// copied into every child another test spawns meanwhile: a `posix_spawn` child keeps it until its file actions
/// close it (the daemon's spawner closes every descriptor above stderr) or, if it is close-on-exec, until its
/// `exec`; Foundation's `Process` child keeps it until it has closed every
/// descriptor one by one up to the limit (20 000 here). Closing or renaming afterwards does not help: the copy
/// refers to the same file. So the test process never opens an executable for writing: a `/bin/cp` child, which
/// spawns nothing, writes it under a temporary name; the file is then made executable and renamed into place, a new
/// file, so an older one at the path that still runs or is still held open is not touched.
package enum ExecutableFile {
    /// Writes `text` as an executable file at `path` (a `#!` script, say) and returns `path`.
    /// The text goes to a plain file (never executed) that a child copies; see the type's comment for why.
    @discardableResult
    package static func write(_ text: String, to path: String) throws(ExecutableFileError) -> String {
        let source = path + ".text-\(UUID().uuidString.prefix(8))"
        defer { unlink(source) }
        try writePlain(Array(text.utf8), to: source)
        try install(copyOf: source, at: path)
        return path
    }

    /// Makes `path` an executable copy of the file (or FIFO) `source`: a `/bin/cp` child writes it under a temporary
    /// name next to `path`, which is then given mode 0755 and renamed to `path`. Returns once `path` is in place.
    package static func install(copyOf source: String, at path: String) throws(ExecutableFileError) {
        let temporary = path + ".new-\(UUID().uuidString.prefix(8))"
        try copy(source, to: temporary)
        guard chmod(temporary, 0o755) == 0, rename(temporary, path) == 0 else {
            let failure = ExecutableFileError("cannot put \(path) in place: \(String(cString: strerror(errno)))")
            unlink(temporary)
            throw failure
        }
    }

    /// Writes `bytes` to a new file at `path` through a close-on-exec descriptor (no child inherits it).
    private static func writePlain(_ bytes: [UInt8], to path: String) throws(ExecutableFileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ExecutableFileError("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw ExecutableFileError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            written += count
        }
    }

    /// Runs `/bin/cp SOURCE DESTINATION` and waits for it to end: the only process that ever holds `destination`
    /// open for writing.
    private static func copy(_ source: String, to destination: String) throws(ExecutableFileError) {
        let arguments = ["/bin/cp", "--", source, destination]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, "/bin/cp", nil, nil, argv, environ)
        guard started == 0 else {
            throw ExecutableFileError("cannot start /bin/cp for \(destination): \(String(cString: strerror(started)))")
        }
        var status: Int32 = 0
        var reaped = waitpid(pid, &status, 0)
        while reaped < 0 && errno == EINTR { reaped = waitpid(pid, &status, 0) }
        guard reaped == pid, status == 0 else {
            unlink(destination)
            throw ExecutableFileError("/bin/cp could not copy \(source) to \(destination) (wait status \(status))")
        }
    }
}

/// Why an executable could not be written, naming the file and the system's reason.
package struct ExecutableFileError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
