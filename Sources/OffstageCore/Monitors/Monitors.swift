/// What the system's monitors remember between entry points: the progress of continued-processing tasks
/// and their UI, the CPU priorities last sent to hosts (`CPUPriorities`), and recent CPU reports of
/// background apps (`CPUMonitor`). The CPU monitor and the priorities are private: their transitions take `now`
/// and what they read of the app (its installation position, whether the monitor watches it) and return the
/// verdict or the priority to send, which `BackgroundSystem` applies.
struct Monitors: Sendable {
    /// Running continued-processing tasks whose UI is shown, by task ID.
    var progress: [Int: ProgressWatch] = [:]
    /// Progress UIs showing an outcome until they dismiss themselves, oldest first.
    var finishedUI: [ContinuedProcessingUI] = []
    private var cpuPriorities = CPUPriorities()
    private var cpu = CPUMonitor()

    /// The CPU monitor's verdict on an app over the limit: the CPU seconds its reports and its work in progress
    /// put in the window, and their average share of a core.
    struct CPULimitExceeded: Equatable, Sendable {
        var cpuSeconds: Double
        var average: Double
    }

    // MARK: CPU priorities

    /// The CPU priority last sent for the app at `position`; nil while it uses no CPU.
    func cpuPriority(at position: Int) -> CPUPriority? { cpuPriorities.priority(at: position) }

    /// Keeps `priority` (nil: the app uses no CPU) as the app's; the priority to send hosts when it changed to one.
    mutating func updateCPUPriority(at position: Int, to priority: CPUPriority?) -> CPUPriority? {
        cpuPriorities.update(at: position, to: priority) ? priority : nil
    }

    // MARK: CPU monitor

    /// Adds a host's report to the sliding window of the app at `position` when the monitor `watches` it (else
    /// forgets its window); the verdict when its average over a full window is over the policy's limit. The
    /// monitor judges a full window only: it must have watched the app for `backgroundCPUWindow`.
    mutating func noteCPUReport(
        _ usage: ResourceUsage, at position: Int, watches: Bool, now: Instant, policy: Policy
    ) -> CPULimitExceeded? {
        guard watches else {
            cpu.forget(at: position)
            return nil
        }
        guard let used = cpu.add(usage, at: position, now: now, window: policy.backgroundCPUWindow) else { return nil }
        let start = now + (-policy.backgroundCPUWindow)
        return verdict(at: position, used: used + cpuOfWorkInProgress(at: position, after: start, now: now), policy)
    }

    /// Judges the work in progress of the app at `position` with its reports over the window ending `now`; the
    /// verdict when it is over the limit.
    mutating func judgeCPUWork(at position: Int, now: Instant, policy: Policy) -> CPULimitExceeded? {
        let start = now + (-policy.backgroundCPUWindow)
        let reported = cpu.reported(at: position, after: start).cpuSeconds
        return verdict(at: position, used: reported + cpuOfWorkInProgress(at: position, after: start, now: now), policy)
    }

    /// The first time the monitor judges the work in progress of the app at `position`, in the background since
    /// `since`: once it has watched it for a whole window, as soon as its work faster than the limit could have
    /// crossed the limit. Nil when no such work runs.
    func firstCPUJudgement(at position: Int, backgroundSince since: Instant, now: Instant, policy: Policy) -> Instant? {
        let window = policy.backgroundCPUWindow
        let crossings = cpu.workInProgress(at: position)
            .filter { $0.rate > policy.backgroundCPULimit && $0.end > now }
            .map { $0.start + window * policy.backgroundCPULimit / $0.rate }
        return crossings.min().map { max(since + window, $0) }
    }

    /// `OffstageWork.begin` of the app at `position`: the monitor counts the work while it runs (and forgets the
    /// app's work whose time is up). Work that uses no time or no CPU is not kept.
    mutating func noteWorkBegan(_ number: Int, cpuSeconds: Double, seconds: Double, at position: Int, now: Instant) {
        guard seconds > 0, cpuSeconds > 0 else { return }
        let work = CPUMonitor.WorkInProgress(start: now, end: now + seconds, rate: cpuSeconds / seconds)
        cpu.beginWork(number, work, at: position, now: now)
    }

