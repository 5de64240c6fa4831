/// §7's deliveries, shared by background pushes, legacy fetch, location events and background sessions' events:
/// the pass `settle()` runs for them, their deadlines, and the app calls that answer them. The state is each app's
/// `AppBackgroundEvents`; this side connects it to the life cycle, the records and the effects.
extension BackgroundSystem {
    /// Brings §7 up to date after every entry point: deadlines that fell due, held pushes that may go,
    /// fetches that are due, and events ready to hand to apps that have finished launching.
    mutating func settleBackgroundWork(_ id: BundleID) {
        guard apps[id].hasBackgroundEventWork else {  // nothing of §7's: only callbacks may wait
            pumpCallbacks(id)
            return appsHandlingWakeEvents.remove(apps.position(of: id))
        }
        fireDeliveryDeadlines(id)
        deliverHeldPushIfAllowed(id)
        startFetchIfDue(id)
        pumpCallbacks(id)
        handOverDeliveries(id)
        if !apps[id].isHandlingWakeEvent { appsHandlingWakeEvents.remove(apps.position(of: id)) }
    }

    /// Notes the instants at which §7 has something to do without a new event: completion-handler
    /// deadlines, location windows, the end of a push rate-limit window, the next fetch.
    func noteBackgroundWorkDeadlines(of id: BundleID, in next: inout EarliestAfter) {
        guard apps[id].hasBackgroundEventWork else { return }
        apps[id].backgroundEvents.noteDeliveryDeadlines(in: &next)
        next.note(pushBlockers(id).earliestEligibility)
        next.note(fetchBlockers(id).earliestEligibility)
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

    /// Hands waiting events to the app once it has finished launching and no callback is in flight,
    /// as tasks are handed over; each gets its deadline from the moment it reaches the app's code.
    private mutating func handOverDeliveries(_ id: BundleID) {
        guard apps[id].isReadyForWork else { return }
        for delivery in apps[id].backgroundEvents.handOverWaiting(at: now, policy: policy) {
            let limit = delivery.event.hasCompletionHandler ? "to call its completion handler" : "in the background"
            let reason = "\(delivery.event.method): \(Int(policy.allowance(for: delivery.event))) s \(limit)"
            record(id, .delivered, task: delivery.event.label, reason: reason)
            emit(.deliverBackgroundEvent(id, delivery.event, token: delivery.token))
        }
    }

    /// Ends deliveries whose time is up: a location window simply closes; a push or fetch whose completion
    /// handler was not called gets the app killed (unless it is on screen, where it is only forgotten).
    private mutating func fireDeliveryDeadlines(_ id: BundleID) {
        guard apps[id].state.hasProcess else { return }
        for delivery in apps[id].backgroundEvents.overdueDeliveries(at: now) {
            let seconds = Int(policy.allowance(for: delivery.event))
            if delivery.event == .fetch { noteFetchEnded(id, result: nil, took: Double(seconds)) }
            guard delivery.event.killsWhenLate, foregroundApp != id else {
                apps[id].backgroundEvents.endDelivery(token: delivery.token)
                let why =
                    !delivery.event.hasCompletionHandler
                    ? "the \(seconds) s the location event gives the app are over"
                    : delivery.event.killsWhenLate
                        ? "completion handler not called within \(seconds) s; the app is on screen, so it is not killed"
                        : "completion handler not called within \(seconds) s: the system goes on without it"
                record(id, .handled, task: delivery.event.label, reason: why)
                continue
            }
            endProcess(
                id, .watchdog("\(delivery.event.method) did not call its completion handler within \(seconds) s"))
            return
        }
    }

    /// Answers the §7 app calls: completion handlers, the fetch interval, background modes, location monitoring.
    mutating func answerBackgroundWork(_ call: AppCall, from id: BundleID) -> AppCallResult {
        switch call {
        case .backgroundEventCompleted(let token, let result): completeDelivery(id, token: token, result: result)
        case .setMinimumBackgroundFetchInterval(let interval): setFetchInterval(id, interval)
        case .setBackgroundActivity(let mode, let active): setBackgroundActivity(id, mode, active: active)
        case .setSignificantLocationMonitoring(let on): setSignificantLocationMonitoring(id, on)
        case .setRegionMonitoring(let identifier, let on): setRegionMonitoring(id, identifier, on)
        case .allowBackgroundLocationUpdates: return allowBackgroundLocationUpdates(id)
        default: break
        }
        return .ok
    }

    /// The app called a push's or fetch's completion handler: the delivery ends, and a fetch is judged.
    private mutating func completeDelivery(_ id: BundleID, token: Int, result: BackgroundFetchResult) {
        guard let (event, deliveredAt) = apps[id].backgroundEvents.completeDelivery(token: token) else {
            return record(id, .log, reason: "completion handler called again or for no current event: ignored")
        }
        let took = now - deliveredAt
        record(id, .handled, task: event.label, .handlerCalled(result: result, seconds: took))
        if event == .fetch { noteFetchEnded(id, result: result, took: took) }
    }

    /// Records a deferral of a §7 event when the names of its blockers change, so only changes are logged.
    mutating func recordDeferral(
        _ id: BundleID, _ event: AppBackgroundEvents.WaitingEvent, _ label: String, _ blockers: [Blocker]
    ) {
        guard apps[id].backgroundEvents.noteBlockers(blockers.map(\.constraint), of: event), !blockers.isEmpty
        else { return }
        record(id, .deferred, task: label, .deferred(blockers: blockers))
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
