public import OffstageCore

/// One run of a background task on its app's lane: from start to its end, with the expiration if it came.
public struct TaskBar: Hashable, Sendable {
    /// How a run ended.
    public enum Outcome: String, Hashable, Sendable {
        case completed
        /// The app's process ended under it (a watchdog after expiration, a force-quit, jetsam).
        case killed
        /// Still running when the run ended.
        case running
    }

    public var identifier: String
    public var kind: TaskKind?
    public var start: Instant
    public var end: Instant
    public var expiredAt: Instant?
    public var outcome: Outcome
    /// What the app used while the task ran (energy, CPU, bytes), once it ended.
    public var usage: TaskUsage.Meters? = nil
}

extension TaskUsage.Meters {
    /// "4.2 J, 1.3 s CPU, 120 kB".
    var text: String {
        let kilobytes = Double(bytes) / 1000
        let size =
            kilobytes >= 1000 ? "\(BatteryReport.number(kilobytes / 1000)) MB" : "\(BatteryReport.number(kilobytes)) kB"
        return "\(BatteryReport.joules(joules)), \(BatteryReport.number(cpuSeconds)) s CPU, \(size)"
    }
}

extension ReportTimeline {
    /// The app's task runs, from its `started`, `expired`, `completed` and `killed` records (`mine`, in order);
    /// runs still open at `end` end there.
    static func runs(_ mine: [Record], until end: Instant) -> [TaskBar] {
        var open: [String: TaskBar] = [:]
        var done: [TaskBar] = []
        func close(_ identifier: String, at time: Instant, _ outcome: TaskBar.Outcome) {
            guard var bar = open.removeValue(forKey: identifier) else { return }
            bar.end = time
            bar.outcome = outcome
            done.append(bar)
        }
        for record in mine {
            guard let identifier = record.task else { continue }
            switch record.kind {
            case .started:
                close(identifier, at: record.at, .killed)
                open[identifier] = TaskBar(
                    identifier: identifier, kind: record.taskKind, start: record.at, end: end, expiredAt: nil,
                    outcome: .running)
            case .expired: open[identifier]?.expiredAt = record.at
            case .completed: close(identifier, at: record.at, .completed)
            case .killed: close(identifier, at: record.at, .killed)
            default: break
            }
        }
        return (done + open.values).sorted { ($0.start, $0.identifier) < ($1.start, $1.identifier) }
    }
}
