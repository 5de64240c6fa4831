public import Foundation
public import OffstageCore

/// A run in the Trace Event Format (the JSON object form Chrome's about:tracing and the Perfetto UI open): a
/// process for the device and one per app, a track each for the device's conditions, the app's state, its pushes,
/// its background time (`beginBackgroundTask` assertions) and per task identifier its waits and its runs; the
/// battery as a counter, wakes and expirations as instants.
/// Times are microseconds from the run's start (`ts`, `dur`), as the format wants.
public struct TraceEventFile: Sendable {
    public var timeline: ReportTimeline
    /// The policy's idle delay, for the idle-window track.
    public var idleDelay: Double
    public var scenario: Scenario
    /// The run's records, for the assertions (typed `assertionBegan` and `assertionEnded` details).
    public var records: [Record]

    public init(timeline: ReportTimeline, idleDelay: Double, scenario: Scenario, records: [Record]) {
        self.timeline = timeline
        self.idleDelay = idleDelay
        self.scenario = scenario
        self.records = records
    }

    /// The report of a finished simulation (`report` is what `Simulation.report` returned).
    public init(report: RunReport, simulation: Simulation) {
        var timeline = ReportTimeline(
            report: report, end: simulation.now, battery: simulation.batteryHistory.samples,
            energy: BatteryReport(system: simulation.system))
        timeline.device = simulation.deviceHistory.readings
        self.init(
            timeline: timeline, idleDelay: report.scenario.policy.deviceIdleDelay, scenario: report.scenario,
            records: report.records)
    }

    /// One event of the format: `ph` is its phase (X complete, i instant, C counter, M metadata).
    struct Event: Encodable {
        var name: String
        var ph: String
        var ts: Double
        var dur: Double?
        var pid: Int
        var tid: Int
        /// An instant's scope: t (its thread), p (its process), g (global).
        var s: String?
        var args: [String: Value]?
    }

