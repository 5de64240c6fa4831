/// A point on the system's monotonic clock, in seconds since the system started.
/// Deadlines and expirations use it; a wall-clock jump cannot move it.
public struct Instant: Comparable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Seconds since the system started (boot).
    public var seconds: Double

    public init(seconds: Double) { self.seconds = seconds }

    /// The moment the system starts.
    public static let zero = Instant(seconds: 0)

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.seconds < rhs.seconds }
    public static func + (lhs: Instant, rhs: Double) -> Instant { Instant(seconds: lhs.seconds + rhs) }
    public static func - (lhs: Instant, rhs: Instant) -> Double { lhs.seconds - rhs.seconds }

    /// `seconds` within what converts to whole tenths (±9.2e15 s, about 292 million years; NaN as 0): conversions
    /// to whole numbers saturate here, so that no instant or duration a client chose traps.
    static func writable(_ seconds: Double) -> Double { seconds.isNaN ? 0 : min(max(seconds, -9.2e15), 9.2e15) }

    public var description: String { "t+\(seconds)s" }

    public init(from decoder: any Decoder) throws {
        seconds = try decoder.singleValueContainer().decode(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(seconds)
    }
}

/// Maps the monotonic clock to wall-clock time (seconds since 1970), for `earliestBeginDate`.
/// The host sets it at start and whenever the wall clock is changed; only this edge converts.
public struct WallClock: Hashable, Sendable, Codable {
    /// Wall-clock seconds since 1970 at `Instant.zero`.
    public var epochAtZero: Double
    /// Seconds the local time zone is ahead of UTC: usage (time of day, weekday) is read in local time.
    public var utcOffset: Double

    public init(epochAtZero: Double, utcOffset: Double = 0) {
        self.epochAtZero = epochAtZero
        self.utcOffset = utcOffset
    }

    /// The instant at which the wall clock shows `epochSeconds`.
    public func instant(forEpoch epochSeconds: Double) -> Instant {
        Instant(seconds: epochSeconds - epochAtZero)
    }

    /// The wall-clock reading (seconds since 1970) at `instant`.
    public func epoch(at instant: Instant) -> Double { epochAtZero + instant.seconds }

    /// "2026-11-22 04:30:07Z": the UTC wall clock at `instant`, for records and explanations.
    /// Computed without Foundation (civil-from-days), so it is the same on every platform.
    public func timestamp(at instant: Instant) -> String {
        TextWriter.string(capacity: timestampLength(at: instant)) { writeTimestamp(at: instant, to: &$0) }
    }

    /// The UTF-8 bytes `timestamp(at:)` takes: 20 for a four-digit year.
    func timestampLength(at instant: Instant) -> Int {
        let year = civil(at: instant).year
        return (1000...9999).contains(year) ? 20 : unusualTimestamp(at: instant).utf8.count
    }

    /// Writes the timestamp at `instant` digit by digit: records print one in every explained wait.
    func writeTimestamp(at instant: Instant, to text: inout TextWriter) {
        let (year, month, day, second) = civil(at: instant)
        guard (1000...9999).contains(year) else { return text.write(unusualTimestamp(at: instant)) }
        text.write(year, digits: 4)
        text.write(byte: UInt8(ascii: "-"))
        text.write(month, digits: 2)
        text.write(byte: UInt8(ascii: "-"))
        text.write(day, digits: 2)
        text.write(byte: UInt8(ascii: " "))
        text.write(second / 3600, digits: 2)
        text.write(byte: UInt8(ascii: ":"))
        text.write(second % 3600 / 60, digits: 2)
        text.write(byte: UInt8(ascii: ":"))
        text.write(second % 60, digits: 2)
        text.write(byte: UInt8(ascii: "Z"))
    }

    /// The timestamp of a year outside 1000–9999: at least four digits (`0001-01-01 00:10:00Z`), a sign before one.
    private func unusualTimestamp(at instant: Instant) -> String {
        let (year, month, day, second) = civil(at: instant)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let digits = String(abs(year))
        let yearText = (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        return
            "\(yearText)-\(two(month))-\(two(day)) \(two(second / 3600)):\(two(second % 3600 / 60)):\(two(second % 60))Z"
    }

    /// The UTC calendar date and the second of the day at `instant` (civil-from-days).
    private func civil(at instant: Instant) -> (year: Int, month: Int, day: Int, second: Int) {
        let total = Int(Instant.writable(epoch(at: instant)).rounded(.down))
        let (days, second) = (
            total >= 0 ? total / 86_400 : (total - 86_399) / 86_400, ((total % 86_400) + 86_400) % 86_400
        )
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day, second)
    }
}

/// Seconds with one decimal ("12.5"), without Foundation: the core's records use it.
/// Rounded to tenths so that records print the same on every platform.
func oneDecimal(_ seconds: Double) -> String {
    let tenths = Int((Instant.writable(seconds) * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
}
