/// The life cycle of §2 as the system routes it: the foreground/background moves, wakes for background work,
/// callback delivery and the end of a process. The rules are `AppLifecycle`'s; its actions are carried out here.
extension BackgroundSystem {
    /// Puts `id` on screen, sending the current foreground app away first.
    mutating func bringToForeground(_ id: BundleID) {
        precondition(apps.contains(id), "\(id) brought to the foreground is not installed")
        let isExtension = apps[id].manifest.isExtension
        if let current = foregroundApp, current != id { carryOut(apps[current].lifecycle.leaveScreen(), for: current) }
        apps[id].forceQuit = false
        if foregroundApp != id { noteLaunchByUser(id) }
        reviewAgain(id)
        carryOut(apps[id].lifecycle.open(asExtension: isExtension, at: now), for: id)
        foregroundApp = id
    }

    /// Launches the app in the background (for a task or an event, `why`) or resumes it if suspended.
    mutating func wakeForBackgroundWork(_ id: BundleID, why: @autoclosure () -> String) {
        let (resumeCallback, isExtension) = (device.resumeCallback, apps[id].manifest.isExtension)
        carryOut(
            apps[id].lifecycle.wake(for: why(), resumeCallback: resumeCallback, asExtension: isExtension, at: now),
            for: id)
    }

    /// Delivers the app's queued callbacks (`AppLifecycle.deliverCallbacks`), each answered by a token of its own.
    mutating func pumpCallbacks(_ id: BundleID) {
        precondition(apps.contains(id), "callbacks of \(id), which is not installed")
        guard apps[id].hasCallbackToDeliver else { return }
        let manifest = apps[id].manifest
        let actions = apps[id].lifecycle.deliverCallbacks(
            tokens: &nextToken, manifest: manifest, at: now, policy: policy)
        carryOut(actions, for: id)
    }

    /// Removes the process now: no callback; its running tasks and queued continued requests die with it.
    mutating func endProcess(_ id: BundleID, _ reason: TerminationReason) {
        precondition(apps.contains(id), "the process of \(id), which is not installed")
        guard apps[id].state.hasProcess else { return }
        reviewAgain(id)
        let running = apps[id].running
        for run in running {
            record(id, .killed, task: run.request.identifier, .killed(reason: reason))
        }
        let hadContinued = running.contains { $0.request.kind == .continuedProcessing }
        let before = apps[id].state
        apps[id].judgementHistory.noteLeft(at: now)
        for run in running {
            noteRunEnded(
                id, run, outcome: TaskOutcome(ending: run, because: reason, at: now, policy: policy), success: false)
        }
        apps[id].clearProcess()
        handleMonitors(.processEnded(id))
        if foregroundApp == id { foregroundApp = nil }
        if appUnderLock == id { appUnderLock = nil }
        if case .exited = reason {} else { emit(.terminate(id, reason)) }
        if case .crash = reason {
            record(id, .crashed, reason: "\(reason)")
        }
        record(id, .terminated, .terminated(from: before, reason: reason))
        dropQueuedContinuedTasks(of: id, hadRunning: hadContinued)
        carryOut(apps[id].backgroundEvents.discardHeldPush(because: "the app was terminated (\(reason))"), for: id)
    }
}
