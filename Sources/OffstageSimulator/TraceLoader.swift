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
        let lines = csv.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
            .map { (number: $0.offset + 1, text: String($0.element)) }
            .filter { !$0.text.trimmingSpaces.isEmpty && !$0.text.hasPrefix("#") }
        guard let header = lines.first else {
            throw ScenarioError(source: source, line: 1, message: "the trace is empty: it needs a header row")
        }
        let columns = header.text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0).trimmingSpaces
        }
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
        var reader = RowReader(source: source, columns: columns)
        for line in lines.dropFirst() { try reader.read(line.text, line: line.number) }
        guard !reader.events.isEmpty else {
            throw ScenarioError(source: source, line: header.number, message: "the trace has no rows after its header")
        }
        return UsageTrace(source: source, events: reader.events, hasScreenColumn: columns.contains("screen"))
    }
}

/// Reads a trace's rows one by one, checking each cell and each user's order of events.
private struct RowReader {
    let source: String
    let columns: [String]
    var events: [TraceEvent] = []
    /// Per user: the time of their last row and the screen after it.
    var users: [String: (epoch: Double, screen: TraceScreen)] = [:]

    mutating func read(_ text: String, line: Int) throws(ScenarioError) {
        let cells = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        guard cells.count == columns.count else {
            throw ScenarioError(
                source: source, line: line,
                message:
                    "\(cells.count) cells, but the header has \(columns.count) columns (\(columns.joined(separator: ",")))"
            )
        }
        let row = Row(source: source, line: line, columns: columns, cells: cells)
        let user = try row.required("user")
        guard let stamp = Quantities.zonedEpoch(iso8601: try row.required("timestamp")) else {
            throw row.error("timestamp", "expected an ISO 8601 time with its zone, like 2026-11-23T07:30:00+01:00")
        }
        guard let offset = stamp.utcOffset else {
            throw row.error("timestamp", "the time needs its zone's offset, like +01:00 or Z")
        }
        let kind = try row.choice("event", TraceEvent.Kind.allCases.map { ($0.rawValue, $0) })!
        let app = try row.app(for: kind)
        let event = TraceEvent(
            user: user, epoch: stamp.epoch, utcOffset: offset, app: app, kind: kind,
            screen: try row.choice("screen", [("on", true), ("off", false)]),
            battery: try row.battery(), charging: try row.choice("charging", [("true", true), ("false", false)]),
            network: try row.choice("network", NetworkKind.allCases.map { ($0.rawValue, $0) }), line: line)
        try check(event, row: row)
        events.append(event)
    }

    /// Each user's rows go forward in time and follow the screen: an app opens with the screen on, a close
    /// closes the app on screen, the screen lights only when dark, an unlock needs a locked device, and the
    /// screen goes off only with no app on screen (a `closed` row with the screen off does both).
    mutating func check(_ event: TraceEvent, row: Row) throws(ScenarioError) {
        let before = users[event.user] ?? (epoch: event.epoch, screen: .dark)
        if event.epoch < before.epoch {
            throw row.error("timestamp", "goes back in time: user \(event.user)'s rows must be in time order")
        }
        do {
            users[event.user] = (event.epoch, try before.screen.after(event, screenColumn: columns.contains("screen")))
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

/// One row's cells by column name, and errors that name the line and the column.
private struct Row {
    let source: String
    let line: Int
    let columns: [String]
    let cells: [String]

    func cell(_ name: String) -> String? {
        columns.firstIndex(of: name).map { cells[$0] }.flatMap { $0.isEmpty ? nil : $0 }
    }

    func required(_ name: String) throws(ScenarioError) -> String {
        guard let text = cell(name) else { throw error(name, "is empty; every row needs one") }
        return text
    }

    /// The cell, which must be one of the options' names; nil when the cell is empty or missing.
    func choice<Value>(_ name: String, _ options: [(String, Value)]) throws(ScenarioError) -> Value? {
        guard let text = cell(name) else {
            if TraceLoader.requiredColumns.contains(name) { throw error(name, "is empty; every row needs one") }
            return nil
        }
        guard let match = options.first(where: { $0.0 == text }) else {
            throw error(name, "expected \(options.map(\.0).joined(separator: " or ")), got \"\(text)\"")
        }
        return match.1
    }

    /// The `app` cell: a bundle identifier on the rows about an app, empty on the screen's rows.
    func app(for kind: TraceEvent.Kind) throws(ScenarioError) -> BundleID? {
        guard kind.namesApp else {
            guard let text = cell("app") else { return nil }
            throw error("app", "a \(kind.rawValue) row names no app: leave the cell empty, got \"\(text)\"")
        }
        guard let text = cell("app") else {
            throw error("app", "is empty; an opened, closed or notification row names its app")
        }
        guard !text.contains(" ") else { throw error("app", "expected a bundle identifier, got \"\(text)\"") }
        return BundleID(text)
    }

    /// `battery`: a percentage 0–100 (a `%` sign is allowed), as a fraction 0–1.
    func battery() throws(ScenarioError) -> Double? {
        guard let text = cell("battery") else { return nil }
        let digits = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let value = Quantities.number(digits), value <= 100 else {
            throw error("battery", "expected a level from 0 to 100, got \"\(text)\"")
        }
        return value / 100
    }

    func error(_ column: String, _ message: String) -> ScenarioError {
        let index = (columns.firstIndex(of: column) ?? 0) + 1
        return ScenarioError(source: source, line: line, field: "\(column) (column \(index))", message: message)
    }
}
