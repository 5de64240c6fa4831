/// The life cycle of §2: launches, the foreground/background moves, callbacks in iOS's order,
/// their deadlines, suspension, termination and jetsam.
extension BackgroundSystem {
    /// Puts `id` on screen, sending the current foreground app away first.
    mutating func bringToForeground(_ id: BundleID) {
        guard apps.contains(id) else { return }
        let projectedState = apps[id].projectedState
        if let current = foregroundApp, current != id { sendToBackground(current) }
        apps[id].forceQuit = false
        if foregroundApp != id { noteLaunchByUser(id) }
        reviewAgain(id)
        switch projectedState {
        case .notRunning: launchProcess(id, .user, purpose: "the user opened the app")
        case .suspended:
            resumeProcess(id, then: [.willEnterForeground, .didBecomeActive], why: "the user opened the app")
        case .background: apps[id].lifecycle.queue([.willEnterForeground, .didBecomeActive])
        case .inactive: apps[id].lifecycle.queue([.didBecomeActive])
        case .active: break
        }
        foregroundApp = id
    }

    /// Moves the foreground app off screen: `willResignActive` (if active) then `didEnterBackground`.
    mutating func sendToBackground(_ id: BundleID) {
        guard apps.contains(id) else { return }
        reviewAgain(id)
        switch apps[id].projectedState {
        case .active: apps[id].lifecycle.queue([.willResignActive, .didEnterBackground])
        case .inactive: apps[id].lifecycle.queue([.didEnterBackground])
        default: break
        }
        apps[id].judgementHistory.noteLeft(at: now)
        if foregroundApp == id { foregroundApp = nil }
    }

    /// Moves the foreground app from active to inactive (an interruption or the app switcher).
    mutating func resignActive(_ id: BundleID) {
        guard apps.contains(id), apps[id].projectedState == .active else { return }
        apps[id].lifecycle.queue([.willResignActive])
        reviewAgain(id)
    }

    /// Launches the app in the background (for a task) or resumes it if suspended.
    mutating func wakeForBackgroundWork(_ id: BundleID, why: @autoclosure () -> String) {
        switch apps.lookUp(id)?.projectedState {
        case .notRunning: launchProcess(id, .backgroundTask, purpose: why())
        // Resumed for an event: `didEnterBackground` first, then the event ("About the background execution
        // sequence"), unless the device is set to resume with no callback (`DeviceState.resumeCallback`).
        case .suspended:
            resumeProcess(
                id, then: device.resumeCallback == .didEnterBackground ? [.didEnterBackground] : [], why: why())
        default: break
        }
    }

    /// Starts the process: the launch callbacks, then active (user) or background (background task).
    mutating func launchProcess(_ id: BundleID, _ reason: LaunchReason, purpose: @autoclosure () -> String) {
        apps[id].lifecycle.launch(reason, asExtension: apps[id].manifest.isExtension)
        reviewAgain(id)
        emit(.launch(id, reason))
        record(id, .launched, .launched(reason: reason, purpose: purpose()))
    }

    /// Thaws a suspended process, which then receives `callbacks`; its background time starts anew.
    mutating func resumeProcess(
        _ id: BundleID, then callbacks: [LifecycleCallback], why: @autoclosure () -> String
    ) {
        apps[id].lifecycle.resume(at: now, then: callbacks)
        reviewAgain(id)
        emit(.resume(id))
        record(id, .resumed, reason: why())
    }

    /// Delivers the next queued callback if none is in flight; an app extension's moves, which no code hears,
    /// change its state and pass at once.
    mutating func pumpCallbacks(_ id: BundleID) {
        while apps.contains(id), apps[id].hasCallbackToDeliver {
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
                callbackReturned(id, token: token)
                continue
            }
            record(id, .callback, .callback(callback, receiver: receiver))
            emit(.deliver(id, callback, token: token))
            return
        }
    }

    /// The app's delegate returned from the callback with `token`.
    mutating func callbackReturned(_ id: BundleID, token: Int) {
        guard apps.contains(id), let callback = apps[id].lifecycle.callbackReturned(token: token) else { return }
        if callback == .willTerminate, let reason = apps[id].terminating {
            endProcess(id, reason)
        }
    }

    /// Ends the app: running apps asked by the user or by jetsam get `willTerminate`; others end at once.
    mutating func terminate(_ id: BundleID, _ reason: TerminationReason) {
        guard apps.contains(id), apps[id].state.hasProcess, !apps[id].isTerminating else { return }
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
        guard apps.contains(id), apps[id].state.hasProcess else { return }
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
