/// What a host keeps across a restart (the daemon, in its store): the system's memory as a `SystemSnapshot`, the
/// user's settings and the requests that were pending, and their restoring. Not events: nothing happened, the
/// system only remembers.
extension BackgroundSystem {
    /// Puts back the user's settings as they were saved.
    public mutating func restoreSettings(_ saved: UserSettings) { settings = saved }

    /// Puts back `requests` that were pending for `app` when the host stopped, and schedules as usual.
    /// Continued-processing requests are not restored: they end with the process that made them.
    public mutating func restorePending(_ requests: [TaskRequest], for app: BundleID, at time: Instant) -> [Effect] {
        begin(at: time)
        if apps.contains(app) {
            for request in requests where request.kind != .continuedProcessing {
                guard !apps[app].pending.contains(where: { $0.identifier == request.identifier }) else { continue }
                apps[app].scheduling.submit(request)
                reviewAgain(app)
                record(app, .submitted, task: request.identifier, .submitted(kind: request.kind, outcome: .restored))
            }
        } else {
            record(app, .log, reason: "pending requests for an app that is not installed: dropped")
        }
        return finish()
    }
}

// MARK: What the system remembers

extension BackgroundSystem {
    /// Puts back what a snapshot remembers, for the apps installed now (call it after installing them and
    /// before `restorePending`, so that restored requests are judged with it). Budgets go on refilling from
    /// their balances at `takenAt` with the present policy; energy is charged again from now: the time the
    /// host was down is not charged to anyone. Not an event: nothing happened, the system only remembers.
    public mutating func restore(_ snapshot: SystemSnapshot) {
        for (id, history) in snapshot.apps where apps.contains(id) {
            apps[id].judgementHistory.restore(history)
            apps[id].scheduling.restore(discretionaryStarts: history.runStarts)
            apps[id].resources.restore(totalUsage: history.totalUsage)
            apps[id].forceQuit = history.forceQuit
            apps[id].backgroundEvents.remember(history.backgroundWork)
        }
        nextToken = max(nextToken, snapshot.nextToken)
        nextTaskID = max(nextTaskID, snapshot.nextTaskID)
        restoreJudgement(snapshot)
        meterEnergy(.restored(snapshot.energy, takenAt: snapshot.takenAt))
        restoreWakeUps(snapshot)
        reviewEveryApp()
    }
}

extension SystemSnapshot {
    /// The memory of `system` now: each installed app's history (with what §7 keeps for it and whether the user
    /// swiped it away), the budgets' balances, the energy ledger, the launch model and the token and task counters.
    public init(of system: BackgroundSystem) {
        let now = system.now
        var histories: [BundleID: AppHistory] = [:]
        for id in system.installed { histories[id] = AppHistory(of: system.apps[id], at: now) }
        self.init(
            takenAt: now, apps: histories, energyBudgetBalance: system.energyBudget.balance(at: now),
            dataBudgetBalance: system.dataBudget.balance(at: now), energy: system.energy, wakeUps: system.wakeUps,
            nextToken: system.nextToken, nextTaskID: system.nextTaskID, launchModel: system.launchModel,
            refreshEnergyUse: system.refreshEnergyUse)
    }
}

extension AppHistory {
    /// The history of the installed app `app` at `now`: an app on screen counts as having left it now (a restarted
    /// host has no app on screen).
    init(of app: AppRecord, at now: Instant) {
        var usage = app.usage
        usage.left(at: now)
        self.init(
            launches: usage.launches, foregroundSeconds: usage.foregroundSeconds, lastUsed: usage.lastUsed,
            cooperation: app.cooperation.score, judgedRuns: app.cooperation.judged, runStarts: app.discretionaryStarts,
            contentUpdatedAt: app.contentUpdatedAt, wakeUps: app.wakeUps, totalUsage: app.totalUsage,
            forceQuit: app.forceQuit, backgroundWork: app.backgroundEvents.memory)
    }
}
