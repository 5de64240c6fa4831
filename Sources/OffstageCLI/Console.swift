import Foundation

/// Where the commands' output goes: standard output, or what a test sets for the task it runs commands in, so that
/// a test can run thousands of commands in-process and read what each printed.
enum Console {
    @TaskLocal static var sink: (@Sendable (String) -> Void)?
    /// Where warnings go instead of standard error, in a test.
    @TaskLocal static var warnings: (@Sendable (String) -> Void)?

    /// Writes a warning line to standard error (or the task's warning sink): the run goes on.
    static func warn(_ text: String) {
        guard let warnings else { return FileHandle.standardError.write(Data((text + "\n").utf8)) }
        warnings(text + "\n")
    }

    /// Prints `text` as `Swift.print` would, or hands it to the task's sink.
    static func print(_ text: String = "", terminator: String = "\n") {
        guard let sink else { return Swift.print(text, terminator: terminator) }
        sink(text + terminator)
    }
}
