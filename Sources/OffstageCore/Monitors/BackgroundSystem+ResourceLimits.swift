/// Resource limits for apps off screen (SPEC §5 "Resources"): the CPU monitor kills a background app that
/// uses more than 80 % of a core averaged over 60 s, and the memory limit kills an app that runs in the
/// background above 50 MB. Jetsam, which frees memory on demand, lives with the life cycle.
extension BackgroundSystem {
    // MARK: CPU monitor

    /// Kills the app the CPU monitor found over the limit, with the monitor's words for it.
    mutating func killForCPU(_ id: BundleID, _ exceeded: Monitors.CPULimitExceeded) {
        let seconds = Int(policy.backgroundCPUWindow)
        let reason =
            "cpu usage: \(oneDecimal(exceeded.cpuSeconds)) seconds cpu time over \(seconds) seconds "
            + "(\(percent(exceeded.average))% cpu average), exceeding limit of \(percent(policy.backgroundCPULimit))% cpu "
            + "over \(seconds) seconds"
        record(id, .resourceLimit, reason: reason)
        terminate(id, .resourceLimit("cpu resource limit exceeded"))
    }

    /// When the monitor next judges the app's work in progress: every sixth of a window after its first judgement
    /// while it lasts (ours: iOS measures continuously). Nil when no work faster than the limit runs off screen.
    func cpuLimitDue(of id: BundleID) -> Instant? {
        guard let first = firstCPUJudgement(of: id) else { return nil }
        return first > now ? first : now + policy.backgroundCPUWindow / 6
    }

    /// The first time the monitor judges the app's work in progress, while it watches the app in the background.
    private func firstCPUJudgement(of id: BundleID) -> Instant? {
        guard let since = apps[id].backgroundSince, cpuMonitorWatches(id) else { return nil }
        return monitors.firstCPUJudgement(at: apps.position(of: id), backgroundSince: since, now: now, policy: policy)
    }

    /// Judges the app's work in progress once it is due: over the limit, the app is killed; whether it was.
    mutating func fireCPULimit(_ id: BundleID) -> Bool {
        guard let first = firstCPUJudgement(of: id), first <= now,
            let exceeded = monitors.judgeCPUWork(at: apps.position(of: id), now: now, policy: policy)
        else { return false }
        killForCPU(id, exceeded)
        return true
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
            if monitors.keepsCPUWindow(at: position) && !cpuMonitorWatches(apps.id(at: position)) {
                monitors.forgetCPUWindow(at: position)
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
            let app = apps[id]
            guard app.state == .background, id != foregroundApp, app.terminating == nil,
                app.inFlight == nil, app.queuedCallbacks.isEmpty, app.memoryFootprint > policy.backgroundMemoryLimit
            else { continue }
            let reason =
                "memory: \(megabytes(app.memoryFootprint)) MB in the background, "
                + "exceeding limit of \(megabytes(policy.backgroundMemoryLimit)) MB"
            record(id, .resourceLimit, reason: reason)
            terminate(id, .resourceLimit("memory resource limit exceeded"))
        }
    }
}

/// A share as whole percent, as the CPU limit's kill message writes it ("80% cpu").
private func percent(_ fraction: Double) -> Int { Int((fraction * 100).rounded()) }

/// Bytes as megabytes with one decimal, as the memory limit's record writes them.
private func megabytes(_ bytes: Int) -> String { oneDecimal(Double(bytes) / 1_000_000) }
