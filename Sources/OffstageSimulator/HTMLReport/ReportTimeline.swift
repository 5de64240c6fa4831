public import OffstageCore

/// Everything the HTML report draws, on one time line: what each app was doing when, the tasks, pushes and
/// wake-ups, the battery and the energy, in plain values built from a run's results. The plots only read it.
public struct ReportTimeline: Sendable {
    /// The run's first and last instant: the shared time axis.
    public var start: Instant
    public var end: Instant
    /// The scenario's wall clock, for axis labels and explanations.
    public var clock: WallClock
    /// One lane per app, in the scenario's order.
    public var apps: [AppLane]
    /// Maintenance wakes of the device, for whichever app or the system.
    public var wakes: [Mark]
    /// The battery curve.
    public var battery: [BatteryHistory.Sample]
    /// Where the device was on the charger.
    public var charging: [Span]
    /// Energy per consumer over the whole run, the most first.
    public var energy: [BatteryReport.Row]
    /// Every request that was submitted, and how long and why it waited.
    public var requests: [RequestWait]
    /// The device's conditions as the constraints read them, one reading per change.
    public var device: [DeviceHistory.Reading] = []
    /// The scenario's own battery levels (its `battery` timeline entries): where the curve jumps by design.
    public var scenarioBattery: [(at: Instant, level: Double)] = []

    /// A stretch of time.
    public struct Span: Hashable, Sendable {
        public var start: Instant
        public var end: Instant
    }

    /// A moment worth a mark, with the words of its record (and the task it concerns, if any).
    public struct Mark: Hashable, Sendable {
        public var at: Instant
        public var app: BundleID?
        public var detail: String
        public var task: String? = nil
    }

    /// What an app lane shows: the life-cycle state, its task runs, its background pushes.
    public struct AppLane: Hashable, Sendable {
        public var app: BundleID
        public var states: [StateSegment]
        public var runs: [TaskBar]
        public var pushes: PushMarks
    }

    /// Builds the timeline of a run that ended at `end`, from its report, the battery samples and the
    /// Battery view of its end (the energy ledger); `start` later than zero shows a window of a long run.
    public init(
        report: RunReport, start: Instant = .zero, end: Instant, battery: [BatteryHistory.Sample],
        energy: BatteryReport
    ) {
        self.start = start
        self.end = end
        clock = WallClock(epochAtZero: report.scenario.startEpoch)
        let records = report.records
        let byApp = Dictionary(grouping: records.filter { $0.app != nil }, by: { $0.app! })
        apps = report.scenario.apps.map(\.manifest.bundleIdentifier).map { app in
            let mine = byApp[app] ?? []
            return AppLane(
                app: app, states: Self.states(mine, until: end), runs: Self.runs(mine, until: end),
                pushes: Self.pushes(mine, until: end))
        }
        wakes = records.filter { $0.kind == .wake }.map {
            Mark(at: $0.at, app: $0.app, detail: $0.reason, task: $0.task)
        }
        self.battery = Self.chargingCurves(battery, model: energy.battery)
        charging = Self.charging(battery, until: end)
        self.energy = energy.rows(energy.ledger.totals)
        requests = Self.requests(report, until: end).filter { $0.endedAt >= start && $0.submittedAt <= end }
        scenarioBattery = report.scenario.timeline.compactMap { entry in
            guard case .system(.setBattery(let level, _)) = entry.action else { return nil }
            return (Instant(seconds: entry.at), level)
        }
    }

    /// The index in `requests` of the request whose wait ended when `app`'s task `identifier` started at `start`:
    /// the row a task bar or a wake links to.
    func requestIndex(app: BundleID, identifier: String, startedAt start: Instant) -> Int? {
        requests.firstIndex {
            $0.app == app && $0.identifier == identifier && $0.outcome == .started && $0.endedAt == start
        }
    }

    /// Gives each finished task run what it used, from the simulator's meters.
    mutating func attach(_ usage: TaskUsage) {
        for lane in apps.indices {
            for run in apps[lane].runs.indices {
                let bar = apps[lane].runs[run]
                apps[lane].runs[run].usage = usage.usage(of: apps[lane].app, task: bar.identifier, startedAt: bar.start)
            }
        }
    }

    /// The task run that ended `wait` by starting, if it did.
    func run(startedBy wait: RequestWait) -> TaskBar? {
        guard wait.outcome == .started else { return nil }
        return apps.first { $0.app == wait.app }?.runs.first {
            $0.identifier == wait.identifier && $0.start == wait.endedAt
        }
    }

    /// Seconds between the points added to follow the charger's curve.
    static let chargingStep = 300.0

    /// The samples, with the charger's curve (`Battery.level(afterCharging:from:)`) filled in where the device
    /// charged between two of them: the core charges a gap with that curve in one go at the next step, so these
    /// points are where the simulated battery was (less the small drain, charged at the step).
    static func chargingCurves(_ samples: [BatteryHistory.Sample], model: Battery) -> [BatteryHistory.Sample] {
        var result: [BatteryHistory.Sample] = []
        for (sample, next) in zip(samples, samples.dropFirst()) {
            result.append(sample)
            guard sample.isCharging else { continue }
            var time = sample.at + chargingStep
            while time < next.at {
                let level = model.level(afterCharging: time - sample.at, from: sample.level)
                result.append(BatteryHistory.Sample(at: time, level: level, isCharging: true))
                time = time + chargingStep
            }
        }
        if let last = samples.last { result.append(last) }
        return result
    }

    /// The spans where the battery samples show the charger in.
    static func charging(_ samples: [BatteryHistory.Sample], until end: Instant) -> [Span] {
        var spans: [Span] = []
        var since: Instant?
        for sample in samples {
            if sample.isCharging, since == nil { since = sample.at }
            if !sample.isCharging, let from = since {
                spans.append(Span(start: from, end: sample.at))
                since = nil
            }
        }
        if let since { spans.append(Span(start: since, end: end)) }
        return spans
    }
}
