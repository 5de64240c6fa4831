/// The routing to §7 (`AppBackgroundEvents`): background pushes, legacy fetch, location events and background
/// sessions' events. Each entry hands the app's events what they read (its manifest, whether it is on screen or
/// ending, the constraints' blockers) and carries out the actions they return: records, wakes, effects, kills.
extension BackgroundSystem {
    /// Brings §7 up to date after every entry point: deadlines that fell due, a held push that may go, a fetch
    /// that is due, and events ready to hand to an app that has finished launching (after its callbacks).
    mutating func settleBackgroundWork(_ id: BundleID) {
        guard apps[id].hasBackgroundEventWork else {  // nothing of §7's: only callbacks may wait
            pumpCallbacks(id)
            return appsHandlingWakeEvents.remove(apps.position(of: id))
        }
        let onScreen = foregroundApp == id  // a late handler is killed only off screen, so this holds throughout
        if apps[id].state.hasProcess {
            carryOut(
                apps[id].backgroundEvents.endOverdueDeliveries(at: now, onScreen: onScreen, policy: policy), for: id)
        }
        let (pushBlockers, ending) = (blockers(of: id, .heldPush), apps[id].isTerminating)
        carryOut(
            apps[id].backgroundEvents.releaseHeldPush(
                blockedBy: pushBlockers, at: now, onScreen: onScreen, processEnding: ending, policy: policy),
            for: id)
        let (fetchBlockers, endingNow) = (blockers(of: id, .fetch), apps[id].isTerminating)
        carryOut(
            apps[id].backgroundEvents.startFetchIfDue(blockedBy: fetchBlockers, processEnding: endingNow), for: id)
        pumpCallbacks(id)
        if apps[id].isReadyForWork {
            carryOut(apps[id].backgroundEvents.handOverWaiting(at: now, policy: policy), for: id)
        }
        if !apps[id].isHandlingWakeEvent { appsHandlingWakeEvents.remove(apps.position(of: id)) }
    }

    /// Notes the instants at which §7 has something to do without a new event: completion-handler
    /// deadlines, location windows, the end of a push rate-limit window, the next fetch.
    func noteBackgroundWorkDeadlines(of id: BundleID, in next: inout EarliestAfter) {
        guard apps[id].hasBackgroundEventWork else { return }
        apps[id].backgroundEvents.noteDeliveryDeadlines(in: &next)
        next.note(blockers(of: id, .heldPush).earliestEligibility)
        next.note(blockers(of: id, .fetch).earliestEligibility)
    }

    /// Everything that holds the app's held push or next fetch back now: the events' own rules, and the
    /// constraints, which judge a push or fetch as an app-refresh request with the identifier `<bundle>.<label>`.
    func blockers(of id: BundleID, _ event: AppBackgroundEvents.WaitingEvent) -> [Blocker] {
        let app = apps[id]
        let constraintBlockers = {
            let probe = TaskRequest(identifier: "\(id).\(event.label)", kind: .appRefresh)
            return constraints.blockers(
                for: probe, as: event == .heldPush ? .backgroundPush : .backgroundFetch, in: context(for: id))
        }
        switch event {
        case .heldPush:
            return app.backgroundEvents.pushBlockers(
                at: now, onScreen: foregroundApp == id, policy: policy, constraintBlockers: constraintBlockers)
        case .fetch:
            return app.backgroundEvents.fetchBlockers(
                at: now, manifest: app.manifest, policy: policy, constraintBlockers: constraintBlockers)
        }
    }

    /// A background push or a location event from the host: one for an app not installed is the host's mistake
    /// (recorded and dropped); else the app's events take it.
    mutating func receiveBackgroundEvent(_ event: BackgroundEvent, for id: BundleID) {
        guard let app = apps.lookUp(id) else {
            let what = if case .location = event { "location event" } else { "background push" }
            return record(nil, .log, reason: "\(what) for \(id), which is not installed: dropped")
        }
        let (manifest, forceQuit) = (app.manifest, app.forceQuit)
        carryOut(apps[id].backgroundEvents.receive(event, at: now, manifest: manifest, forceQuit: forceQuit), for: id)
    }

    /// Starts delivering `event` to `id`: the app is launched or resumed; the event follows once it is ready.
    /// A push or fetch for a sleeping device wakes it, as a task run does: a maintenance wake, and the device
    /// stays awake while the app handles it.
    mutating func beginDelivery(_ id: BundleID, _ event: BackgroundEvent, why: String) {
        let token = nextToken
        nextToken += 1
        let wasAwake = isDeviceAwake
        let launchesForIt = apps[id].projectedState == .notRunning
        apps[id].backgroundEvents.beginDelivery(event, token: token)
        reviewAgain(id)
        if event.wakesDevice {
            appsHandlingWakeEvents.insert(apps.position(of: id))
            if !wasAwake { noteMaintenanceWake(for: id, task: event.label) }
        }
        wakeForBackgroundWork(id, why: why)
        if launchesForIt { apps[id].lifecycle.noteLaunchEvent(event) }
    }

    /// Carries out the actions of the app's events in their order; the answer to the app's call is a crash when
    /// one of them crashes the app, else `.ok`.
    @discardableResult
    mutating func carryOut(_ actions: [BackgroundEventAction], for id: BundleID) -> AppCallResult {
        var result = AppCallResult.ok
        for action in actions {
            switch action {
            case .note(let kind, let task, let words): record(id, kind, task: task, reason: words)
            case .fact(let kind, let task, let detail): record(id, kind, task: task, detail)
            case .countDiscretionaryLaunch: noteDiscretionaryStart(id)
            case .deliver(let event, let why): beginDelivery(id, event, why: why)
            case .handOver(let event, let token): emit(.deliverBackgroundEvent(id, event, token: token))
            case .kill(let words): endProcess(id, .watchdog(words))
            case .crash(let message): result = crash(id, message)
            }
        }
        return result
    }

    /// Every held background push, with every reason it waits: the push counterpart of `explain()`.
    public func heldPushes() -> [HeldPushStatus] {
        installed.compactMap { id in
            guard let held = apps[id].backgroundEvents.heldPush else { return nil }
            return HeldPushStatus(
                app: id, payload: held.payload, arrivedAt: held.arrivedAt, blockers: blockers(of: id, .heldPush))
        }
    }

    /// Every app that asked for background fetches, with its schedule and every reason the next fetch waits.
    public func backgroundFetches() -> [BackgroundFetchStatus] {
        installed.compactMap { id in
            apps[id].backgroundEvents.fetchStatus(of: id, blockers: blockers(of: id, .fetch), policy: policy)
        }
    }
}

extension Policy {
    /// The time an app gets for a §7 event: to call the completion handler, or to run after a location event.
    func allowance(for event: BackgroundEvent) -> Double {
        switch event {
        case .remoteNotification: backgroundPushRuntime
        case .fetch: backgroundFetchRuntime
        case .location: locationEventRuntime
        case .urlSessionEvents: backgroundSessionEventsRuntime
        }
    }
}
