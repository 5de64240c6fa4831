/// A failure the user can fix (a bad scenario file, an unwritable output), printed as it is.
/// Unlike `ValidationError`, it is not followed by the usage text: the command line was fine.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
