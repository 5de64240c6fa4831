import Foundation

/// `os.Logger`: a subsystem and category that app code logs messages under. Linux has no unified log, so each
/// message goes to standard error as one line, `subsystem[category] level: message`, with private values hidden.
public struct Logger: Sendable {
    let subsystem: String
    let category: String

    public init(subsystem: String, category: String) {
        self.subsystem = subsystem
        self.category = category
    }

    /// A logger with no subsystem or category (`Logger()`), as on iOS.
    public init() { self.init(subsystem: "", category: "") }

    /// Writes a message at a level: the one method every other calls.
    public func log(level: OSLogType, _ message: OSLogMessage) {
        FileHandle.standardError.write(Data((line(level: level, message) + "\n").utf8))
    }

    public func log(_ message: OSLogMessage) { log(level: .default, message) }
    public func trace(_ message: OSLogMessage) { log(level: .debug, message) }
    public func debug(_ message: OSLogMessage) { log(level: .debug, message) }
    public func info(_ message: OSLogMessage) { log(level: .info, message) }
    public func notice(_ message: OSLogMessage) { log(level: .default, message) }
    public func warning(_ message: OSLogMessage) { log(level: .error, message) }
    public func error(_ message: OSLogMessage) { log(level: .error, message) }
    public func critical(_ message: OSLogMessage) { log(level: .fault, message) }
    public func fault(_ message: OSLogMessage) { log(level: .fault, message) }

    /// The line a message becomes, as it is written (without its newline).
    func line(level: OSLogType, _ message: OSLogMessage) -> String {
        "\(subsystem)[\(category)] \(level.name): \(message.rendered)"
    }
}

/// `OSLogType`: a message's level.
public struct OSLogType: Equatable, Sendable {
    let name: String

    public static let `default` = OSLogType(name: "notice")
    public static let info = OSLogType(name: "info")
    public static let debug = OSLogType(name: "debug")
    public static let error = OSLogType(name: "error")
    public static let fault = OSLogType(name: "fault")
}

/// `OSLogPrivacy`: whether an interpolated value shows in the log. As on a device outside a debugger, `.private`
/// and `.sensitive` values show as `<private>`, and so do `.auto` values other than numbers and booleans.
public struct OSLogPrivacy: Equatable, Sendable {
    enum Visibility: Sendable { case shown, hidden, automatic }
    let visibility: Visibility

    public static let `public` = OSLogPrivacy(visibility: .shown)
    public static let `private` = OSLogPrivacy(visibility: .hidden)
    public static let sensitive = OSLogPrivacy(visibility: .hidden)
    public static let auto = OSLogPrivacy(visibility: .automatic)

    /// `.private(mask: .hash)` and the like: hidden (no hash is shown here).
    public static func `private`(mask: OSLogPrivacy.Mask) -> OSLogPrivacy { .private }
    public static func sensitive(mask: OSLogPrivacy.Mask) -> OSLogPrivacy { .private }
    public static func auto(mask: OSLogPrivacy.Mask) -> OSLogPrivacy { .auto }

    /// `OSLogPrivacy.Mask`.
    public struct Mask: Equatable, Sendable {
        public static let hash = Mask()
        public static let none = Mask()
    }

    /// Whether a value of this kind (`isScalar`: a number or a boolean) shows.
    func shows(scalar isScalar: Bool) -> Bool {
        switch visibility {
        case .shown: true
        case .hidden: false
        case .automatic: isScalar
        }
    }
}

/// `OSLogMessage`: a string literal with interpolated values, each with its privacy.
public struct OSLogMessage: ExpressibleByStringInterpolation, Sendable {
    let rendered: String

    public init(stringLiteral value: String) { rendered = value }
    public init(stringInterpolation: OSLogInterpolation) { rendered = stringInterpolation.text }
}

/// `OSLogInterpolation`: builds a message; every value may name its privacy (`\(count, privacy: .public)`).
public struct OSLogInterpolation: StringInterpolationProtocol, Sendable {
    var text = ""

    public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity) }

    public mutating func appendLiteral(_ literal: String) { text += literal }

    /// A number or boolean: shown unless marked private.
    public mutating func appendInterpolation<Value: Numeric & CustomStringConvertible>(
        _ value: @autoclosure () -> Value, privacy: OSLogPrivacy = .auto
    ) { append(value().description, shown: privacy.shows(scalar: true)) }

    public mutating func appendInterpolation(_ value: @autoclosure () -> Bool, privacy: OSLogPrivacy = .auto) {
        append(value().description, shown: privacy.shows(scalar: true))
    }

    /// Any other value (strings, errors, objects): hidden unless marked public.
    public mutating func appendInterpolation<Value>(_ value: @autoclosure () -> Value, privacy: OSLogPrivacy = .auto) {
        append(String(describing: value()), shown: privacy.shows(scalar: false))
    }

    private mutating func append(_ value: String, shown: Bool) { text += shown ? value : "<private>" }
}
