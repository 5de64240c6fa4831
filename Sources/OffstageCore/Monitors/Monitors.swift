/// What a monitor's transition asks the system to carry out, in order: a fact to record, a task to expire, a
/// question for the user, an app to kill. The monitors never see the system: `BackgroundSystem.handleMonitors` does
/// each.
enum MonitorAction: Sendable, Equatable {
    /// Record this fact about the app (or the system), in these words.
    case note(BundleID?, RecordKind, task: String?, reason: String)
    /// Expire the app's running task for this cause: its expiration handler runs, with the usual grace.
    case expire(BundleID, taskID: Int, RecordDetail.Expiration)
    /// Ask the user this question about the app's task (`Effect.askUser`).
    case askUser(BundleID, taskID: Int, question: String)
    /// Kill the app over a resource limit: record the limit's words, then end the process for `reason`.
    case kill(BundleID, words: String, TerminationReason)
}

/// What the system hands the monitors, for an installed app unless said otherwise: between supervision passes, and
/// the supervision pass's own looks (the progress, each reviewed app's memory).
enum MonitorInput: Sendable {
    /// The app's code reported work it begins or ended (`AppCall.workBegan`, `AppCall.workEnded`).
    case workReport(AppCall, of: BundleID)
    /// The app's process ended: the work it reported ends with it.
    case processEnded(BundleID)
    /// The app completed its continued-processing task `run` (`setTaskCompleted`).
    case continuedTaskCompleted(TaskRun, success: Bool)
    /// The user tapped cancel in the progress UI of the app's task `identifier` (the host names both: either
    /// may be unknown).
    case userCancelled(String, of: BundleID)
    /// The user answered the system's question about the app's task `identifier` (named by the host).
    case userAnswered(SlowTaskAnswer, String, of: BundleID)
    /// The CPU monitor's judgement of the app's work in progress is due.
    case cpuJudgementDue(BundleID)
    /// A host reported what the app used in the interval ending now (`SystemEvent.resourceUsage`): the CPU
    /// monitor adds it to the app's window.
    case resourceReport(ResourceUsage, of: BundleID)
    /// The supervision pass follows the `running` continued-processing tasks, of every app (`ProgressMonitor.watch`).
    case progressDue(running: [TaskRun])
    /// The supervision pass looks at the app's memory: over the background limit, the app is killed.
    case memoryCheckDue(BundleID)

    /// The app the input is about; nil for the progress of every app's tasks.
    var app: BundleID? {
        switch self {
        case .workReport(_, let app), .processEnded(let app), .userCancelled(_, let app),
            .userAnswered(_, _, let app), .cpuJudgementDue(let app), .resourceReport(_, let app),
            .memoryCheckDue(let app):
            app
        case .continuedTaskCompleted(let run, _): run.app
        case .progressDue: nil
        }
    }
}

/// The system's monitors (SPEC §5 "Resources", §6): the continued-processing progress monitor, the CPU monitor,
/// the background memory limit and the CPU priorities sent to hosts. Their state is private; each transition takes
/// `now`, the policy and what it reads of an app (its record, the app on screen) and returns what to carry out.
struct Monitors: Sendable {
    /// The continued-processing tasks' progress and UI (its own state, changed only by its transitions).
    var progress = ProgressMonitor()
    private var cpuPriorities = CPUPriorities()
    private var cpu = CPUMonitor()

    /// Takes `input` at `now`, with `app` the record of the app it is about (nil: the input is about no one app, or
    /// the host named an app that is not installed, which only the user's inputs in the progress UI can do) and
    /// `onScreen` the app on screen; returns what to carry out, in order.
    mutating func take(_ input: MonitorInput, app: AppRecord?, onScreen: BundleID?, now: Instant, policy: Policy)
        -> [MonitorAction]
    {
        switch input {
        case .workReport(let report, _):
            noteWorkReport(report, at: installed(app).installIndex, now: now)
            return []
        case .processEnded:
            cpu.forgetWork(at: installed(app).installIndex)
            return []
        case .continuedTaskCompleted(let run, let success):
            return [progress.taskCompleted(run, success: success, now: now, policy: policy)]
        case .userCancelled(let identifier, let id):
            return progress.userCancelled(identifier, of: id, running: app?.running ?? [])
        case .userAnswered(let answer, let identifier, let id):
            return progress.userAnswered(answer, identifier, of: id, running: app?.running ?? [])
        case .cpuJudgementDue:
            return judgeCPUWork(of: installed(app), onScreen: onScreen, now: now, policy: policy).map { [$0] } ?? []
        case .resourceReport(let usage, _):
            let record = installed(app)
            return noteCPUReport(usage, of: record, onScreen: onScreen, now: now, policy: policy).map { [$0] } ?? []
        case .progressDue(let running):
            return progress.watch(running, now: now, policy: policy)
        case .memoryCheckDue:
            return Self.memoryLimitKill(of: installed(app), onScreen: onScreen, policy: policy).map { [$0] } ?? []
        }
    }

