/// Parsers for the quantities people write in scenarios and commands: durations, sizes, fractions, times.
/// Each returns nil for text it does not accept; callers put the matching `…Hint` in their error.
enum Quantities {
    /// What a duration looks like, for error messages.
    static let durationHint = "a duration like 90s, 15m or 1h30m"
    /// What a work time looks like, for error messages.
    static let workHint = "a duration like 5s, or a range like 5s..12s"
    /// What a size looks like, for error messages.
    static let sizeHint = "a size like 120MB"
    /// What a battery level or other fraction looks like, for error messages.
    static let fractionHint = "a percentage like 80% or a fraction from 0 to 1"
    /// What a timeline time looks like, for error messages.
    static let timeHint =
        "a time like \"07:00\" or \"1d 07:30\", or a duration like 90s, 15m, 2h or 1h30m"
    /// What a wall-clock date looks like, for error messages.
    static let dateHint = "an ISO 8601 date like 2026-11-21T06:00:00Z"
    /// What a whole number looks like, for error messages.
    static let countHint = "a whole number like 10"
    /// What a weight or a multiplier looks like, for error messages.
    static let factorHint = "a number like 2 or 0.5, not negative"

    /// Seconds from `90s`, `0.5s`, `15m`, `2h`, `1d`, `1h30m`, `1d 2h`; a plain number is seconds.
    /// Units go from days down to seconds, each at most once.
    static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        if let plain = number(trimmed) { return plain <= maximumSeconds ? plain : nil }
        let units: [(Character, Double)] = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]
        var rest = Substring(trimmed)
        var nextUnit = 0
        var total = 0.0
        var components = 0
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard let value = number(String(digits)) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = rest.first,
                let index = units[nextUnit...].firstIndex(where: { $0.0 == unit })
            else { return nil }
            total += value * units[index].1
            nextUnit = index + 1
            components += 1
            rest = rest.dropFirst().drop { $0 == " " }
        }
        return components > 0 && total <= maximumSeconds ? total : nil
    }

    /// The longest time accepted (about 300 years): longer is a typo, and would overflow whole-number clocks.
    static let maximumSeconds = 1e10

    /// A work time: one duration, or `A..B` (a range drawn with the seed) where A ≤ B.
    static func work(_ text: String) -> WorkDuration? {
        let characters = Array(text)
        guard
            let dots = characters.indices.dropLast().first(where: {
                characters[$0] == "." && characters[$0 + 1] == "."
            })
        else { return seconds(text).map(WorkDuration.fixed) }
        let low = seconds(String(characters[..<dots]))
        let high = seconds(String(characters[(dots + 2)...]))
        guard let low, let high, low <= high else { return nil }
        return low == high ? .fixed(low) : .between(low, high)
    }

    /// Bytes from `500KB`, `120MB`, `1.5GB`, `2TB` (decimal units, any case) or a plain integer.
    static func bytes(_ text: String) -> Int? {
        let trimmed = text.trimmingSpaces
        let digits = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard let value = number(String(digits)) else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingSpaces.uppercased()
        let scale: Double
        switch unit {
        case "": scale = 1
        case "B": scale = 1
        case "KB": scale = 1e3
        case "MB": scale = 1e6
        case "GB": scale = 1e9
        case "TB": scale = 1e12
        default: return nil
        }
        let result = (value * scale).rounded()
        // Bytes are whole: "1.5" on its own is not a size, and sizes stay far from overflow.
        guard scale > 1 || result == value, result < 1e18 else { return nil }
        return Int(result)
    }

    /// A weight or multiplier, 0 or more, from `2` or `0.5`.
    static func factor(_ text: String) -> Double? { number(text.trimmingSpaces) }

    /// A fraction 0–1 from `80%` or `0.8`.
    static func fraction(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        if trimmed.hasSuffix("%") {
            guard let percent = number(String(trimmed.dropLast()).trimmingSpaces), percent <= 100 else {
                return nil
            }
            return percent / 100
        }
        guard let value = number(trimmed), value <= 1 else { return nil }
        return value
    }

    /// A whole number ≥ 0.
    static func count(_ text: String) -> Int? {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty, trimmed.count <= 18, trimmed.allSatisfy({ $0.isASCII && $0.isNumber })
        else {
            return nil
        }
        return Int(trimmed)
    }

    /// Seconds after the start for a timeline time: a clock `HH:MM[:SS]` (that long after the start),
    /// with an optional day prefix (`1d 07:30`), or any duration.
    static func timelineOffset(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        guard trimmed.contains(":") else { return seconds(trimmed) }
        var days = 0
        var clock = Substring(trimmed)
        if let space = clock.firstIndex(of: " ") {
            let prefix = clock[..<space]
            guard prefix.hasSuffix("d"), let count = count(String(prefix.dropLast())), count <= 100_000
            else {
                return nil
            }
            days = count
            clock = clock[space...].drop { $0 == " " }
        }
        let fields = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3 else { return nil }
        var numbers: [Int] = []
        for field in fields {
            guard field.count == 2 || (numbers.isEmpty && field.count == 1),
                let value = count(String(field))
            else {
                return nil
            }
            numbers.append(value)
        }
        let hours = numbers[0]
        let minutes = numbers[1]
        let secs = numbers.count == 3 ? numbers[2] : 0
        guard hours < 24, minutes < 60, secs < 60 else { return nil }
        return Double(days * 86_400 + hours * 3_600 + minutes * 60 + secs)
    }

    /// Seconds since 1970 from an ISO 8601 date: `2026-11-21`, `2026-11-21T06:00:00Z`, `…T06:00+01:00`,
    /// `…T06:00:00.5Z`. A time without a zone is UTC, so a scenario means the same everywhere.
    static func epoch(iso8601 text: String) -> Double? { zonedEpoch(iso8601: text)?.epoch }

    /// Seconds since 1970 from an ISO 8601 date, and the zone's offset from UTC in seconds when the text
    /// names one (`Z` is 0; none is nil): usage traces need the user's local time.
    static func zonedEpoch(iso8601 text: some StringProtocol) -> (epoch: Double, utcOffset: Double?)? {
        var scanner = Scanner(text.withoutSpacesAround)
        guard let year = scanner.digits(4), scanner.skip("-"), let month = scanner.digits(2),
            scanner.skip("-"),
            let day = scanner.digits(2), (1...12).contains(month),
            (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var seconds = Double(daysSince1970(year: year, month: month, day: day) * 86_400)
        if scanner.atEnd { return (seconds, nil) }
        guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "), let hour = scanner.digits(2),
            scanner.skip(":"), let minute = scanner.digits(2), hour < 24, minute < 60
        else { return nil }
        seconds += Double(hour * 3_600 + minute * 60)
        if scanner.skip(":") {
            guard let second = scanner.digits(2), second < 60 else { return nil }
            seconds += Double(second)
            if scanner.skip(".") {
                let fraction = scanner.allDigits()
                guard !fraction.isEmpty, let value = Double("0." + fraction) else { return nil }
                seconds += value
            }
        }
        if scanner.atEnd { return (seconds, nil) }
        if scanner.skip("Z") || scanner.skip("z") {
            return scanner.atEnd ? (seconds, 0) : nil
        }
        let sign: Double
        if scanner.skip("+") {
            sign = 1
        } else if scanner.skip("-") {
            sign = -1
        } else {
            return nil
        }
        guard let zoneHours = scanner.digits(2), zoneHours < 24 else { return nil }
        _ = scanner.skip(":")
        let zoneMinutes = scanner.atEnd ? 0 : scanner.digits(2)
        guard let zoneMinutes, zoneMinutes < 60, scanner.atEnd else { return nil }
        let offset = sign * Double(zoneHours * 3_600 + zoneMinutes * 60)
        return (seconds - offset, offset)
    }

    /// A plain decimal number ≥ 0 (`12`, `0.5`, `1.`): no sign, exponent, `inf` or `nan`.
    static func number(_ text: String) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            text.filter({ $0 == "." }).count <= 1, text.first != "."
        else { return nil }
        return Double(text)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Reads fixed-width fields of ASCII text from left to right, byte by byte: it accepts no byte outside ASCII,
    /// so such text fails as it did when read by characters, and a trace's timestamps read several times faster.
    private struct Scanner {
        var rest: ArraySlice<UInt8>

        init(_ text: some StringProtocol) { rest = ArraySlice(text.utf8) }

        var atEnd: Bool { rest.isEmpty }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard rest.first == UInt8(ascii: character) else { return false }
            rest = rest.dropFirst()
            return true
        }

        mutating func digits(_ width: Int) -> Int? {
            let field = rest.prefix(width)
            guard field.count == width, field.allSatisfy(Self.isDigit) else {
                return nil
            }
            rest = rest.dropFirst(width)
            return field.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }

        mutating func allDigits() -> String {
            let field = rest.prefix(while: Self.isDigit)
            rest = rest.dropFirst(field.count)
            return String(decoding: field, as: UTF8.self)
        }

        /// Whether the byte is an ASCII digit, 0–9 (as `isASCII && isNumber` of its character): read from its
        /// value, since `isNumber` looks up Unicode's properties and was a fifth of a trace's loading.
        static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    }
}

extension StringProtocol {
    /// The text without spaces, tabs and newlines at either end.
    var trimmingSpaces: String { String(withoutSpacesAround) }

    /// The text without spaces, tabs and newlines at either end, as a slice of it: read without a copy
    /// where the text is only looked at (a trace's timestamps).
    var withoutSpacesAround: SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let first = firstIndex(where: { !isSpace($0) }),
            let last = lastIndex(where: { !isSpace($0) })
        else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