    /// The work ended: its use comes in the report that follows.
    mutating func noteWorkEnded(_ number: Int, at position: Int) { cpu.endWork(number, at: position) }

    /// Forgets every piece of work of the app at `position`: its process ended.
    mutating func forgetCPUWork(at position: Int) { cpu.forgetWork(at: position) }

    /// Whether the monitor keeps a window for the app at `position`.
    func keepsCPUWindow(at position: Int) -> Bool { cpu.watches(at: position) }

    /// Forgets the window of the app at `position`, which the monitor no longer watches: it starts afresh when
    /// it does again.
    mutating func forgetCPUWindow(at position: Int) { cpu.forget(at: position) }

    /// The verdict on `used` CPU seconds over the window: over the limit, the app's window is forgotten (the app
    /// is killed) and the verdict returned.
    private mutating func verdict(at position: Int, used: Double, _ policy: Policy) -> CPULimitExceeded? {
        let average = used / policy.backgroundCPUWindow
        guard average > policy.backgroundCPULimit else { return nil }
        cpu.forget(at: position)
        return CPULimitExceeded(cpuSeconds: used, average: average)
    }

    /// The CPU seconds the app's work still in progress used after `start`, up to `now` (work whose time is up is
    /// in its report).
    private func cpuOfWorkInProgress(at position: Int, after start: Instant, now: Instant) -> Double {
        cpu.workInProgress(at: position).filter { $0.end > now }.reduce(0) { $0 + $1.cpuSeconds(from: start, to: now) }
    }
}

/// The CPU priority last sent to hosts for each app whose process may use the CPU (foreground first, §5), by
/// the app's installation position.
struct CPUPriorities: Sendable {
    private var sent = AppSlots<CPUPriority>()

    /// The priority last sent for the app at `position`; nil while it uses no CPU.
    func priority(at position: Int) -> CPUPriority? { sent[position] }

    /// Keeps `priority` (nil: the app uses no CPU) as the app's; whether it differs from the one kept before.
    mutating func update(at position: Int, to priority: CPUPriority?) -> Bool {
        guard sent[position] != priority else { return false }
        sent[position] = priority
        return true
    }
}

/// The CPU monitor's sliding windows of host reports (resource limits, §5): it remembers each watched
/// background app's recent reports, by the app's installation position, and answers its average over a full window.
/// It also keeps the work each app's code announced and has not ended, so that it sees a long CPU-bound piece of
/// work while it runs, not only in the report at its end.
struct CPUMonitor: Sendable {
    private var windows = AppSlots<CPUWindow>()
    private var work = AppSlots<[Int: WorkInProgress]>()

    /// Work an app's code announced: from `start` to `end`, at `rate` cores.
    struct WorkInProgress: Sendable, Equatable {
        var start: Instant
        var end: Instant
        var rate: Double

        /// The CPU seconds it uses between `from` and `to`.
        func cpuSeconds(from: Instant, to: Instant) -> Double {
            rate * max(0, min(to, end) - max(from, start))
        }
    }

    /// Keeps work `number` of the app at `position` until it ends, and forgets the app's work whose time was up
    /// by `now`.
    mutating func beginWork(_ number: Int, _ work: WorkInProgress, at position: Int, now: Instant) {
        self.work[position, default: [:]] = self.work[position, default: [:]].filter { $0.value.end > now }
        self.work[position, default: [:]][number] = work
    }

    /// Forgets work `number` of the app at `position`: it ended, and its use comes in a report.
    mutating func endWork(_ number: Int, at position: Int) { work[position]?[number] = nil }

    /// Forgets every piece of work of the app at `position`: its process ended.
    mutating func forgetWork(at position: Int) { work[position] = nil }

    /// The app's work in progress.
    func workInProgress(at position: Int) -> [WorkInProgress] { work[position].map { Array($0.values) } ?? [] }

