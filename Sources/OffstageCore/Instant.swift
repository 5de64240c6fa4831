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

    public init(epochAtZero: Double) { self.epochAtZero = epochAtZero }

    /// The instant at which the wall clock shows `epochSeconds`.
    public func instant(forEpoch epochSeconds: Double) -> Instant {
        Instant(seconds: epochSeconds - epochAtZero)
    }

    /// The wall-clock reading (seconds since 1970) at `instant`.
    public func epoch(at instant: Instant) -> Double { epochAtZero + instant.seconds }
}

/// Seconds with one decimal ("12.5"), without Foundation: the core's records use it.
/// Rounded to tenths so that records print the same on every platform.
func oneDecimal(_ seconds: Double) -> String {
    let tenths = Int((seconds * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
}
