import Foundation
import OffstageCore

/// Reads a usage trace (CSV, see `docs/traces.md`) into a `UsageTrace`, with errors that name the file,
/// the line and the column, like `ScenarioLoader`'s: `week.csv:12: field 'timestamp (column 2)': …`.
public enum TraceLoader {
    /// The columns a trace must have, in any order.
    /// (`app` may be empty on the screen's rows.)
    public static let requiredColumns = ["user", "timestamp", "app", "event"]
    /// The columns it may have besides.
    public static let optionalColumns = ["screen", "battery", "charging", "network"]

    /// Reads and parses the trace file at `path`.
    public static func load(contentsOf path: String) throws(ScenarioError) -> UsageTrace {
        try parse(csv: try text(contentsOf: path), source: path)
    }

    /// The UTF-8 text of the file at `path` (a trace, a dataset to import, a policy file), or an error naming it.
    static func text(contentsOf path: String) throws(ScenarioError) -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            throw ScenarioError(source: path, message: "no such file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioError(source: path, message: "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScenarioError(source: path, message: "not UTF-8 text")
        }
        return text
    }

    /// Parses a trace from CSV text; `source` names it in errors. Lines that are empty or start with
    /// `#` are skipped; cells are plain (no quotes, no commas inside).
    public static func parse(csv: String, source: String) throws(ScenarioError) -> UsageTrace {
        let lines = TraceLine.lines(of: csv).filter { !$0.isSkipped }
        guard let header = lines.first else {
            throw ScenarioError(source: source, line: 1, message: "the trace is empty: it needs a header row")
        }
        let columns = header.cells.map(String.init)
        for (index, name) in columns.enumerated() {
            guard !(requiredColumns + optionalColumns).contains(name) else { continue }
            throw ScenarioError(
                source: source, line: header.number, field: "column \(index + 1)",
                message:
                    "unknown column '\(name)'; expected \((requiredColumns + optionalColumns).joined(separator: ", "))")
        }
        for name in columns where columns.filter({ $0 == name }).count > 1 {
            throw ScenarioError(source: source, line: header.number, message: "column '\(name)' appears twice")
        }
        for name in requiredColumns where !columns.contains(name) {
            throw ScenarioError(
                source: source, line: header.number,
                message: "the header lacks column '\(name)' (it needs \(requiredColumns.joined(separator: ", ")))")
        }
        var reader = RowReader(columns: TraceColumns(source: source, names: columns))
        for line in lines.dropFirst() { try reader.read(line) }
        guard !reader.events.isEmpty else {
            throw ScenarioError(source: source, line: header.number, message: "the trace has no rows after its header")
        }
        return UsageTrace(source: source, events: reader.events, hasScreenColumn: columns.contains("screen"))
    }
}

/// One line of a trace's text: its number (1-based), its text without the newline, and whether it is all ASCII.
/// An ASCII line is split byte by byte, several times faster than by characters and with the same cells.
private struct TraceLine {
    let number: Int
    let text: Substring
    let isASCII: Bool

    /// The text's lines, split at every newline `Character.isNewline` knows (LF, VT, FF, CR, CR-LF, NEL, LS, PS).
    /// Each is a character of its own, so finding its UTF-8 bytes finds the same lines as splitting characters.
    static func lines(of text: String) -> [TraceLine] {
        var text = text
        text.makeContiguousUTF8()
        let utf8 = text.utf8
        return text.utf8.withContiguousStorageIfAvailable(lineBounds)!.enumerated().map { number, line in
            let start = utf8.index(utf8.startIndex, offsetBy: line.bytes.lowerBound)
            let end = utf8.index(utf8.startIndex, offsetBy: line.bytes.upperBound)
            return TraceLine(number: number + 1, text: text[start..<end], isASCII: line.isASCII)
        }
    }

    /// Each line's bytes, without its newline, and whether they are all ASCII.
    private static func lineBounds(_ bytes: UnsafeBufferPointer<UInt8>) -> [(bytes: Range<Int>, isASCII: Bool)] {
        var lines: [(bytes: Range<Int>, isASCII: Bool)] = []
        var (start, index, isASCII) = (0, 0, true)
        while index < bytes.count {
            let byte = bytes[index]
            var end = index + 1
            switch byte {
            case 0x0A, 0x0B, 0x0C: break
            case 0x0D: if end < bytes.count, bytes[end] == 0x0A { end += 1 }
            case 0xC2 where end < bytes.count && bytes[end] == 0x85: end += 1
            case 0xE2 where end + 1 < bytes.count && bytes[end] == 0x80 && (0xA8...0xA9).contains(bytes[end + 1]):
                end += 2
            default:
                isASCII = isASCII && byte < 0x80
                index = end
                continue
            }
            lines.append((start..<index, isASCII))
            (start, index, isASCII) = (end, end, true)
        }
        lines.append((start..<bytes.count, isASCII))
        return lines
    }

