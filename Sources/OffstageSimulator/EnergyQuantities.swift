/// The energy quantities scenarios write: power, energy, battery capacity and CPU load.
/// Like the other parsers, each returns nil for text it does not accept; callers show the matching hint.
extension Quantities {
    /// What a power looks like, for error messages.
    static let wattsHint = "a power like 1.5W or 40mW"
    /// What an energy looks like, for error messages.
    static let joulesHint = "an energy like 2kJ, 1J, 5mJ or 3µJ"
    /// What a battery capacity looks like, for error messages.
    static let wattHoursHint = "a capacity like 12Wh"
    /// What a CPU load looks like, for error messages.
    static let coresHint = "CPU cores kept busy, like 0.3 or 30% (of one core), up to 64"

    /// Watts from `1.5W`, `40mW` or a plain number.
    static func watts(_ text: String) -> Double? { measure(text, [("W", 1), ("mW", 1e-3)]) }

    /// Joules from `2kJ`, `1J`, `5mJ`, `3µJ` (or `3uJ`), `2nJ`, `1Wh` or a plain number.
    static func joules(_ text: String) -> Double? {
        measure(text, [("kJ", 1e3), ("J", 1), ("mJ", 1e-3), ("µJ", 1e-6), ("uJ", 1e-6), ("nJ", 1e-9), ("Wh", 3600)])
    }

    /// Watt-hours from `12Wh`, `500mWh` or a plain number; a battery holds something.
    static func wattHours(_ text: String) -> Double? {
        measure(text, [("Wh", 1), ("mWh", 1e-3)]).flatMap { $0 > 0 ? $0 : nil }
    }

    /// CPU cores kept busy: `0.3`, `2`, or a percentage of one core (`30%`, `250%`), at most 64 cores.
    static func cores(_ text: String) -> Double? {
        let value = measure(text, [("%", 0.01)])
        return value.flatMap { $0 <= 64 ? $0 : nil }
    }

    /// A plain number, or a number followed by one of the units (spaces allowed between), scaled.
    private static func measure(_ text: String, _ units: [(String, Double)]) -> Double? {
        let trimmed = text.trimmingSpaces
        let digits = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard let value = number(String(digits)) else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingSpaces
        if unit.isEmpty { return value }
        return units.first { $0.0 == unit }.map { value * $0.1 }
    }
}
