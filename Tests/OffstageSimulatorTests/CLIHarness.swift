import ArgumentParser
import Foundation

@testable import OffstageCLI

/// `offstage` run in-process, as its `main` would run it: parsed, validated and run, with what it printed, what it
/// warned, and the error text and exit code `main` would give. Thousands of runs take seconds this way.
enum CLI {
    struct Outcome {
        var output = ""
        var warnings = ""
        /// The text `main` prints for the error (with the usage, for a validation error); nil on success.
        var error: String?
        var exitCode: Int32 = 0
    }

    /// Text gathered from the commands' output, in order, from any thread.
    final class Buffer: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func append(_ more: String) { lock.withLock { text += more } }
        var contents: String { lock.withLock { text } }
    }

    static func run(_ arguments: [String]) async -> Outcome {
        precondition(arguments.first != "daemon", "`offstage daemon` replaces the process: not run in a test")
        let output = Buffer()
        let warnings = Buffer()
        var outcome = Outcome()
        await Console.$sink.withValue(output.append) {
            await Console.$warnings.withValue(warnings.append) {
                do {
                    var command = try OffstageCommand.parseAsRoot(arguments)
                    if var asynchronous = command as? any AsyncParsableCommand {
                        try await asynchronous.run()
                    } else {
                        try command.run()
                    }
                } catch {
                    outcome.error = OffstageCommand.fullMessage(for: error)
                    outcome.exitCode = OffstageCommand.exitCode(for: error).rawValue
                }
            }
        }
        outcome.output = output.contents
        outcome.warnings = warnings.contents
        return outcome
    }

    /// A fresh temporary folder, removed by the caller.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("offstage-cli-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