    /// Whether the loader skips the line: blank (spaces and tabs only) or a comment (`#` first).
    var isSkipped: Bool {
        guard isASCII else { return text.trimmingSpaces.isEmpty || text.hasPrefix("#") }
        return text.utf8.allSatisfy(Self.isSpace) || text.utf8.first == UInt8(ascii: "#")
    }

    /// The line's cells, split at commas, without the spaces and tabs around them. A line that is not ASCII is
    /// split by characters, where a comma or a space followed by a combining mark is part of another character.
    var cells: [Substring] {
        guard isASCII else {
            return text.split(separator: ",", omittingEmptySubsequences: false).map { Substring($0.trimmingSpaces) }
        }
        let utf8 = text.utf8
        return utf8.withContiguousStorageIfAvailable { bytes in
            var cells: [Substring] = []
            cells.reserveCapacity(bytes.count { $0 == UInt8(ascii: ",") } + 1)
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: ",") {
                var (first, last) = (start, end)
                while first < last, Self.isSpace(bytes[first]) { first += 1 }
                while last > first, Self.isSpace(bytes[last - 1]) { last -= 1 }
                cells.append(
                    text[utf8.index(text.startIndex, offsetBy: first)..<utf8.index(text.startIndex, offsetBy: last)])
                start = end + 1
            }
            return cells
        }!
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
}

/// A column of the header: its name, and its position in the rows (nil when the trace does not have it).
private struct TraceColumn {
    let name: String
    let index: Int?
}

/// The header's columns, each found once: a row's cells are read by position, not looked up by name.
private struct TraceColumns {
    let source: String
    let names: [String]
    let user, timestamp, app, event, screen, battery, charging, network: TraceColumn

    init(source: String, names: [String]) {
        self.source = source
        self.names = names
        let column = { (name: String) in TraceColumn(name: name, index: names.firstIndex(of: name)) }
        (user, timestamp, app, event) = (column("user"), column("timestamp"), column("app"), column("event"))
        (screen, battery) = (column("screen"), column("battery"))
        (charging, network) = (column("charging"), column("network"))
    }
}

/// Reads a trace's rows one by one, checking each cell and each user's order of events.
private struct RowReader {
    let columns: TraceColumns
    var events: [TraceEvent] = []
    /// Per user: the time of their last row and the screen after it.
    var users: [String: (epoch: Double, screen: TraceScreen)] = [:]

    mutating func read(_ line: TraceLine) throws(ScenarioError) {
        let row = Row(columns: columns, line: line.number, cells: line.cells)
        guard row.cells.count == columns.names.count else {
            throw ScenarioError(
                source: columns.source, line: row.line,
                message:
                    "\(row.cells.count) cells, but the header has \(columns.names.count) columns (\(columns.names.joined(separator: ",")))"
            )
        }
        let user = String(try row.required(columns.user))
        guard let stamp = Quantities.zonedEpoch(iso8601: try row.required(columns.timestamp)) else {
            throw row.error("timestamp", "expected an ISO 8601 time with its zone, like 2026-11-23T07:30:00+01:00")
        }
        guard let offset = stamp.utcOffset else {
            throw row.error("timestamp", "the time needs its zone's offset, like +01:00 or Z")
        }
        let kind = try row.choice(columns.event, Self.kinds)!
        let app = try row.app(for: kind)
        let event = TraceEvent(
            user: user, epoch: stamp.epoch, utcOffset: offset, app: app, kind: kind,
            screen: try row.choice(columns.screen, Self.screens),
            battery: try row.battery(), charging: try row.choice(columns.charging, Self.booleans),
            network: try row.choice(columns.network, Self.networks), line: row.line)
        try check(event, row: row)
        events.append(event)
    }

    /// The choice columns' options, made once for all the rows.
    static let kinds = TraceEvent.Kind.allCases.map { ($0.rawValue, $0) }
    static let screens = [("on", true), ("off", false)]
    static let booleans = [("true", true), ("false", false)]
    static let networks = NetworkKind.allCases.map { ($0.rawValue, $0) }

    /// Each user's rows go forward in time and follow the screen: an app opens with the screen on, a close
    /// closes the app on screen, the screen lights only when dark, an unlock needs a locked device, and the
    /// screen goes off only with no app on screen (a `closed` row with the screen off does both).
    mutating func check(_ event: TraceEvent, row: Row) throws(ScenarioError) {
        let before = users[event.user] ?? (epoch: event.epoch, screen: .dark)
        if event.epoch < before.epoch {
            throw row.error("timestamp", "goes back in time: user \(event.user)'s rows must be in time order")
        }
        do {
            users[event.user] = (event.epoch, try before.screen.after(event, screenColumn: columns.screen.index != nil))
        } catch {
            throw row.error(error.column, error.message)
        }
    }
}

/// Where a user's screen is between rows: dark (locked), lit but locked (a glance), unlocked on the home
/// screen, or showing an app.
enum TraceScreen: Hashable, Sendable {
    case dark, glance, home
    case app(BundleID)

