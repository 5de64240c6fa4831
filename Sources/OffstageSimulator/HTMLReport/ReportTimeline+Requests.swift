public import OffstageCore

/// One submitted task request and its wait: from submission until it started, gave way to a newer one, was
/// cancelled, or the run ended; with every deferral (why it waited) and, if it still waits, what blocks it now.
public struct RequestWait: Hashable, Sendable {
    /// How a wait ended.
    public enum Outcome: String, Hashable, Sendable {
        case started
        case replaced
        case cancelled
        /// Still pending (or queued) when the run ended.
        case waiting
    }

    public var app: BundleID
    public var identifier: String
    public var kind: TaskKind?
    public var submittedAt: Instant
    public var endedAt: Instant
    public var outcome: Outcome
    /// The `deferred` records of the wait, in order: each lists every blocker then.
    public var deferrals: [Record]
    /// At the end of a run, for a request still waiting: every blocker in words (empty: eligible or queued).
    public var blockersAtEnd: [String]

    /// The constraints that held it back at some point, in the order they first did (from each deferral's blockers).
    public var constraints: [String] {
        var names: [String] = []
        for deferral in deferrals {
            guard case .deferred(let blockers) = deferral.detail else { continue }
            for blocker in blockers where !names.contains(blocker.constraint) { names.append(blocker.constraint) }
        }
        return names
    }

    /// Seconds from submission to the end of the wait.
    public var waited: Double { endedAt - submittedAt }

    /// The request's earliest begin date, as the `earliestBeginDate` blockers of its deferrals name it; nil when
    /// that constraint never held it back (no date, or one already past at submission).
    public var earliestBegin: Instant? {
        let name = EarliestBeginDateConstraint().name
        return deferrals.compactMap { deferral -> Instant? in
            guard case .deferred(let blockers) = deferral.detail else { return nil }
            return blockers.first { $0.constraint == name }?.until
        }.last
    }

    /// Seconds the wait went on beyond the earliest begin date (or beyond the submission, with none): the part the
    /// system chose, not the app; 0 for a wait that ended (replaced, cancelled) before that date.
    public var delayedBeyondEarliestBegin: Double {
        max(0, endedAt - max(submittedAt, earliestBegin ?? submittedAt))
    }
}

extension ReportTimeline {
    /// Every request submitted in the run, from the `submitted`, `replaced`, `deferred`, `started` and
    /// `cancelled` records; those still open at the end take their blockers from `explain()` (the report's
    /// `pendingAtEnd`), in words as `--why` shows them.
    static func requests(_ report: RunReport, until end: Instant) -> [RequestWait] {
        struct Key: Hashable {
            var app: BundleID
            var identifier: String
        }
        var open: [Key: RequestWait] = [:]
        var done: [RequestWait] = []
        func close(_ key: Key, at time: Instant, _ outcome: RequestWait.Outcome) {
            guard var wait = open.removeValue(forKey: key) else { return }
            wait.endedAt = time
            wait.outcome = outcome
            done.append(wait)
        }
        for record in report.records {
            guard let app = record.app, let identifier = record.task else { continue }
            let key = Key(app: app, identifier: identifier)
            switch record.kind {
            case .submitted, .replaced:
                close(key, at: record.at, .replaced)
                open[key] = RequestWait(
                    app: app, identifier: identifier, kind: submittedKind(record), submittedAt: record.at,
                    endedAt: end, outcome: .waiting, deferrals: [], blockersAtEnd: [])
            case .deferred: open[key]?.deferrals.append(record)
            case .started:
                if open[key]?.kind == nil { open[key]?.kind = record.taskKind }
                close(key, at: record.at, .started)
            case .cancelled: close(key, at: record.at, .cancelled)
            default: break
            }
        }
        for (key, var wait) in open {
            if let status = report.pendingAtEnd.first(where: {
                $0.app == key.app && $0.request.identifier == key.identifier
            }) {
                wait.kind = status.request.kind
                wait.blockersAtEnd = status.blockers.map {
                    $0.explained(on: WallClock(epochAtZero: report.scenario.startEpoch))
                }
                if case .queued(let position) = status.phase {
                    wait.blockersAtEnd.append("queued for room in the continued-processing queue, place \(position)")
                }
            }
            done.append(wait)
        }
        return done.sorted { ($0.submittedAt, $0.app, $0.identifier) < ($1.submittedAt, $1.app, $1.identifier) }
    }

    /// The kind of request a `submitted` or `replaced` record accepted.
    static func submittedKind(_ record: Record) -> TaskKind? {
        if case .submitted(let kind, _) = record.detail { kind } else { nil }
    }
}
