import Logging

/// A log handler that writes through another one with every control character of the message and the metadata
/// escaped (`\n`, `\u{1B}`, …): values clients choose reach the log, so none may start a line of its own.
struct EscapingLogHandler: LogHandler {
    private var wrapped: any LogHandler

    /// `logger` whose handler escapes what it is given before its own handler writes it.
    static func wrapping(_ logger: Logger) -> Logger {
        Logger(label: logger.label) { _ in EscapingLogHandler(wrapped: logger.handler) }
    }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    /// Hands `event` to the wrapped handler with its message and metadata escaped; its level, error, source and
    /// place are passed on as they are.
    func log(event: LogEvent) {
        var escapedEvent = event
        escapedEvent.message = "\(Self.escaped(event.message.description))"
        escapedEvent.metadata = event.metadata?.mapValues(Self.escaped)
        wrapped.log(event: escapedEvent)
    }

    /// The metadata value with every string in it escaped (`escaped(_:)` of a `String`).
    static func escaped(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text): .string(escaped(text))
        case .stringConvertible(let item): .string(escaped(item.description))
        case .array(let items): .array(items.map(escaped))
        case .dictionary(let entries): .dictionary(entries.mapValues(escaped))
        }
    }

    /// `text` with each control character (C0, DEL, C1) and Unicode line or paragraph separator written as
    /// `\n`, `\r`, `\t` or `\u{XX}`: printable text, tabs aside, is left as it is.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
            || scalar.value == 0x2029
    }
}