    /// The screen after `event`, or the error that says why the row cannot follow this screen (the loader
    /// checks every row with it; the replay's launches and the statistics follow the screen with it).
    /// Without a `screen` column, every close locks the device.
    func after(_ event: TraceEvent, screenColumn: Bool) throws(TraceScreenError) -> TraceScreen {
        let lit = self != .dark
        guard let app = event.app ?? (event.kind.namesApp ? nil : "") else {
            throw TraceScreenError("app", "is empty; an opened, closed or notification row names its app")
        }
        switch event.kind {
        case .opened:
            if event.screen == false {
                throw TraceScreenError("screen", "an app opens with the screen on, got \"off\"")
            }
            return .app(app)
        case .closed:
            guard self == .app(app) else {
                let current = if case .app(let shown) = self { "\(shown) is" } else { "no app is" }
                throw TraceScreenError("event", "closes \(app), but \(current) on screen for user \(event.user)")
            }
            return event.screen == false || !screenColumn ? .dark : .home
        case .notification:
            if event.screen != nil {
                throw TraceScreenError("screen", "a notification leaves the screen as it is: leave the cell empty")
            }
            return self
        case .screenOn:
            if event.screen == false { throw TraceScreenError("screen", "screen-on leaves the screen on, got \"off\"") }
            guard !lit else {
                throw TraceScreenError("event", "screen-on, but the screen is already on for user \(event.user)")
            }
            return .glance
        case .unlock:
            if event.screen == false { throw TraceScreenError("screen", "unlock leaves the screen on, got \"off\"") }
            guard self == .dark || self == .glance else {
                throw TraceScreenError("event", "unlock, but user \(event.user)'s device is already unlocked")
            }
            return .home
        case .screenOff:
            if event.screen == true { throw TraceScreenError("screen", "screen-off turns the screen off, got \"on\"") }
            if case .app(let shown) = self {
                throw TraceScreenError(
                    "event", "screen-off while \(shown) is on screen: close it with a closed row whose screen is off")
            }
            guard lit else {
                throw TraceScreenError("event", "screen-off, but the screen is already off for user \(event.user)")
            }
            return .dark
        }
    }
}

/// Why a row cannot follow the screen as it is: the column at fault and what is wrong.
struct TraceScreenError: Error, Hashable, Sendable {
    var column: String
    var message: String
    init(_ column: String, _ message: String) {
        self.column = column
        self.message = message
    }
}

/// One row's cells by column, and errors that name the line and the column.
private struct Row {
    let columns: TraceColumns
    let line: Int
    let cells: [Substring]

    func cell(_ column: TraceColumn) -> Substring? {
        column.index.map { cells[$0] }.flatMap { $0.isEmpty ? nil : $0 }
    }

    func required(_ column: TraceColumn) throws(ScenarioError) -> Substring {
        guard let text = cell(column) else { throw error(column.name, "is empty; every row needs one") }
        return text
    }

    /// The cell, which must be one of the options' names; nil when the cell is empty or missing.
    func choice<Value>(_ column: TraceColumn, _ options: [(String, Value)]) throws(ScenarioError) -> Value? {
        guard let text = cell(column) else {
            if TraceLoader.requiredColumns.contains(column.name) {
                throw error(column.name, "is empty; every row needs one")
            }
            return nil
        }
        guard let match = options.first(where: { $0.0 == text }) else {
            throw error(column.name, "expected \(options.map(\.0).joined(separator: " or ")), got \"\(text)\"")
        }
        return match.1
    }

    /// The `app` cell: a bundle identifier on the rows about an app, empty on the screen's rows.
    func app(for kind: TraceEvent.Kind) throws(ScenarioError) -> BundleID? {
        guard kind.namesApp else {
            guard let text = cell(columns.app) else { return nil }
            throw error("app", "a \(kind.rawValue) row names no app: leave the cell empty, got \"\(text)\"")
        }
        guard let text = cell(columns.app).map(String.init) else {
            throw error("app", "is empty; an opened, closed or notification row names its app")
        }
        // Foundation's search for a space finds one only where the text has a space's byte: look for that first.
        guard !(text.utf8.contains(UInt8(ascii: " ")) && text.contains(" ")) else {
            throw error("app", "expected a bundle identifier, got \"\(text)\"")
        }
        return BundleID(text)
    }

    /// `battery`: a percentage 0–100 (a `%` sign is allowed), as a fraction 0–1.
    func battery() throws(ScenarioError) -> Double? {
        guard let text = cell(columns.battery).map(String.init) else { return nil }
        let digits = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let value = Quantities.number(digits), value <= 100 else {
            throw error("battery", "expected a level from 0 to 100, got \"\(text)\"")
        }
        return value / 100
    }

    func error(_ column: String, _ message: String) -> ScenarioError {
        let index = (columns.names.firstIndex(of: column) ?? 0) + 1
        return ScenarioError(source: columns.source, line: line, field: "\(column) (column \(index))", message: message)
    }
}
