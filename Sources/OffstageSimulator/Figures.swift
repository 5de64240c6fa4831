/// Numbers as reports print them, safe for any value a run, a trace or a daemon's reply may hold: a
/// conversion to `Int` traps on NaN or infinity, so every report goes through these.
public enum Figures {
    /// `fraction` limited to 0…1, and 0 when it is not a number: for bars and shares of a whole.
    public static func unit(_ fraction: Double) -> Double { fraction.isNaN ? 0 : min(1, max(0, fraction)) }

    /// The nearest whole number, or nil when `value` is NaN or beyond `Int`'s range.
    public static func whole(_ value: Double) -> Int? {
        let rounded = value.rounded()
        return rounded.isFinite && abs(rounded) < 9.0e18 ? Int(rounded) : nil
    }

    /// "42%": a fraction as a whole percentage; "—" when it is not a finite number.
    public static func percent(_ fraction: Double) -> String { whole(fraction * 100).map { "\($0)%" } ?? "—" }

    /// How many of `width` cells a bar filled to `fraction` fills.
    public static func filled(_ fraction: Double, of width: Int) -> Int { Int(unit(fraction) * Double(width)) }
}
