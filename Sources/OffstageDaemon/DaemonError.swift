/// A failure the daemon reports and stops on (at start) or answers a client with. A struct with a code, as
/// swift-service-lifecycle's `ServiceGroupError` is: callers match the code, people read the message.
public struct DaemonError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure: stable values to match on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String { case startup, badBundle, refused, store, badOption }
        private let kind: Kind

        /// The daemon cannot start: its state folder, socket, timers or lock.
        public static let startup = Code(kind: .startup)
        /// An app bundle cannot be installed or launched: its folder, Info.plist or executable.
        public static let badBundle = Code(kind: .badBundle)
        /// A control command cannot be carried out as asked (an app not installed, not on screen, no such control).
        public static let refused = Code(kind: .refused)
        /// The store could not be read or written.
        public static let store = Code(kind: .store)
        /// An option of `offstage daemon` is wrong.
        public static let badOption = Code(kind: .badOption)

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
