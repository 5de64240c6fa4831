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
        switch projectedState {
        case .notRunning: launchProcess(id, .user, purpose: "the user opened the app")
        case .suspended:
            resumeProcess(id, then: [.willEnterForeground, .didBecomeActive], why: "the user opened the app")
        case .background: apps[id].queuedCallbacks += [.willEnterForeground, .didBecomeActive]
        case .inactive: apps[id].queuedCallbacks += [.didBecomeActive]
        case .active: break
        }
        foregroundApp = id
    }

    /// Moves the foreground app off screen: `willResignActive` (if active) then `didEnterBackground`.
    mutating func sendToBackground(_ id: BundleID) {
        guard apps.contains(id) else { return }
        switch apps[id].projectedState {
        case .active: apps[id].queuedCallbacks += [.willResignActive, .didEnterBackground]
        case .inactive: apps[id].queuedCallbacks += [.didEnterBackground]
        default: break
        }
        apps[id].usage.left(at: now)
        if foregroundApp == id { foregroundApp = nil }
    }

    /// Moves the foreground app from active to inactive (an interruption or the app switcher).
    mutating func resignActive(_ id: BundleID) {
        guard apps.contains(id), apps[id].projectedState == .active else { return }
        apps[id].queuedCallbacks.append(.willResignActive)
    }

    /// Launches the app in the background (for a task) or resumes it if suspended.
    mutating func wakeForBackgroundWork(_ id: BundleID, why: String) {
        switch apps.lookUp(id)?.projectedState {
        case .notRunning: launchProcess(id, .backgroundTask, purpose: why)
        // Resumed for an event: `didEnterBackground` first, then the event ("About the background execution sequence").
        case .suspended: resumeProcess(id, then: [.didEnterBackground], why: why)
        default: break
        }
    }

    /// Starts the process: the launch callbacks, then active (user) or background (background task).
    mutating func launchProcess(_ id: BundleID, _ reason: LaunchReason, purpose: String) {
        apps[id].launchReason = reason
        let last: LifecycleCallback = reason == .user ? .didBecomeActive : .didEnterBackground
        apps[id].queuedCallbacks = [.willFinishLaunching, .didFinishLaunching, last]
        emit(.launch(id, reason))
        record(id, .launched, .launched(reason: reason, purpose: purpose))
    }

    /// Thaws a suspended process, which then receives `callbacks`; its background time starts anew.
    mutating func resumeProcess(_ id: BundleID, then callbacks: [LifecycleCallback], why: String) {
        apps[id].state = .background
        apps[id].startBackgroundTime(at: now)
        apps[id].queuedCallbacks += callbacks
        emit(.resume(id))
        record(id, .resumed, reason: why)
    }

    /// Delivers the next queued callback if none is in flight.
    mutating func pumpCallbacks(_ id: BundleID) {
        guard apps.contains(id), apps[id].hasCallbackToDeliver else { return }
        let callback = apps[id].queuedCallbacks.removeFirst()
        let before = apps[id].state
        switch callback {
        case .willFinishLaunching:
            apps[id].state = apps[id].launchReason == .user ? .inactive : .background
            if apps[id].state == .background { apps[id].startBackgroundTime(at: now) }
        case .didEnterBackground:
            apps[id].state = .background
            apps[id].startBackgroundTime(at: now)
        case .willEnterForeground:
            apps[id].state = .inactive
            apps[id].backgroundSince = nil
            apps[id].assertionsWarned = false
        default:
            if let state = callback.stateDuring { apps[id].state = state }
        }
        let token = nextToken
        nextToken += 1
        let deadline = policy.watchdogTimeout(for: callback).map { now + $0 }
        apps[id].inFlight = (token, callback, deadline)
        let after = apps[id].state
        if before != after { record(id, .state, .stateChanged(from: before, to: after)) }
        record(id, .callback, reason: callback.rawValue)
        emit(.deliver(id, callback, token: token))
    }

    /// The app's delegate returned from the callback with `token`.
    mutating func callbackReturned(_ id: BundleID, token: Int) {
        guard apps.contains(id), let inFlight = apps[id].inFlight, inFlight.token == token else { return }
        apps[id].inFlight = nil
        if inFlight.callback == .didFinishLaunching { apps[id].launchCompleted = true }
        if inFlight.callback == .willTerminate, let reason = apps[id].terminating {
            endProcess(id, reason)
        }
    }

    /// Ends the app: running apps asked by the user or by jetsam get `willTerminate`; others end at once.
    mutating func terminate(_ id: BundleID, _ reason: TerminationReason) {
        guard apps.contains(id), apps[id].state.hasProcess, !apps[id].isTerminating else { return }
        let politeEnd = reason == .userForceQuit || reason == .memoryPressure
        if politeEnd && apps[id].state != .suspended {
            apps[id].terminating = reason
            apps[id].queuedCallbacks = [.willTerminate]
            apps[id].usage.left(at: now)
            if foregroundApp == id { foregroundApp = nil }
            pumpCallbacks(id)
        } else {
            endProcess(id, reason)
        }
    }

    /// Removes the process now: no callback; its running tasks and queued continued requests die with it.
    mutating func endProcess(_ id: BundleID, _ reason: TerminationReason) {
        guard apps.contains(id), apps[id].state.hasProcess else { return }
        let running = apps[id].running
        for run in running {
            record(id, .killed, task: run.request.identifier, .killed(reason: reason))
        }
        let hadContinued = running.contains { $0.request.kind == .continuedProcessing }
        let before = apps[id].state
        apps[id].usage.left(at: now)
        for run in running { finishRun(id, run, ending: reason) }
        apps[id].clearProcess()
        if foregroundApp == id { foregroundApp = nil }
        if appUnderLock == id { appUnderLock = nil }
        if case .exited = reason {} else { emit(.terminate(id, reason)) }
        if case .crash = reason {
            record(id, .crashed, reason: "\(reason)")
        }
        record(id, .terminated, .terminated(from: before, reason: reason))
        // Queued continued-processing work belongs to the user's action in this process: it ends with it.
        for entry in continuedQueue where entry.app == id {
            record(id, .cancelled, task: entry.request.identifier, reason: "the app's process ended")
        }
        continuedQueue.removeAll { $0.app == id }
        if hadContinued { startQueuedContinuedTasks() }
        discardHeldPush(id, because: "the app was terminated (\(reason))")
    }

    /// Suspends the app if it is in the background with no outstanding work: iOS's default off screen.
    mutating func suspendIfIdle(_ id: BundleID) {
        guard apps.contains(id), apps[id].state == .background, apps[id].hasNoBackgroundWork else { return }
        apps[id].state = .suspended
        apps[id].backgroundSince = nil
        emit(.suspend(id))
        record(id, .suspended, .suspendedWithoutWork)
    }

    /// Jetsam: kills suspended apps (least recently used, largest first), then background apps,
    /// never the foreground app, until `bytes` are freed.
    mutating func relieveMemoryPressure(bytes: Int) {
        func order(_ state: (AppState) -> Bool) -> [BundleID] {
            installed.filter { id in id != foregroundApp && state(apps[id].state) }
                .sorted { a, b in
                    let (x, y) = (apps[a], apps[b])
                    if x.lastUsed != y.lastUsed { return x.lastUsed < y.lastUsed }
                    return x.memoryFootprint > y.memoryFootprint
                }
        }
        let victims = order { $0 == .suspended } + order { $0 == .background || $0 == .inactive }
        var freed = 0
        for id in victims where freed < bytes {
            freed += apps[id].memoryFootprint
            terminate(id, .memoryPressure)
        }
        if freed < bytes {
            record(
                nil, .log,
                reason: "memory pressure: freed \(freed) of \(bytes) bytes; the foreground app is never killed")
        }
    }
}
