import Foundation
import OffstageCore

extension RunReport {
    /// One line per record: the wall-clock time, app, kind, task and why. The brief timeline (not `verbose`) is
    /// made to be read: a request's `deferred` line only when the set of its blockers changes (the wait for the
    /// next maintenance wake, which comes and goes with every wake while the device sleeps, is no change on its
    /// own), `alreadyRunning` left out while the request's own task runs (the app resubmitted from its handler),
    /// and a maintenance wake before the launch and the start it caused. `verbose` shows every record as it is.
    public func timeline(verbose: Bool) -> String {
        let width = max(12, records.compactMap { $0.app?.rawValue.count }.max() ?? 0)
        let clock = WallClock(epochAtZero: scenario.startEpoch)
        let alreadyRunning = NotAlreadyRunningConstraint().name
        let coalescing = CoalescingConstraint().name
        struct Request: Hashable {
            var app: BundleID
            var task: String
        }
        var running: Set<Request> = []
        var shownBlockers: [Request: Set<String>] = [:]
        var lines: [(record: Record, text: String)] = []
        func line(_ record: Record, _ why: String) -> String {
            let app = (record.app?.rawValue ?? "system").padding(toLength: width, withPad: " ", startingAt: 0)
            let kind = record.kind.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)
            let task = record.task.map { "[\($0)] " } ?? ""
            return "\(clock.timestamp(at: record.at))  \(app)  \(kind) \(task)\(why)"
        }
        for record in records {
            let request = record.app.flatMap { app in record.task.map { Request(app: app, task: $0) } }
            if let request {
                switch record.kind {
                case .started: running.insert(request)
                case .completed, .killed: running.remove(request)
                case .submitted, .replaced, .cancelled: shownBlockers[request] = nil
                default: break
                }
            }
            guard !verbose else {
                lines.append((record, line(record, record.reason)))
                continue
            }
            guard !Self.detailKinds.contains(record.kind) else { continue }
            var why = record.reason
            if case .deferred(let blockers)? = record.detail, let request {
                let shown = running.contains(request) ? blockers.filter { $0.constraint != alreadyRunning } : blockers
                let names = Set(shown.map(\.constraint).filter { $0 != coalescing })
                guard !shown.isEmpty, shownBlockers[request] != names else { continue }
                shownBlockers[request] = names
                why = shown.explained(on: clock)
            }
            let text = line(record, why)
            guard record.kind == .wake, let app = record.app else {
                lines.append((record, text))
                continue
            }
            // The wake first: before its app's launch, resumption and start at the same instant.
            var place = lines.count
            while place > 0, lines[place - 1].record.at == record.at, lines[place - 1].record.app == app,
                [.launched, .resumed, .started].contains(lines[place - 1].record.kind)
            {
                place -= 1
            }
            lines.insert((record, text), at: place)
        }
        return lines.map(\.text).joined(separator: "\n")
    }
}
