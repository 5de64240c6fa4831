/// A failure of the operating system's side of running apps: no freezer of the kind asked for, a process that
/// could not be started, a system call that failed. A struct with a code, as swift-service-lifecycle's and
/// swift-subprocess's errors are: callers match the code, people read the message.
public struct HostError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure: stable values to match on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String { case noFreezer, cannotStart, system }
        private let kind: Kind

        /// The freezer asked for (`--freezer`) is not available on this machine.
        public static let noFreezer = Code(kind: .noFreezer)
        /// An app's executable could not be started.
        public static let cannotStart = Code(kind: .cannotStart)
        /// A system call the host needs failed.
        public static let system = Code(kind: .system)

        public var description: String { kind.rawValue }
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
