/// The scenario format's quantity syntax, for other front ends (the CLI's `--until`).
/// One parser for every place a user writes a duration.
public enum ScenarioSyntax {
    /// Seconds in a duration like `90s`, `15m`, `1h30m`, `1d`, or a clock offset like `1d 07:00`; nil if malformed.
    public static func duration(_ text: String) -> Double? {
        Quantities.seconds(text) ?? Quantities.timelineOffset(text)
    }

    /// Seconds since 1970 of a wall-clock time like `2026-11-22 07:00:00Z` (the timeline's notation) or any ISO 8601
    /// date; nil if it is not one.
    public static func moment(_ text: String) -> Double? { Quantities.epoch(iso8601: text) }

    /// What a duration looks like, for error messages.
    public static let durationHint = Quantities.timeHint
}