    /// The record of the app an input from the system's own code is about: installed, or the system is broken.
    private func installed(_ app: AppRecord?) -> AppRecord {
        guard let app else { preconditionFailure("a monitor input from the system for an app not installed") }
        return app
    }

    // MARK: CPU priorities

    /// The CPU priority last sent for the app at `position`; nil while it uses no CPU.
    func cpuPriority(at position: Int) -> CPUPriority? { cpuPriorities.priority(at: position) }

    /// Foreground first (SPEC §5): keeps the priority the rule gives `app` now, with `onScreen` the app on screen
    /// (or none); the priority to send hosts when it changed. The app on screen is `foreground` (`boosted` while it
    /// runs a continued-processing task); any other is `background` while an app is on screen, `normal` while none
    /// is. A suspended or terminated app uses no CPU: it is forgotten, and gets a priority again when it runs.
    mutating func updateCPUPriority(of app: AppRecord, onScreen: BundleID?) -> CPUPriority? {
        var priority: CPUPriority?
        if app.state.hasProcess, app.state != .suspended {
            if app.id == onScreen {
                priority = app.running.contains { $0.request.kind == .continuedProcessing } ? .boosted : .foreground
            } else {
                priority = onScreen == nil ? .normal : .background
            }
        }
        return cpuPriorities.update(at: app.installIndex, to: priority) ? priority : nil
    }

    // MARK: CPU monitor

    /// Whether the CPU monitor judges `app` now: it runs off screen (`onScreen` is the app on screen), and no
    /// processing task that requires external power (which turns the monitor off, as on iOS) is running.
    static func watches(_ app: AppRecord, onScreen: BundleID?) -> Bool {
        let state = app.state
        return state.hasProcess && !state.isForeground && app.id != onScreen && !app.isTerminating
            && !app.running.contains { $0.request.kind == .processing && $0.request.requiresExternalPower }
    }

    /// Adds a host's report of what `app` used to its sliding window when the monitor watches it (else forgets its
    /// window); the kill when its average over a full window is over the policy's limit. The monitor judges a full
    /// window only: it must have watched the app for `backgroundCPUWindow`.
    private mutating func noteCPUReport(
        _ usage: ResourceUsage, of app: AppRecord, onScreen: BundleID?, now: Instant, policy: Policy
    ) -> MonitorAction? {
        let position = app.installIndex
        guard Self.watches(app, onScreen: onScreen) else {
            cpu.forget(at: position)
            return nil
        }
        guard let used = cpu.add(usage, at: position, now: now, window: policy.backgroundCPUWindow) else { return nil }
        let start = now + (-policy.backgroundCPUWindow)
        let total = used + cpuOfWorkInProgress(at: position, after: start, now: now)
        return verdict(on: app.id, at: position, used: total, policy)
    }

    /// When the monitor next judges `app`'s work in progress: every sixth of a window after its first judgement
    /// while it lasts (ours: iOS measures continuously). Nil when no work faster than the limit runs off screen.
    func cpuLimitDue(of app: AppRecord, onScreen: BundleID?, now: Instant, policy: Policy) -> Instant? {
        guard let first = firstCPUJudgement(of: app, onScreen: onScreen, now: now, policy: policy) else { return nil }
        return first > now ? first : now + policy.backgroundCPUWindow / 6
    }

    /// Judges `app`'s work in progress with its reports over the window ending `now`, once its judgement is due;
    /// the kill when it is over the limit.
    private mutating func judgeCPUWork(of app: AppRecord, onScreen: BundleID?, now: Instant, policy: Policy)
        -> MonitorAction?
    {
        guard let first = firstCPUJudgement(of: app, onScreen: onScreen, now: now, policy: policy), first <= now
        else { return nil }
        let position = app.installIndex
        let start = now + (-policy.backgroundCPUWindow)
        let reported = cpu.reported(at: position, after: start).cpuSeconds
        let total = reported + cpuOfWorkInProgress(at: position, after: start, now: now)
        return verdict(on: app.id, at: position, used: total, policy)
    }

