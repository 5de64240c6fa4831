/// Running tasks (§4): starting them (launching or resuming the app), runtimes, expiration,
/// the grace period and completion; plus the public simulate-launch and simulate-expiration.
extension BackgroundSystem {
    /// Starts `request` for `id`: the app is woken if needed; the launch handler follows once it is ready.
    mutating func start(
        _ id: BundleID, _ request: TaskRequest, _ cause: RecordDetail.StartCause, simulated: Bool = false
    ) {
        let run = TaskRun(
            id: nextTaskID, app: id, request: request, startedAt: now, expiresAt: nil, expiredAt: nil,
            delivered: false)
        nextTaskID += 1
        apps[id].scheduling.start(run)
        reviewAgain(id)
        wakeForBackgroundWork(id, why: "to run \(request.identifier)")
        record(id, .started, task: request.identifier, .started(kind: request.kind, cause: cause))
        let wasAwake = isDeviceAwake
        scheduler.noteTaskStarted(apps.position(of: id), onCellular: device.network == .cellular)
        noteRunStarted(id, run, simulated: simulated, deviceWasAwake: wasAwake)
    }

    /// Hands waiting tasks to the app once it has finished launching and no callback is in flight
    /// (`AppScheduling.deliverWaitingRuns`).
    mutating func deliverReadyTasks(_ id: BundleID) {
        guard apps[id].hasUndeliveredTask, apps[id].isReadyForWork else { return }
        let registered = apps[id].registered
        carryOut(apps[id].scheduling.deliverWaitingRuns(registered: registered, at: now, policy: policy), for: id)
    }

    /// Carries out the actions of the app's task runs in their order.
    mutating func carryOut(_ actions: [SchedulingAction], for id: BundleID) {
        for action in actions {
            switch action {
            case .startTask(let run): emit(.startTask(id, run))
            case .expire(let taskID, let cause): expire(id, taskID, cause)
            case .end(let reason): endProcess(id, reason)
            }
        }
    }

    /// Calls the task's expiration handler; the app then has the grace period to complete it.
    mutating func expire(_ id: BundleID, _ taskID: Int, _ why: RecordDetail.Expiration) {
        guard apps.contains(id), let run = apps[id].scheduling.expire(taskID, at: now) else { return }
        reviewAgain(id)
        record(id, .expired, task: run.request.identifier, .expired(cause: why))
        emit(.expireTask(id, taskID: taskID))
    }

    mutating func completeTask(_ id: BundleID, taskID: Int, success: Bool) {
        guard let run = apps[id].scheduling.end(taskID) else {
            return record(id, .log, reason: "setTaskCompleted for a task that is not running (\(taskID)): ignored")
        }
        // The last task's time covered the app: its own background time for assertions starts now.
        if apps[id].backgroundSince != nil, !apps[id].backgroundTimeCoveredByTask {
            apps[id].lifecycle.startBackgroundTime(at: now)
        }
        let seconds = now - run.startedAt
        record(id, .completed, task: run.request.identifier, .completed(success: success, seconds: seconds))
        noteRunEnded(id, run, outcome: TaskOutcome(completing: run, at: now, policy: policy), success: success)
        if run.request.kind == .continuedProcessing {
            handleMonitors(.continuedTaskCompleted(run, success: success))
            startQueuedContinuedTasks()
        }
    }

    /// A task ended: one fewer running; when it gave back to the budgets what it did not use, the apps waiting
    /// for room in them are reviewed.
    mutating func noteTaskEnded(refillingBudgets: Bool) {
        scheduler.noteTaskEnded()
        if refillingBudgets { scheduler.noteBudgetsRefilled() }
    }

    /// Starts queued continued-processing requests, oldest first, while the scheduler finds room for them
    /// (`Scheduler.takeQueuedContinued`).
    mutating func startQueuedContinuedTasks() {
        while let next = scheduler.takeQueuedContinued(running: continuedRuns.count, policy: policy) {
            start(next.app, next.request, .roomInQueue)
        }
    }

    /// The app's process ended: its queued continued-processing work belongs to the user's action in that process
    /// and ends with it; if it had such a task running, queued ones of other apps may start in its place.
    mutating func dropQueuedContinuedTasks(of id: BundleID, hadRunning: Bool) {
        for request in scheduler.removeQueuedContinued(of: id, where: { _ in true }) {
            record(id, .cancelled, task: request.identifier, reason: "the app's process ended")
        }
        if hadRunning { startQueuedContinuedTasks() }
    }

    // MARK: Debugging

    /// Apple's `_simulateLaunchForTaskWithIdentifier:`: starts a pending request now, whatever blocks it.
    mutating func simulateLaunch(_ id: BundleID, identifier: String) {
        guard let app = apps.lookUp(id) else { return }
        if let request = app.pending.first(where: { $0.identifier == identifier }) {
            record(id, .log, task: identifier, reason: "Simulating launch for task with identifier \(identifier)")
            start(id, request, .simulatedLaunch, simulated: true)
        } else if let queued = scheduler.removeQueuedContinued(of: id, where: { $0.identifier == identifier }).first {
            record(id, .log, task: identifier, reason: "Simulating launch for task with identifier \(identifier)")
            start(id, queued, .simulatedLaunch, simulated: true)
        } else {
            record(
                id, .log, task: identifier, reason: "No task request with identifier \(identifier) has been scheduled")
        }
    }

    /// Apple's `_simulateExpirationForTaskWithIdentifier:`: carries out `AppScheduling.simulatedExpiration`.
    mutating func simulateExpiration(_ id: BundleID, identifier: String) {
        let actions = apps.lookUp(id)?.scheduling.simulatedExpiration(of: identifier) ?? []
        if actions.isEmpty {
            return record(id, .log, task: identifier, reason: "No running task with identifier \(identifier) to expire")
        }
        carryOut(actions, for: id)
    }
}
