/// Resource limits for apps off screen (SPEC §5 "Resources"): the CPU monitor kills a background app that
/// uses more than 80 % of a core averaged over 60 s, and the memory limit kills an app that runs in the
/// background above 50 MB. Jetsam, which frees memory on demand, lives with the life cycle.
extension BackgroundSystem {
    // MARK: CPU monitor

    /// Adds a host's report to the app's sliding window and kills the app if its average is over the limit.
    /// The monitor judges a full window only: it must have watched the app for `backgroundCPUWindow`.
    mutating func monitorCPU(_ id: BundleID, _ usage: ResourceUsage) {
        guard apps.contains(id) else { return }
        let position = apps.position(of: id)
        guard cpuMonitorWatches(id) else { return monitors.cpu.forget(at: position) }
        guard let used = monitors.cpu.add(usage, at: position, now: now, window: policy.backgroundCPUWindow) else {
            return
        }
        killIfOverCPULimit(
            id, used: used + cpuOfWorkInProgress(at: position, after: now + (-policy.backgroundCPUWindow)))
    }

    /// Kills the app if `used` CPU seconds over the window are over the limit; whether it did.
    @discardableResult
    private mutating func killIfOverCPULimit(_ id: BundleID, used: Double) -> Bool {
        let position = apps.position(of: id)
        let average = used / policy.backgroundCPUWindow
        guard average > policy.backgroundCPULimit else { return false }
        let seconds = Int(policy.backgroundCPUWindow)
        let reason =
            "cpu usage: \(oneDecimal(used)) seconds cpu time over \(seconds) seconds "
            + "(\(percent(average))% cpu average), exceeding limit of \(percent(policy.backgroundCPULimit))% cpu "
            + "over \(seconds) seconds"
        record(id, .resourceLimit, reason: reason)
        monitors.cpu.forget(at: position)
        terminate(id, .resourceLimit("cpu resource limit exceeded"))
        return true
    }

    // MARK: CPU work in progress

    /// `OffstageWork.begin`: the monitor counts the work while it runs (and forgets the app's work whose time
    /// is up).
    mutating func noteWorkBegan(_ id: BundleID, number: Int, cpuSeconds: Double, seconds: Double) {
        guard seconds > 0, cpuSeconds > 0 else { return }
        let work = CPUMonitor.WorkInProgress(start: now, end: now + seconds, rate: cpuSeconds / seconds)
        monitors.cpu.beginWork(number, work, at: apps.position(of: id), now: now)
    }

    /// The work ended: its use comes in the report that follows.
    mutating func noteWorkEnded(_ id: BundleID, number: Int) { monitors.cpu.endWork(number, at: apps.position(of: id)) }

    /// The CPU seconds the app's work still in progress used after `start`, up to now (work whose time is up is
    /// in its report).
    private func cpuOfWorkInProgress(at position: Int, after start: Instant) -> Double {
        monitors.cpu.workInProgress(at: position).filter { $0.end > now }
            .reduce(0) { $0 + $1.cpuSeconds(from: start, to: now) }
    }

    /// When the monitor next judges the app's work in progress: every sixth of a window after `firstCPUJudgement`
    /// while it lasts (ours: iOS measures continuously). Nil when no work faster than the limit runs off screen.
    func cpuLimitDue(of id: BundleID) -> Instant? {
        guard let first = firstCPUJudgement(of: id) else { return nil }
        return first > now ? first : now + policy.backgroundCPUWindow / 6
    }

    /// The first time the monitor judges the app's work in progress: once it has watched the app in the background
    /// for a whole window, as soon as its work faster than the limit could have crossed the limit.
    private func firstCPUJudgement(of id: BundleID) -> Instant? {
        guard let since = apps[id].backgroundSince, cpuMonitorWatches(id) else { return nil }
        let window = policy.backgroundCPUWindow
        let crossings = monitors.cpu.workInProgress(at: apps.position(of: id))
            .filter { $0.rate > policy.backgroundCPULimit && $0.end > now }
            .map { $0.start + window * policy.backgroundCPULimit / $0.rate }
        return crossings.min().map { max(since + window, $0) }
    }

    /// Judges the app's work in progress once it is due: over the limit, the app is killed; whether it was.
    mutating func fireCPULimit(_ id: BundleID) -> Bool {
        guard let first = firstCPUJudgement(of: id), first <= now else { return false }
        let position = apps.position(of: id)
        let start = now + (-policy.backgroundCPUWindow)
        let reported = monitors.cpu.reported(at: position, after: start).cpuSeconds
        return killIfOverCPULimit(id, used: reported + cpuOfWorkInProgress(at: position, after: start))
    }

    /// Whether the CPU monitor judges the app now: it runs off screen, and no processing task that requires
    /// external power (which turns the monitor off, as on iOS) is running.
    func cpuMonitorWatches(_ id: BundleID) -> Bool {
        let state = apps[id].state
        return state.hasProcess && !state.isForeground && id != foregroundApp && !apps[id].isTerminating
            && !apps[id].running.contains { $0.request.kind == .processing && $0.request.requiresExternalPower }
    }

    /// Forgets the window of each of `ids` (the apps just reviewed: no other app changed) the monitor does
    /// not judge now, so it starts afresh when it does.
    mutating func resetIdleCPUWindows(_ ids: AppSet) {
        for position in ids {
            if monitors.cpu.watches(at: position) && !cpuMonitorWatches(apps.id(at: position)) {
                monitors.cpu.forget(at: position)
            }
        }
    }

    // MARK: Memory limit

    /// Kills each of `ids` kept running in the background by its work whose footprint is over the background
    /// memory limit. Suspended apps are left to jetsam, and an app between two life-cycle callbacks
    /// (leaving the screen, launching) is not judged until they are delivered.
    mutating func enforceBackgroundMemoryLimit(_ ids: AppSet) {
        for position in ids {
            let id = apps.id(at: position)
            guard let app = apps.lookUp(id), app.state == .background, id != foregroundApp, app.terminating == nil,
                app.inFlight == nil, app.queuedCallbacks.isEmpty, app.memoryFootprint > policy.backgroundMemoryLimit
            else { continue }
            let reason =
                "memory: \(megabytes(app.memoryFootprint)) MB in the background, "
                + "exceeding limit of \(megabytes(policy.backgroundMemoryLimit)) MB"
            record(id, .resourceLimit, reason: reason)
            terminate(id, .resourceLimit("memory resource limit exceeded"))
        }
    }

    private func percent(_ fraction: Double) -> Int { Int((fraction * 100).rounded()) }

    private func megabytes(_ bytes: Int) -> String { oneDecimal(Double(bytes) / 1_000_000) }
}