    /// The CPU seconds the app's reports put after `start`, and since when the monitor has watched it (nil: no
    /// report since it started watching).
    func reported(at position: Int, after start: Instant) -> (cpuSeconds: Double, since: Instant?) {
        guard let window = windows[position] else { return (0, nil) }
        return (window.reports.reduce(0) { $0 + $1.cpuSeconds(after: start) }, window.since)
    }

    /// Whether the monitor keeps a window for the app at `position`.
    func watches(at position: Int) -> Bool { windows[position] != nil }

    /// Forgets the app's window: the monitor starts afresh when it watches the app again.
    mutating func forget(at position: Int) { windows[position] = nil }

    /// Adds a report of `usage` ending at `now` to the app's window of `length` seconds; once the monitor has
    /// watched the app for a whole window, the CPU seconds used in it. A new window starts at the report's start.
    mutating func add(_ usage: ResourceUsage, at position: Int, now: Instant, window length: Double) -> Double? {
        let interval = max(0, usage.interval)
        let report = CPUWindow.Report(end: now, interval: interval, cpuSeconds: max(0, usage.cpuSeconds))
        // Changed where it lies in the table: a copy taken out and put back copied its reports at every report.
        return windows[position, default: CPUWindow(since: now + (-interval))].add(report, windowStart: now + (-length))
    }
}

/// One running continued-processing task as the progress monitor follows it.
struct ProgressWatch: Sendable {
    /// The task as the monitor last saw it (kept to show its outcome if it dies with its app).
    var run: TaskRun
    /// When the progress last moved, or the task was handed to the app; nil until it is handed over.
    var movedAt: Instant?
    /// The user tapped cancel in the UI.
    var cancelledByUser = false
    var question: Question = .notAsked

    /// When a stall expires the task: its progress has stood still since `movedAt` for the policy's timeout.
    func stallDue(_ policy: Policy) -> Instant? {
        guard run.expiredAt == nil, let moved = movedAt else { return nil }
        return moved + policy.continuedProcessingStallTimeout
    }

    /// When the estimated completion, extrapolated from the progress rate since the start, passes the
    /// slow limit: `start + elapsed / fraction > start + limit` once `elapsed > limit × fraction`.
    func slowDue(_ policy: Policy) -> Instant? {
        let fraction = ContinuedProcessingUI(run).fraction
        guard run.expiredAt == nil, run.delivered, question == .notAsked, fraction > 0, fraction < 1 else {
            return nil
        }
        return run.startedAt + policy.continuedProcessingSlowLimit * fraction
    }

    /// Where the system's "continue?" question stands.
    enum Question: Sendable, Equatable {
        case notAsked
        /// Asked with this text; waiting for the user.
        case asked(String)
        /// The user answered: never asked again.
        case answered
    }
}

/// The CPU reports of one background app since the monitor started watching it, recent ones only.
private struct CPUWindow: Sendable {
    /// CPU time a host reported over an interval ending at `end`.
    struct Report: Sendable {
        var end: Instant
        var interval: Double
        var cpuSeconds: Double

        /// The CPU seconds of this report that fall after `start`, assuming an even use over its interval.
        func cpuSeconds(after start: Instant) -> Double {
            guard end > start else { return 0 }
            guard interval > 0 else { return cpuSeconds }
            return cpuSeconds * min(1, (end - start) / interval)
        }
    }

    /// The start of the first report since the monitor began watching: it judges only a full window.
    var since: Instant
    /// Reports that end inside the window, oldest first.
    var reports: [Report] = []

    /// Adds `report` and forgets those that ended by `windowStart`; once the window has been watched whole
    /// (since `windowStart` or before), the CPU seconds used after `windowStart`.
    mutating func add(_ report: Report, windowStart: Instant) -> Double? {
        reports.append(report)
        reports.removeAll { $0.end <= windowStart }
        guard since <= windowStart else { return nil }
        return reports.reduce(0) { $0 + $1.cpuSeconds(after: windowStart) }
    }
}
