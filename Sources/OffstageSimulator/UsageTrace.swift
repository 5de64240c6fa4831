public import OffstageCore

/// A usage trace: what real (or generated) users did with their apps, row by row, as the CSV format of
/// `docs/traces.md` holds it. `TraceReplay` turns one user's rows into a scenario the simulator plays.
public struct UsageTrace: Hashable, Sendable {
    /// Where it came from (a file path): errors and reports name it.
    public var source: String
    /// The rows, in file order (each user's rows in time order).
    public var events: [TraceEvent]
    /// Whether the file has a `screen` column: without one the screen goes off whenever an app is closed.
    public var hasScreenColumn: Bool

    public init(source: String, events: [TraceEvent], hasScreenColumn: Bool) {
        self.source = source
        self.events = events
        self.hasScreenColumn = hasScreenColumn
    }

    /// The users, in the order they first appear.
    public var users: [String] {
        var seen: Set<String> = []
        return events.map(\.user).filter { seen.insert($0).inserted }
    }

    /// One user's rows, in time order.
    public func events(of user: String) -> [TraceEvent] { events.filter { $0.user == user } }

    /// The trace as CSV, with the columns its rows use (the format `TraceLoader` reads).
    public func csv() -> String {
        var columns = ["user", "timestamp", "app", "event"]
        if hasScreenColumn { columns.append("screen") }
        if events.contains(where: { $0.battery != nil }) { columns.append("battery") }
        if events.contains(where: { $0.charging != nil }) { columns.append("charging") }
        if events.contains(where: { $0.network != nil }) { columns.append("network") }
        var lines = [columns.joined(separator: ",")]
        for event in events {
            var cells = [event.user, TraceEvent.timestamp(epoch: event.epoch, utcOffset: event.utcOffset)]
            cells += [event.app?.rawValue ?? "", event.kind.rawValue]
            if hasScreenColumn { cells.append(event.screen.map { $0 ? "on" : "off" } ?? "") }
            if columns.contains("battery") {
                cells.append(event.battery.map { String(Int(($0 * 100).rounded())) } ?? "")
            }
            if columns.contains("charging") { cells.append(event.charging.map { $0 ? "true" : "false" } ?? "") }
            if columns.contains("network") { cells.append(event.network?.rawValue ?? "") }
            lines.append(cells.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One row of a trace: a user opened or closed an app, the screen lit or went dark, the user unlocked, or an
/// app's notification appeared, at a moment of their local time; and how the device was then (each optional
/// cell, when given, holds from this row on).
public struct TraceEvent: Hashable, Sendable {
    /// What happened (see `docs/traces.md`): the first three name an app, the others none.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The app comes on screen (unlocking on the way); a launch if it was not there.
        case opened
        /// The user leaves the app for the home screen (and locks, when the screen goes off).
        case closed
        /// A notification of the app appears (an alert the person sees, not a silent push).
        case notification
        /// The screen of the locked device lights (a glance): no unlock, no app.
        case screenOn = "screen-on"
        /// The user unlocks to the home screen, no app (yet).
        case unlock
        /// The screen goes dark and the device locks, with no app on screen.
        case screenOff = "screen-off"

        /// Whether the row names an app (`opened`, `closed`, `notification`) or must not (the screen's rows).
        public var namesApp: Bool { self == .opened || self == .closed || self == .notification }
    }

    public var user: String
    /// Seconds since 1970 (UTC).
    public var epoch: Double
    /// Seconds the user's time zone is ahead of UTC at that moment.
    public var utcOffset: Double
    /// The app the row is about; nil for the screen's rows (`screen-on`, `unlock`, `screen-off`).
    public var app: BundleID?
    public var kind: Kind
    /// The screen after the event: on, or off (locked).
    public var screen: Bool?
    /// The battery level, 0–1.
    public var battery: Double?
    public var charging: Bool?
    public var network: NetworkKind?
    /// The file's line (1-based; 0 when made in code).
    public var line: Int

    public init(
        user: String, epoch: Double, utcOffset: Double, app: BundleID?, kind: Kind, screen: Bool? = nil,
        battery: Double? = nil, charging: Bool? = nil, network: NetworkKind? = nil, line: Int = 0
    ) {
        self.user = user
        self.epoch = epoch
        self.utcOffset = utcOffset
        self.app = app
        self.kind = kind
        self.screen = screen
        self.battery = battery
        self.charging = charging
        self.network = network
        self.line = line
    }

    /// "2026-11-23T07:31:12+01:00": an instant in ISO 8601 with its zone's offset.
    static func timestamp(epoch: Double, utcOffset: Double) -> String {
        let utc = WallClock(epochAtZero: epoch + utcOffset).timestamp(at: .zero)
        let local = String(utc.dropLast().map { $0 == " " ? "T" : $0 })
        let minutes = Int((abs(utcOffset) / 60).rounded())
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return local + (utcOffset < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
    }
}
