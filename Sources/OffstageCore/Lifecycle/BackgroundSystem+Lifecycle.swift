/// The life cycle of §2: launches, the foreground/background moves, callbacks in iOS's order,
/// their deadlines, suspension, termination and jetsam.
extension BackgroundSystem {
    /// Puts `id` on screen, sending the current foreground app away first.
    mutating func bringToForeground(_ id: BundleID) {
        precondition(apps.contains(id), "\(id) brought to the foreground is not installed")
        let isExtension = apps[id].manifest.isExtension
        if let current = foregroundApp, current != id { sendToBackground(current) }
        apps[id].forceQuit = false
        if foregroundApp != id { noteLaunchByUser(id) }
        reviewAgain(id)
        carryOut(apps[id].lifecycle.open(asExtension: isExtension, at: now), for: id)
        foregroundApp = id
    }

    /// Moves the foreground app off screen: `willResignActive` (if active) then `didEnterBackground`.
    mutating func sendToBackground(_ id: BundleID) {
        precondition(apps.contains(id), "\(id) sent to the background is not installed")
        reviewAgain(id)
        switch apps[id].projectedState {
        case .active: apps[id].lifecycle.queue([.willResignActive, .didEnterBackground])
        case .inactive: apps[id].lifecycle.queue([.didEnterBackground])
        default: break
        }
        apps[id].judgementHistory.noteLeft(at: now)
        if foregroundApp == id { foregroundApp = nil }
    }

    /// Launches the app in the background (for a task or an event, `why`) or resumes it if suspended.
    mutating func wakeForBackgroundWork(_ id: BundleID, why: @autoclosure () -> String) {
        let (resumeCallback, isExtension) = (device.resumeCallback, apps[id].manifest.isExtension)
        carryOut(
            apps[id].lifecycle.wake(for: why(), resumeCallback: resumeCallback, asExtension: isExtension, at: now),
            for: id)
    }

    /// Delivers the next queued callback if none is in flight; an app extension's moves, which no code hears,
    /// change its state and pass at once.
    mutating func pumpCallbacks(_ id: BundleID) {
        precondition(apps.contains(id), "callbacks of \(id), which is not installed")
        while apps[id].hasCallbackToDeliver {
            let before = apps[id].state
            let token = nextToken
            nextToken += 1
            let callback = apps[id].lifecycle.deliverNextCallback(token: token, at: now, policy: policy)
            let after = apps[id].state
            if before != after {
                reviewAgain(id)
                record(id, .state, .stateChanged(from: before, to: after))
            }
            let manifest = apps[id].manifest
            guard let receiver = apps[id].lifecycle.receiver(of: callback, manifest: manifest) else {
                carryOut(apps[id].lifecycle.callbackReturned(token: token), for: id)
                continue
            }
            record(id, .callback, .callback(callback, receiver: receiver))
            emit(.deliver(id, callback, token: token))
            return
        }
    }

    /// Ends the app: running apps asked by the user or by jetsam get `willTerminate`; others end at once.
    mutating func terminate(_ id: BundleID, _ reason: TerminationReason) {
        precondition(apps.contains(id), "\(id) to terminate is not installed")
        guard apps[id].state.hasProcess, !apps[id].isTerminating else { return }
        let politeEnd = reason == .userForceQuit || reason == .memoryPressure
        reviewAgain(id)
        if politeEnd && apps[id].state != .suspended {
            apps[id].lifecycle.beginTermination(reason)
            apps[id].judgementHistory.noteLeft(at: now)
            if foregroundApp == id { foregroundApp = nil }
            pumpCallbacks(id)
        } else {
            endProcess(id, reason)
        }
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
        for run in running { finishRun(id, run, ending: reason) }
        apps[id].clearProcess()
        forgetReportedWork(of: id)
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

    /// Suspends the app if it is in the background with no outstanding work: iOS's default off screen.
    mutating func suspendIfIdle(_ id: BundleID) {
        guard apps[id].state == .background, apps[id].hasNoBackgroundWork else { return }
        apps[id].lifecycle.suspend()
        reviewAgain(id)
        emit(.suspend(id))
        record(id, .suspended, .suspendedWithoutWork)
    }

    /// Jetsam: kills suspended apps, then background apps, never the foreground app, until `bytes` are freed.
    /// Within each group the least recently used goes first (the largest on a tie), except that when one app's
    /// footprint alone frees what is still needed, the least recently used such app goes instead, and no other:
    /// a 20 MB app is not killed beside the 300 MB one that frees enough alone (ours: Apple documents no rule
    /// beyond "suspended apps first").
    mutating func relieveMemoryPressure(bytes: Int) {
        func order(_ state: (AppState) -> Bool) -> [BundleID] {
            installed.filter { id in id != foregroundApp && state(apps[id].state) }
                .sorted { a, b in
                    let (x, y) = (apps[a], apps[b])
                    if x.lastUsed != y.lastUsed { return x.lastUsed < y.lastUsed }
                    return x.memoryFootprint > y.memoryFootprint
                }
        }
        var freed = 0
        for var group in [order { $0 == .suspended }, order { $0 == .background || $0 == .inactive }] {
            while freed < bytes, !group.isEmpty {
                let needed = bytes - freed
                let index = group.firstIndex { apps[$0].memoryFootprint >= needed } ?? 0
                let victim = group.remove(at: index)
                freed += apps[victim].memoryFootprint
                terminate(victim, .memoryPressure)
            }
        }
        if freed < bytes {
            record(
                nil, .log,
                reason: "memory pressure: freed \(freed) of \(bytes) bytes; the foreground app is never killed")
        }
    }
}
