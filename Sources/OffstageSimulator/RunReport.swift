public import Foundation
public import OffstageCore

/// The result of a simulation as people and machines read it: a timeline, a summary, and JSON.
/// Everything here is derived from the records, so it is as deterministic as they are.
public struct RunReport: Sendable {
    public var scenario: Scenario
    public var records: [Record]
    /// Requests still waiting at the end, with every constraint that blocks them.
    public var pendingAtEnd: [RequestStatus]
    /// Background pushes still held at the end, with every reason they wait (§7).
    public var heldPushesAtEnd: [HeldPushStatus] = []

    public init(scenario: Scenario, records: [Record], pendingAtEnd: [RequestStatus]) {
        self.scenario = scenario
        self.records = records
        self.pendingAtEnd = pendingAtEnd
    }

    /// Record kinds the brief timeline leaves out (`--verbose` shows them).
    public static let detailKinds: Set<RecordKind> = [.callback, .register, .assertionBegan, .assertionEnded, .state]

    /// One line per record: day and wall-clock time, app, kind, task and why.
    public func timeline(verbose: Bool) -> String {
        let width = max(12, records.compactMap { $0.app?.rawValue.count }.max() ?? 0)
        return records.filter { verbose || !Self.detailKinds.contains($0.kind) }
            .map { record in
                let app = (record.app?.rawValue ?? "system").padding(toLength: width, withPad: " ", startingAt: 0)
                let kind = record.kind.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)
                let task = record.task.map { "[\($0)] " } ?? ""
                return "\(clock(record.at))  \(app)  \(kind) \(task)\(record.reason)"
            }
            .joined(separator: "\n")
    }

    /// "day 1 07:00:05": the scenario's wall clock (UTC) at `instant`.
    public func clock(_ instant: Instant) -> String {
        let epoch = Int((scenario.startEpoch + instant.seconds).rounded(.down))
        let startDay = Int(scenario.startEpoch.rounded(.down)).quotientAndRemainder(dividingBy: 86_400).quotient
        let (day, secondOfDay) = epoch.quotientAndRemainder(dividingBy: 86_400)
        let (hour, rest) = secondOfDay.quotientAndRemainder(dividingBy: 3600)
        let (minute, second) = rest.quotientAndRemainder(dividingBy: 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "day \(day - startDay + 1) \(two(hour)):\(two(minute)):\(two(second))"
    }

    /// Per app: launches, tasks and how they ended, assertions, crashes and kills; then what still waits.
    public func summary() -> String {
        var lines = ["Summary of \"\(scenario.name)\" (\(records.count) records)"]
        let apps = scenario.apps.map(\.manifest.bundleIdentifier)
        for app in apps {
            let mine = records.filter { $0.app == app }
            func count(_ kind: RecordKind, where test: (Record) -> Bool = { _ in true }) -> Int {
                mine.filter { $0.kind == kind && test($0) }.count
            }
            let background = count(.launched) { $0.reason.hasPrefix("launched in the background") }
            lines.append(
                "  \(app): \(count(.launched)) launches (\(background) in the background), "
                    + "\(count(.started)) tasks started, \(count(.completed)) completed, \(count(.expired)) expired, "
                    + "\(count(.killed)) killed with their app; \(count(.suspended)) suspensions; "
                    + "\(count(.crashed)) crashes, \(count(.terminated)) terminations")
        }
        if pendingAtEnd.isEmpty {
            lines.append("  Nothing waits at the end.")
        } else {
            lines.append("  Waiting at the end:")
            for status in pendingAtEnd {
                let why =
                    status.blockers.isEmpty
                    ? "eligible"
                    : status.blockers.map { $0.explained(on: WallClock(epochAtZero: scenario.startEpoch)) }.joined(
                        separator: "; ")
                lines.append("    \(status.app) [\(status.request.identifier)] \(status.request.kind.rawValue): \(why)")
            }
        }
        for held in heldPushesAtEnd {
            let clock = WallClock(epochAtZero: scenario.startEpoch)
            let why = held.blockers.map { $0.explained(on: clock) }.joined(separator: "; ")
            lines.append("  Background push held for \(held.app) (payload \"\(held.payload)\"): \(why)")
        }
        return lines.joined(separator: "\n")
    }

    /// Every record as JSON (sorted keys, stable order): `{scenario, seed, records: [{at, app, kind, task, reason}]}`.
    public func json() throws -> Data {
        struct Document: Encodable {
            var scenario: String
            var source: String
            var seed: UInt64
            var startEpoch: Double
            var records: [Record]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(
            Document(
                scenario: scenario.name, source: scenario.source, seed: scenario.seed, startEpoch: scenario.startEpoch,
                records: records))
    }
}

extension Simulation {
    /// Runs the scenario and gathers its report.
    public func report(for duration: Double? = nil, progress: ((Double) -> Void)? = nil) -> RunReport {
        let records = run(for: duration, progress: progress)
        let waiting = system.explain().filter { if case .running = $0.phase { false } else { true } }
        var report = RunReport(scenario: scenario, records: records, pendingAtEnd: waiting)
        report.heldPushesAtEnd = system.heldPushes()
        return report
    }
}
