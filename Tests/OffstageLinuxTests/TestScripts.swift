import Foundation
import OffstageTestSupport

/// Writes an executable shell script `name` running `body` in `folder` (made if missing) and returns its path
/// (through `ExecutableFile`, so that no child another test spawns meanwhile keeps it busy).
func makeScript(in folder: String, _ name: String, _ body: String) throws -> String {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return try ExecutableFile.write("#!/bin/sh\n" + body + "\n", to: folder + "/" + name)
}