    /// Forgets `app`'s window when the monitor no longer judges it (`onScreen` is the app on screen), so it
    /// starts afresh when it does again.
    mutating func forgetWindowIfIdle(of app: AppRecord, onScreen: BundleID?) {
        if cpu.watches(at: app.installIndex) && !Self.watches(app, onScreen: onScreen) {
            cpu.forget(at: app.installIndex)
        }
    }

    /// The app's code reported its work (`OffstageWork.begin`/`end`, the calls `workBegan`/`workEnded`): the
    /// monitor counts work while it runs (and forgets the app's work whose time is up); work that uses no time
    /// or no CPU is not kept, and an ended work's use comes in the report that follows.
    private mutating func noteWorkReport(_ report: AppCall, at position: Int, now: Instant) {
        switch report {
        case .workBegan(let number, let cpuSeconds, let seconds):
            guard seconds > 0, cpuSeconds > 0 else { return }
            let work = CPUMonitor.WorkInProgress(start: now, end: now + seconds, rate: cpuSeconds / seconds)
            cpu.beginWork(number, work, at: position, now: now)
        case .workEnded(let number):
            cpu.endWork(number, at: position)
        default: preconditionFailure("not a work report: \(report)")
        }
    }

    /// The first time the monitor judges `app`'s work in progress, while it watches the app in the background:
    /// once it has watched it for a whole window, as soon as its work faster than the limit could have crossed
    /// the limit. Nil when no such work runs.
    private func firstCPUJudgement(of app: AppRecord, onScreen: BundleID?, now: Instant, policy: Policy) -> Instant? {
        guard let since = app.backgroundSince, Self.watches(app, onScreen: onScreen) else { return nil }
        let window = policy.backgroundCPUWindow
        let crossings = cpu.workInProgress(at: app.installIndex)
            .filter { $0.rate > policy.backgroundCPULimit && $0.end > now }
            .map { $0.start + window * policy.backgroundCPULimit / $0.rate }
        return crossings.min().map { max(since + window, $0) }
    }

    /// The verdict on `used` CPU seconds over the window: over the limit, the app's window is forgotten and the
    /// kill returned, with the monitor's words for it.
    private mutating func verdict(on id: BundleID, at position: Int, used: Double, _ policy: Policy) -> MonitorAction? {
        let average = used / policy.backgroundCPUWindow
        guard average > policy.backgroundCPULimit else { return nil }
        cpu.forget(at: position)
        let seconds = Int(policy.backgroundCPUWindow)
        let words =
            "cpu usage: \(oneDecimal(used)) seconds cpu time over \(seconds) seconds "
            + "(\(percent(average))% cpu average), exceeding limit of \(percent(policy.backgroundCPULimit))% cpu "
            + "over \(seconds) seconds"
        return .kill(id, words: words, .resourceLimit("cpu resource limit exceeded"))
    }

    /// The CPU seconds the app's work still in progress used after `start`, up to `now` (work whose time is up is
    /// in its report).
    private func cpuOfWorkInProgress(at position: Int, after start: Instant, now: Instant) -> Double {
        cpu.workInProgress(at: position).filter { $0.end > now }.reduce(0) { $0 + $1.cpuSeconds(from: start, to: now) }
    }

    // MARK: Memory limit

    /// The background memory limit's kill of `app` when it is kept running in the background by its work with a
    /// footprint over the limit. Suspended apps are left to jetsam, and an app between two life-cycle callbacks
    /// (leaving the screen, launching) is not judged until they are delivered.
    private static func memoryLimitKill(of app: AppRecord, onScreen: BundleID?, policy: Policy) -> MonitorAction? {
        guard app.state == .background, app.id != onScreen, app.terminating == nil, app.inFlight == nil,
            app.queuedCallbacks.isEmpty, app.memoryFootprint > policy.backgroundMemoryLimit
        else { return nil }
        let words =
            "memory: \(megabytes(app.memoryFootprint)) MB in the background, "
            + "exceeding limit of \(megabytes(policy.backgroundMemoryLimit)) MB"
        return .kill(app.id, words: words, .resourceLimit("memory resource limit exceeded"))
    }
}

/// A share as whole percent, as the CPU limit's kill message writes it ("80% cpu").
private func percent(_ fraction: Double) -> Int { Int((fraction * 100).rounded()) }

/// Bytes as megabytes with one decimal, as the memory limit's record writes them.
private func megabytes(_ bytes: Int) -> String { oneDecimal(Double(bytes) / 1_000_000) }

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