    /// An argument's value: text or a number.
    enum Value: Encodable, Hashable {
        case text(String)
        case number(Double)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number.isFinite ? number : 0)
            }
        }
    }

    /// Microseconds from the start, whole: the format's unit.
    static func micros(_ instant: Instant) -> Double { (instant.seconds * 1_000_000).rounded() }

    /// Every event, metadata first.
    var events: [Event] {
        var events: [Event] = []
        func name(process pid: Int, _ name: String, sortIndex: Int) {
            events.append(Event(name: "process_name", ph: "M", ts: 0, pid: pid, tid: 0, args: ["name": .text(name)]))
            events.append(
                Event(
                    name: "process_sort_index", ph: "M", ts: 0, pid: pid, tid: 0,
                    args: ["sort_index": .number(Double(sortIndex))]))
        }
        func name(thread tid: Int, of pid: Int, _ name: String) {
            events.append(Event(name: "thread_name", ph: "M", ts: 0, pid: pid, tid: tid, args: ["name": .text(name)]))
            events.append(
                Event(
                    name: "thread_sort_index", ph: "M", ts: 0, pid: pid, tid: tid,
                    args: ["sort_index": .number(Double(tid))]))
        }
        func slice(_ name: String, from start: Instant, to end: Instant, pid: Int, tid: Int, args: [String: Value]) {
            events.append(
                Event(
                    name: name, ph: "X", ts: Self.micros(start), dur: max(0, Self.micros(end) - Self.micros(start)),
                    pid: pid, tid: tid, args: args))
        }
        func instant(_ name: String, at: Instant, pid: Int, tid: Int, args: [String: Value]) {
            events.append(Event(name: name, ph: "i", ts: Self.micros(at), pid: pid, tid: tid, s: "t", args: args))
        }

        // The device: the battery counter, the conditions the constraints read, the maintenance wakes.
        let device = 1
        name(process: device, "Device", sortIndex: 0)
        name(thread: 1, of: device, "battery")
        for sample in timeline.battery {
            events.append(
                Event(
                    name: "battery", ph: "C", ts: Self.micros(sample.at), pid: device, tid: 1,
                    args: ["level %": .number((sample.level * 1000).rounded() / 10)]))
        }
        let lanes = DeviceLanes(readings: timeline.device, end: timeline.end, idleDelay: idleDelay)
        for (index, lane) in lanes.lanes.enumerated() {
            let tid = 2 + index
            name(thread: tid, of: device, lane.name)
            for segment in lanes.segments(of: lane) {
                slice(
                    segment.text, from: segment.start, to: segment.end, pid: device, tid: tid,
                    args: ["constraint": .text(lane.constraint)])
            }
        }
        let wakes = 2 + lanes.lanes.count
        name(thread: wakes, of: device, "maintenance wakes")
        for wake in timeline.wakes {
            var args: [String: Value] = ["record": .text(wake.detail)]
            if let app = wake.app { args["app"] = .text(app.rawValue) }
            if let task = wake.task { args["task"] = .text(task) }
            instant("maintenance wake", at: wake.at, pid: device, tid: wakes, args: args)
        }

        // Each app: its state, its pushes, its assertions, and per task identifier its waits and its runs.
        for (index, lane) in timeline.apps.enumerated() {
            let pid = 2 + index
            name(process: pid, lane.app.rawValue, sortIndex: pid)
            name(thread: 1, of: pid, "state")
            for segment in lane.states {
                slice(segment.state.rawValue, from: segment.start, to: segment.end, pid: pid, tid: 1, args: [:])
            }
            name(thread: 2, of: pid, "background pushes")
            for span in lane.pushes.held {
                slice("push held", from: span.start, to: span.end, pid: pid, tid: 2, args: [:])
            }
            for (marks, what) in [
                (lane.pushes.arrived, "push arrived"), (lane.pushes.delivered, "push delivered"),
                (lane.pushes.dropped, "push dropped"),
            ] {
                for mark in marks { instant(what, at: mark.at, pid: pid, tid: 2, args: ["record": .text(mark.detail)]) }
            }
            for (track, assertions) in assertionTracks(of: lane.app).enumerated() {
                let tid = 3 + track
                name(thread: tid, of: pid, "background time \(track + 1)")
                for assertion in assertions {
                    slice(
                        assertion.name.map { "background task \"\($0)\"" } ?? "background task", from: assertion.start,
                        to: assertion.end, pid: pid, tid: tid, args: ["number": .number(Double(assertion.number))])
                }
            }
            let waits = timeline.requests.filter { $0.app == lane.app }
            let identifiers = Set(waits.map(\.identifier) + lane.runs.map(\.identifier)).sorted()
            for (offset, identifier) in identifiers.enumerated() {
                let waitTrack = 100 + 2 * offset
                let runTrack = waitTrack + 1
                name(thread: waitTrack, of: pid, "\(identifier) waits")
                name(thread: runTrack, of: pid, "\(identifier) runs")
                for wait in waits where wait.identifier == identifier {
                    slice(
                        "waiting", from: wait.submittedAt, to: wait.endedAt, pid: pid, tid: waitTrack,
                        args: [
                            "outcome": .text(wait.outcome.rawValue),
                            "held back by": .text(wait.constraints.joined(separator: ", ")),
                        ])
                }
                for run in lane.runs where run.identifier == identifier {
                    slice(
                        Palette.name(run.kind), from: run.start, to: run.end, pid: pid, tid: runTrack,
                        args: ["outcome": .text(run.outcome.rawValue)])
                    if let expired = run.expiredAt {
                        instant("expired", at: expired, pid: pid, tid: runTrack, args: [:])
                    }
                }
            }
        }
        return events
    }

    /// One `beginBackgroundTask` assertion: from its `assertionBegan` record to its `assertionEnded`, or to the app's
    /// end (not running), or the run's.
    struct Assertion {
        var number: Int
        var name: String?
        var start: Instant
        var end: Instant
    }

    /// The app's assertions on as few tracks as keep each track's slices apart (an app may hold several at once).
    func assertionTracks(of app: BundleID) -> [[Assertion]] {
        var open: [Int: Assertion] = [:]
        var done: [Assertion] = []
        for record in records where record.app == app {
            switch record.detail {
            case .assertionBegan(let number, let name)?:
                open[number] = Assertion(number: number, name: name, start: record.at, end: timeline.end)
            case .assertionEnded(let number)?:
                if var assertion = open.removeValue(forKey: number) {
                    assertion.end = record.at
                    done.append(assertion)
                }
            case let detail? where detail.stateAfter == .notRunning:
                for (_, var assertion) in open {
                    assertion.end = record.at
                    done.append(assertion)
                }
                open = [:]
            default: break
            }
        }
        var tracks: [[Assertion]] = []
        for assertion in (done + open.values).sorted(by: { ($0.start, $0.number) < ($1.start, $1.number) }) {
            if let free = tracks.firstIndex(where: { ($0.last?.end ?? .zero) <= assertion.start }) {
                tracks[free].append(assertion)
            } else {
                tracks.append([assertion])
            }
        }
        return tracks
    }

    /// The file: `{"traceEvents": […], "displayTimeUnit": "ms", "otherData": {…}}`.
    public func json() throws -> Data {
        struct Document: Encodable {
            var traceEvents: [Event]
            var displayTimeUnit = "ms"
            var otherData: [String: String]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let start = WallClock(epochAtZero: scenario.startEpoch).timestamp(at: .zero)
        return try encoder.encode(
            Document(
                traceEvents: events,
                otherData: [
                    "scenario": scenario.name, "seed": "\(scenario.seed)", "start": start,
                    "time": "microseconds from the start, \(start)",
                ]))
    }
}
