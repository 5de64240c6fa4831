import Foundation
import OffstageCore

/// Reads public datasets' layouts into a usage trace (`offstage trace import`), with errors that name the
/// file, the line and the field: LSApp's TSV (`user_id, session_id, timestamp, app_name, event_type`) and a
/// generic CSV of start/end episodes (`user, app, start, end`). See `docs/traces.md`.
public enum TraceImporter {
    /// A dataset's layout.
    public enum Layout: String, Hashable, Sendable, CaseIterable {
        /// LSApp (Aliannejadi et al., 2018): tab-separated, local times without a zone, `Opened`/`Closed`.
        case lsapp
        /// One row per use of an app: `user,app,start,end`, ISO 8601 times with their zone.
        case episodes
    }

    /// A zone's offset from UTC in seconds, from `+01:00`, `-05:00` or `Z`; nil for anything else.
    public static func utcOffset(_ text: String) -> Double? {
        Quantities.zonedEpoch(iso8601: "1970-01-01T00:00:00" + text)?.utcOffset
    }

    /// Reads the file at `path` in `layout`; `utcOffset` (seconds) is the zone of times written without one.
    public static func load(contentsOf path: String, layout: Layout, utcOffset: Double = 0) throws(ScenarioError)
        -> UsageTrace
    {
        try parse(try TraceLoader.text(contentsOf: path), layout: layout, source: path, utcOffset: utcOffset)
    }

    /// Parses a dataset's text in `layout`; `source` names it in errors.
    public static func parse(_ text: String, layout: Layout, source: String, utcOffset: Double = 0)
        throws(ScenarioError) -> UsageTrace
    {
        let separator: Character = layout == .lsapp ? "\t" : ","
        let columns =
            layout == .lsapp
            ? ["user_id", "session_id", "timestamp", "app_name", "event_type"] : ["user", "app", "start", "end"]
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
            .map {
                (
                    number: $0.offset + 1,
                    cells: $0.element.split(separator: separator, omittingEmptySubsequences: false).map {
                        String($0).trimmingSpaces
                    }
                )
            }
            .filter { !($0.cells.count == 1 && $0.cells[0].isEmpty) }
        guard let header = lines.first, header.cells == columns else {
            throw ScenarioError(
                source: source, line: lines.first?.number ?? 1,
                message: "expected the header \(columns.joined(separator: layout == .lsapp ? "<tab>" : ","))")
        }
        var episodes: [Episode] = []
        var open: [String: Episode] = [:]
        /// LSApp: each user's last row's time.
        var lastRow: [String: Double] = [:]
        for line in lines.dropFirst() {
            let row = ImportRow(source: source, line: line.number, columns: columns, cells: line.cells)
            try row.checkCount()
            switch layout {
            case .episodes:
                let start = try row.time("start", utcOffset: utcOffset)
                let end = try row.time("end", utcOffset: utcOffset)
                guard end.epoch >= start.epoch else { throw row.error("end", "comes before start") }
                episodes.append(
                    Episode(
                        user: try row.text("user"), app: try row.app("app"), start: start.epoch, end: end.epoch,
                        utcOffset: start.utcOffset, line: line.number))
            case .lsapp:
                let user = try row.text("user_id")
                let session = try row.text("session_id")
                let time = try row.time("timestamp", utcOffset: utcOffset)
                let app = try row.app("app_name")
                switch try row.text("event_type") {
                case "Opened":
                    if var previous = open[user], previous.app != app || previous.session != session {
                        // A switch: it ends as the next app opens; left open at a session's end, it ended
                        // with the session's last row.
                        previous.end = previous.session == session ? time.epoch : lastRow[user] ?? previous.start
                        episodes.append(previous)
                        open[user] = nil
                    }
                    if open[user]?.app != app {
                        open[user] = Episode(
                            user: user, app: app, start: time.epoch, end: time.epoch, utcOffset: time.utcOffset,
                            line: line.number, session: session)
                    }
                case "Closed":
                    // A close of an app not on screen (the dataset has some) says nothing more.
                    guard var episode = open[user], episode.app == app else { continue }
                    episode.end = time.epoch
                    episodes.append(episode)
                    open[user] = nil
                case "User Interaction", "Broken":
                    break  // a touch within the app on screen, or a gap in the logging: no change of app
                case let other:
                    throw row.error(
                        "event_type", "expected Opened, Closed, User Interaction or Broken, got \"\(other)\"")
                }
                lastRow[user] = time.epoch
            }
        }
        episodes += open.values
        return UsageTrace(source: source, events: events(of: episodes), hasScreenColumn: layout == .lsapp)
    }

