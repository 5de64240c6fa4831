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
        let average = used / policy.backgroundCPUWindow
        guard average > policy.backgroundCPULimit else { return }
        let seconds = Int(policy.backgroundCPUWindow)
        let reason =
            "cpu usage: \(oneDecimal(used)) seconds cpu time over \(seconds) seconds "
            + "(\(percent(average))% cpu average), exceeding limit of \(percent(policy.backgroundCPULimit))% cpu "
            + "over \(seconds) seconds"
        record(id, .resourceLimit, reason: reason)
        monitors.cpu.forget(at: position)
        terminate(id, .resourceLimit("cpu resource limit exceeded"))
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
