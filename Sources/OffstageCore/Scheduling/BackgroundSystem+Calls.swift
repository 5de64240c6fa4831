/// The app-facing calls of §3 and §4: registration, submission, cancellation and task completion, with iOS's
/// rules, error codes and crash messages (assertions and background time are in `Lifecycle/`).
extension BackgroundSystem {
    mutating func answer(_ call: AppCall, from id: BundleID) -> AppCallResult {
        switch call {
        case .register(let identifier):
            let manifest = apps[id].manifest
            let (registered, actions) = apps[id].lifecycle.registerLaunchHandler(identifier, manifest: manifest)
            let answer = carryOut(actions, for: id)
            return answer == .ok ? .registered(registered) : answer
        case .submit(let request):
            if let host = apps[id].manifest.hostApp { return submit(fromExtension: id, for: host, request) }
            return submit(id, request)
        case .cancel(let identifier):
            cancel(schedulingApp(of: id)) { $0.identifier == identifier }
            return .ok
        case .cancelAll:
            cancel(schedulingApp(of: id)) { _ in true }
            return .ok
        case .pendingRequests:
            return .pending(app(schedulingApp(of: id)).pendingRequests)
        case .beginBackgroundTask, .beginExpiringActivity, .endBackgroundTask, .backgroundTimeRemaining:
            return answerBackgroundTime(call, from: id)
        case .workBegan, .workEnded:
            handleMonitors(.workReport(call, of: id))
            return .ok
        case .applicationState:
            return .state(apps[id].state)
        case .backgroundRefreshStatus:
            return .refreshStatus(settings.backgroundRefreshStatus(for: id))
        case .supportedResources:
            return .resources(gpu: device.hasBackgroundGPU)
        case .setTaskCompleted(let taskID, let success):
            completeTask(id, taskID: taskID, success: success)
            return .ok
        case .updateTitle(let taskID, let title, let subtitle):
            let identifier = apps[id].scheduling.retitle(taskID, title: title, subtitle: subtitle)
            record(id, .log, task: identifier, reason: "title: \(title) — \(subtitle)")
            return .ok
        case .reportProgress(let taskID, let completed, let total):
            apps[id].scheduling.noteProgress(taskID, completed: completed, total: total)
            return .ok
        case .returned(let token):
            carryOut(apps[id].lifecycle.callbackReturned(token: token), for: id)
            return .ok
        case .simulateLaunch(let identifier):
            simulateLaunch(id, identifier: identifier)
            return .ok
        case .simulateExpiration(let identifier):
            simulateExpiration(id, identifier: identifier)
            return .ok
        case .backgroundEventCompleted, .setMinimumBackgroundFetchInterval, .setBackgroundActivity,
            .setSignificantLocationMonitoring, .setRegionMonitoring, .allowBackgroundLocationUpdates:
            let manifest = apps[id].manifest
            return carryOut(
                apps[id].backgroundEvents.answer(call, at: now, manifest: manifest, policy: policy), for: id)
        case .launchOptions:
            return .launchOptions(apps[id].launchOptions)
        case .startBackgroundTransfer(let request):
            handleTransfers(.start(request, from: id))
            return .ok
        case .cancelBackgroundTransfer(let session, let task):
            handleTransfers(.cancel(session: session, task: task, from: id))
            return .ok
        case .scheduleNotification(let schedule):
            handleNotifications(.schedule(schedule, from: id))
            return .ok
        case .removePendingNotifications(let identifiers):
            handleNotifications(.removePending(identifiers, from: id))
            return .ok
        }
    }

    /// Crashes the app with iOS's message: recorded, then the process ends.
    mutating func crash(_ id: BundleID, _ message: String) -> AppCallResult {
        endProcess(id, .crash(message))
        return .crash(message)
    }

    /// A submission from the app itself, or (`fromExtension`) from one of its extensions, whose process never
    /// registers the app's launch handlers.
    mutating func submit(_ id: BundleID, _ request: TaskRequest, fromExtension: Bool = false) -> AppCallResult {
        let name = request.identifier
        do {  // the record read in a scope of its own: a copy alive when the requests change is copied whole
            let app = apps[id]
            let (continuedProcessingOff, backgroundGPU) = (
                settings.continuedProcessingOff.contains(id), device.hasBackgroundGPU
            )
            if let problem = request.permissionProblem(
                in: app.manifest, continuedProcessingOff: continuedProcessingOff, backgroundGPU: backgroundGPU)
            {
                record(id, .rejected, task: name, reason: "notPermitted: \(problem)")
                return .failed(.notPermitted)
            }
            if request.isDiscretionary, settings.backgroundRefreshStatus(for: id) != .available {
                record(id, .rejected, task: name, reason: "unavailable: Background App Refresh is off")
                return .failed(.unavailable)
            }
            if !fromExtension, !app.registered.contains(name) {
                return crash(id, "No launch handler registered for task with identifier \(name)")
            }
        }
        if request.kind == .continuedProcessing {  // the scheduler's answer (`Scheduler.submitContinued`) carried out
            switch scheduler.submitContinued(
                request, of: id, fromForeground: apps[id].state.isForeground, running: continuedRuns.count,
                policy: policy)
            {
            case .startsNow:
                record(id, .submitted, task: name, .submitted(kind: request.kind, outcome: .startsNow))
                start(id, request, .userStarted)
                return .ok
            case .queued(let running):
                record(id, .submitted, task: name, .submitted(kind: request.kind, outcome: .queued(behind: running)))
                return .ok
            case .notFromForeground:  // the error code is ours
                record(
                    id, .rejected, task: name,
                    reason: "notPermitted: submitted from the background, not from a person's action")
                return .failed(.notPermitted)
            case .immediateRunIneligible(let running):
                record(
                    id, .rejected, task: name,
                    reason: "immediateRunIneligible: \(running) continued-processing tasks running")
                return .failed(.immediateRunIneligible)
            }
        }
        switch apps[id].scheduling.submitWithinLimit(request, policy: policy) {
        case .replacing:
            record(id, .replaced, task: name, .submitted(kind: request.kind, outcome: .replacing))
        case .pending:
            record(id, .submitted, task: name, .submitted(kind: request.kind, outcome: .pending))
        case .tooMany(let limit):
            record(
                id, .rejected, task: name,
                reason: "tooManyPendingTaskRequests: \(limit) \(request.kind.rawValue) pending")
            return .failed(.tooManyPendingTaskRequests)
        }
        return .ok
    }

    mutating func cancel(_ id: BundleID, where matches: (TaskRequest) -> Bool) {
        let cancelled =
            apps[id].scheduling.removePending(where: matches) + scheduler.removeQueuedContinued(of: id, where: matches)
        for request in cancelled {
            apps[id].scheduling.forgetBlockers(of: request.identifier)
            record(id, .cancelled, task: request.identifier, reason: "cancelled by the app")
        }
    }
}