    /// The trace's rows for episodes: each user's in time order, an app opened at its start and closed at
    /// its end, unless the next episode starts before that end (the user switched apps: no close). Where
    /// episodes carry sessions, a close turns the screen off only at the session's end.
    static func events(of episodes: [Episode]) -> [TraceEvent] {
        let byUser = Dictionary(grouping: episodes, by: \.user)
        var users: [String] = []
        for episode in episodes where !users.contains(episode.user) { users.append(episode.user) }
        return users.flatMap { user in
            let mine = byUser[user]!.sorted { ($0.start, $0.line) < ($1.start, $1.line) }
            return mine.enumerated().flatMap { index, episode -> [TraceEvent] in
                let opened = TraceEvent(
                    user: user, epoch: episode.start, utcOffset: episode.utcOffset, app: episode.app, kind: .opened,
                    line: episode.line)
                let next = index + 1 < mine.count ? mine[index + 1] : nil
                if let next, next.start <= episode.end {
                    return next.app == episode.app && next.start == episode.start ? [] : [opened]
                }
                var closed = opened
                closed.epoch = episode.end
                closed.kind = .closed
                if let session = episode.session { closed.screen = next?.session == session }
                return [opened, closed]
            }
        }
    }

    /// One use of an app: from its start to its end.
    struct Episode: Hashable, Sendable {
        var user: String
        var app: BundleID
        var start: Double
        var end: Double
        var utcOffset: Double
        var line: Int
        /// The dataset's screen session (LSApp's `session_id`), when it has them.
        var session: String? = nil
    }
}

/// One row of an imported file, by column name, with errors that name the line and the field.
private struct ImportRow {
    let source: String
    let line: Int
    let columns: [String]
    let cells: [String]

    func checkCount() throws(ScenarioError) {
        guard cells.count == columns.count else {
            throw ScenarioError(
                source: source, line: line, message: "\(cells.count) cells, but the header has \(columns.count) columns"
            )
        }
    }

    func text(_ name: String) throws(ScenarioError) -> String {
        let text = cells[columns.firstIndex(of: name)!]
        guard !text.isEmpty else { throw error(name, "is empty; every row needs one") }
        return text
    }

    /// A time, with its zone or in the zone given for times without one.
    func time(_ name: String, utcOffset: Double) throws(ScenarioError) -> (epoch: Double, utcOffset: Double) {
        let text = try text(name)
        guard let stamp = Quantities.zonedEpoch(iso8601: text) else {
            throw error(name, "expected a time like 2018-01-16 06:01:05 or 2026-11-23T07:30:00+01:00, got \"\(text)\"")
        }
        guard let offset = stamp.utcOffset else { return (stamp.epoch - utcOffset, utcOffset) }
        return (stamp.epoch, offset)
    }

    /// An app's name as a bundle identifier: kept when it is one, else `app.` and its words in lower case.
    func app(_ name: String) throws(ScenarioError) -> BundleID {
        let text = try text(name)
        guard text.contains(" ") || !text.contains(".") else { return BundleID(text) }
        let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }
        guard !words.isEmpty else { throw error(name, "expected an app's name, got \"\(text)\"") }
        return BundleID("app." + words.joined(separator: "-"))
    }

    func error(_ column: String, _ message: String) -> ScenarioError {
        let index = (columns.firstIndex(of: column) ?? 0) + 1
        return ScenarioError(source: source, line: line, field: "\(column) (column \(index))", message: message)
    }
}
