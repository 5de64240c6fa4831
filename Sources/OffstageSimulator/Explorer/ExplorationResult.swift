public import OffstageCore

/// What an exploration found: how many histories ran, and the first failure if one broke an invariant.
public struct ExplorationResult: Sendable, CustomStringConvertible {
    public var app: BundleID
    public var histories: Int
    public var failure: ExplorationFailure?

    public var passed: Bool { failure == nil }

    public var description: String {
        guard let failure else { return "explored \(histories) histories of \(app): every invariant held" }
        return "explored \(histories) histories of \(app): history \(histories) broke an invariant\n\(failure)"
    }
}

/// A history that broke an invariant: its seed (which replays it), what broke, the disturbances drawn and the
/// fewest of them that still break it, with the app's records of that shrunk history.
public struct ExplorationFailure: Sendable, CustomStringConvertible {
    public var app: BundleID
    public var seed: UInt64
    /// The invariant's name.
    public var invariant: String
    /// The violation in the history as drawn.
    public var violation: Violation
    public var drawn: [HistoryEvent]
    public var shrunk: [HistoryEvent]
    /// The violation in the shrunk history.
    public var shrunkViolation: Violation
    /// The app's records in the shrunk history.
    public var records: [Record]

    /// The shrunk history as a scenario's `timeline:` (YAML): with the explored scenario's apps and device, it
    /// reproduces the failure (`offstage simulate`).
    public var timelineYAML: String {
        (["timeline:"] + shrunk.map { "  - { at: \(Self.seconds($0.at)), do: \($0.disturbance.command(for: app)) }" })
            .joined(separator: "\n")
    }

    /// The shrunk history's disturbances and the app's task, assertion and process records in the minute after
    /// each disturbance and around the violation, in time order: short, where a whole day's records are not.
    public var timeline: String {
        let disturbances = shrunk.map { (at: $0.at, order: 0, line: "▶ \($0.disturbance.command(for: app))") }
        let moments = shrunk.map(\.at) + [shrunkViolation.at?.seconds].compactMap { $0 }
        let facts = records.enumerated().compactMap { index, record -> (at: Double, order: Int, line: String)? in
            let near = moments.contains {
                record.at.seconds >= $0 - Self.nearby && record.at.seconds <= $0 + Self.nearby
            }
            guard near, Self.timelineKinds.contains(record.kind) else { return nil }
            let task = record.task.map { " \($0)" } ?? ""
            return (record.at.seconds, index + 1, "  \(record.kind.rawValue)\(task): \(record.reason)")
        }
        return (disturbances + facts).sorted { ($0.at, $0.order) < ($1.at, $1.order) }
            .map { "\(Violation.clock($0.at))  \($0.line)" }.joined(separator: "\n")
    }

    /// Seconds around a disturbance or the violation whose records a failure's timeline shows.
    private static let nearby = 60.0

    /// The kinds of records a failure's timeline shows: what tasks, assertions and the process did.
    private static let timelineKinds: Set<RecordKind> = [
        .launched, .started, .expired, .completed, .killed, .terminated, .crashed, .assertionBegan, .assertionEnded,
        .assertionExpired, .submitted, .rejected,
    ]

    /// Seconds as a scenario writes them (`12.345s`).
    private static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(Double(milliseconds) / 1000)s"
    }

    public var description: String {
        """
        broken: \(invariant)
          \(violation)
        seed: \(seed) (replay: runs 1, seed \(seed))
        shrunk from \(drawn.count) to \(shrunk.count) disturbances:
          \(shrunkViolation)
        \(timeline)
        scenario timeline that reproduces it:
        \(timelineYAML)
        """
    }
}
