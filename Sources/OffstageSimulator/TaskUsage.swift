public import OffstageCore

/// What each task run used: the energy, CPU time and network bytes its app used from the task's start to its end
/// (with whatever else the app did meanwhile, which is seldom anything). The core meters apps, not tasks; the
/// simulator reads the app's meters at the two records, so reports can show a run's cost beside it.
public struct TaskUsage: Sendable {
    /// One run, by its app, task identifier and start.
    public struct Run: Hashable, Sendable {
        public var app: BundleID
        public var task: String
        public var start: Instant
    }

    /// The app's meters at one moment.
    public struct Meters: Hashable, Sendable {
        public var joules: Double = 0
        public var cpuSeconds: Double = 0
        public var bytes: Int = 0

        static func - (a: Meters, b: Meters) -> Meters {
            Meters(joules: a.joules - b.joules, cpuSeconds: a.cpuSeconds - b.cpuSeconds, bytes: a.bytes - b.bytes)
        }
    }

    /// What each finished run used.
    public private(set) var used: [Run: Meters] = [:]
    /// The runs still going, by app and identifier (one run per identifier at a time): their start and the meters
    /// then.
    private var open: [Run: (start: Instant, meters: Meters)] = [:]

    public init() {}

    /// Notes a record the system just made: a `started` record opens a run, its end (`completed`, `killed`) closes it.
    mutating func note(_ record: Record, in system: BackgroundSystem) {
        guard let app = record.app, let task = record.task else { return }
        let identity = Run(app: app, task: task, start: .zero)
        switch record.kind {
        case .started: open[identity] = (record.at, Self.meters(of: app, in: system))
        case .completed, .killed:
            guard let (start, before) = open.removeValue(forKey: identity) else { return }
            used[Run(app: app, task: task, start: start)] = Self.meters(of: app, in: system) - before
        default: break
        }
    }

    /// What the task of `app` started at `start` used, if it ended.
    public func usage(of app: BundleID, task: String, startedAt start: Instant) -> Meters? {
        used[Run(app: app, task: task, start: start)]
    }

    static func meters(of app: BundleID, in system: BackgroundSystem) -> Meters {
        let usage = system.app(app).totalUsage
        let energy = system.energy.totals[.app(app)]
        return Meters(
            joules: (energy?.foreground ?? 0) + (energy?.background ?? 0), cpuSeconds: usage.cpuSeconds,
            bytes: usage.wifiBytes + usage.cellularBytes)
    }
}
