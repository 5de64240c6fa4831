/// The scenario format's quantity syntax, for other front ends (the CLI's `--until`).
/// One parser for every place a user writes a duration.
public enum ScenarioSyntax {
    /// Seconds in a duration like `90s`, `15m`, `1h30m`, `1d`, or a clock offset like `1d 07:00`; nil if malformed.
    public static func duration(_ text: String) -> Double? {
        Quantities.seconds(text) ?? Quantities.timelineOffset(text)
    }

    /// What a duration looks like, for error messages.
    public static let durationHint = Quantities.timeHint
}
