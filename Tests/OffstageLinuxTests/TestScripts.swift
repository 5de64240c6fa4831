import Foundation
import Testing

/// Writes an executable shell script `name` running `body` in `folder` (made if missing) and returns its path.
/// Written through a close-on-exec descriptor: a child another test spawns meanwhile must not inherit it open for
/// writing, which would make executing the script fail (`ETXTBSY`, the shell's status 126).
func makeScript(in folder: String, _ name: String, _ body: String) throws -> String {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/" + name
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    try #require(fd >= 0, "cannot create \(path)")
    let text = Array(("#!/bin/sh\n" + body + "\n").utf8)
    let written = write(fd, text, text.count)
    close(fd)
    try #require(written == text.count, "cannot write \(path)")
    return path
}
