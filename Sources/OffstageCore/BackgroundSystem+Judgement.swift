/// The scheduler's judgement around each run (§5): usage (launches, tier, prediction), quotas,
/// budget reservations, maintenance wakes and cooperation, kept per app and system-wide.
extension BackgroundSystem {
    // MARK: Usage

    /// The user brought the app on screen: a launch in its usage history and the launch model, and the age of
    /// the content it shows (since its last successful background refresh) as a record.
    mutating func noteLaunchByUser(_ id: BundleID) {
        apps[id].usage.opened(at: now, keeping: policy.judgement.historyWindow)
        reviewLikelier(launchModel.launched(id, at: now, clock: wallClock))
        let age = apps[id].contentUpdatedAt.map { now - $0 }
        emit(.record(Record(at: now, app: id, kind: .contentAge, detail: .contentAge(seconds: age), on: wallClock)))
    }

    /// Feeds the launch model what an event did to the app on screen and the charger, and the app's
    /// notification or push (the screen coming on is fed as it happens, the launch by `noteLaunchByUser`),
    /// and reviews the apps whose likelihood it may raise.
    mutating func noteUsageSignals(
        of event: SystemEvent, appBefore: BundleID?, wasCharging: Bool
    ) {
        if let left = appBefore, left != foregroundApp {
            reviewLikelier(launchModel.left(left, at: now, clock: wallClock))
        }
        if case .setBattery = event, wasCharging != device.isCharging {  // `setCharging` comes through it
            reviewLikelier(launchModel.charger(plugged: device.isCharging, at: now, clock: wallClock))
        }
        switch event {
        case .notificationShown(let id) where apps.contains(id):
            reviewLikelier(launchModel.notified(id, at: now, clock: wallClock))
        case .backgroundPush(let id, _) where apps.contains(id):
            reviewLikelier(launchModel.pushed(id, at: now, clock: wallClock))
        default: break
        }
    }

    /// Marks for review the installed apps among `ids`, whose launch is likelier now, if it is likely enough to
    /// pay for a run at its cheapest: below that no refresh of theirs can start, so a review would change nothing.
    mutating func reviewLikelier(_ ids: [BundleID]) {
        for id in ids where apps.contains(id) {
            guard launchLikelihood(of: id).probability >= policy.judgement.awakeRunCost else { continue }
            dirty.insert(apps.position(of: id))
        }
    }

    /// The chance the user opens the app within the freshness window now, and why (`LaunchModel`).
    public func launchLikelihood(of id: BundleID) -> LaunchLikelihood {
        launchModel.likelihood(of: id, at: now, clock: wallClock, policy: policy.judgement)
    }

    /// The app's usage tier now.
    public func usageTier(of id: BundleID) -> UsageTier {
        guard let app = apps.lookUp(id) else { return .never }
        return usageTier(of: app)
    }

    /// The usage tier of `app` now: the one kept while it holds, else worked out again.
    func usageTier(of app: AppRecord) -> UsageTier {
        if let kept = app.tier, kept.holds(at: now, era: judgementEra, clock: wallClock) { return kept.tier }
        return UsageTier.of(app.usage, at: now, clock: wallClock, policy: policy.judgement)
    }

    /// Works the app's usage tier out again if the kept one no longer holds, and keeps it.
    mutating func refreshUsageTier(_ id: BundleID) {
        if let kept = apps[id].tier, kept.holds(at: now, era: judgementEra, clock: wallClock) { return }
        apps[id].tier = UsageTier.kept(
            apps[id].usage, at: now, clock: wallClock, policy: policy.judgement, era: judgementEra)
    }

    /// The app's usage history, the chance it is opened within the freshness window, and its cooperation score.
    public func usage(of id: BundleID) -> (
        history: UsageHistory, likelihood: LaunchLikelihood, cooperation: Cooperation
    )? {
        guard let app = apps.lookUp(id) else { return nil }
        return (app.usage, launchLikelihood(of: id), app.cooperation)
    }

    /// Maintenance wakes the app's work started, and in all.
    public func wakeUps(of id: BundleID) -> Int { apps.lookUp(id)?.wakeUps ?? 0 }

    /// What the judgement constraints see for the app now.
    func judgementContext(for id: BundleID) -> JudgementContext {
        let app = apps[id]  // looked up once: each lookup probes the table
        let window = policy.judgement.quotaWindow
        let recent = app.discretionaryStarts.drop(while: { now - $0 >= window })  // oldest first
        let tier = usageTier(of: app)
        let likelihood = launchLikelihood(of: id)
        return JudgementContext(
            tier: tier, likelihood: likelihood,
            contentUpdatedAt: app.contentUpdatedAt,
            runsInWindow: recent.count,
            quota: app.cooperation.scaled(tier.quota(policy.judgement)),
            quotaFreesAt: recent.first.map { $0 + window },
            energyBudget: energyBudget, refreshEnergyUse: refreshEnergyUse ?? .infinity, dataBudget: dataBudget,
            deviceAwake: isDeviceAwake, otherRunInProgress: runningTaskCount > 0,
            lastRunStarted: recent.last)
    }

    // MARK: Runs

    /// The screen is on, the charger plugged in, a task is running, a maintenance wake is open or an app handles
    /// a push or a fetch: the device is awake anyway.
    var isDeviceAwake: Bool {
        if device.isScreenOn || device.isCharging || runningTaskCount > 0 { return true }
        if let wake = lastMaintenanceWake, now < wake + policy.judgement.maintenanceWindow { return true }
        return appsHandlingWakeEvents.keepDeviceAwake(apps)
    }

    /// The sleeping device wakes for work of `id` (a task run, a push, a fetch): a maintenance wake, counted,
    /// charged to the app and recorded; it stays open for the maintenance window, and work that waits for a
    /// wake is reviewed, to ride along with it (counted once: the device is awake while the window is open).
    mutating func noteMaintenanceWake(for id: BundleID, task label: String) {
        lastMaintenanceWake = now
        wakeUps += 1
        apps[id].wakeUps += 1
        chargeWakeUp(for: id)
        record(id, .wake, task: label, reason: "maintenance wake #\(wakeUps): the device was asleep")
        dirty.formUnion(appsAwaitingWake)
    }

    /// Accounts for a run the scheduler starts now: a maintenance wake if the device slept, a place in
    /// the app's quota, and reservations from the budgets (none on the charger). A simulated launch is
    /// a developer's act, not the scheduler's: it is only counted as running.
    mutating func noteRunStarted(_ id: BundleID, _ run: TaskRun, simulated: Bool) {
        let wasAwake = isDeviceAwake
        runningTaskCount += 1
        // On cellular the radio is up now: refreshes held only by its cost may ride along (`runCost`).
        if runningTaskCount == 1, device.network == .cellular { dirty.formUnion(appsAwaitingWake) }
        appsWithTasks.insert(apps.position(of: id))
        guard run.request.isDiscretionary, !simulated else { return }
        if !wasAwake { noteMaintenanceWake(for: id, task: run.request.identifier) }
        noteDiscretionaryStart(id)
        guard !device.isCharging else { return }
        // Processing is not held by the budgets: it takes what is left of its reservations, never more.
        let reservation = Reservation(
            energy: min(
                run.request.energyReservation(policy.judgement, refreshUse: refreshEnergyUse ?? .infinity),
                max(0, energyBudget.balance(at: now))),
            data: device.network == .cellular
                ? min(policy.judgement.dataReservation, max(0, dataBudget.balance(at: now))) : 0,
            energyBefore: backgroundJoules(of: id), bytesBefore: apps[id].totalUsage.cellularBytes)
        energyBudget.withdraw(reservation.energy, at: now)
        dataBudget.withdraw(reservation.data, at: now)
        apps[id].scheduling.reserve(reservation, for: run.id)
    }

    /// A discretionary launch of the app starts now (a task or a legacy fetch): a place in its quota window,
    /// and the start the rate limit spaces the next one from.
    mutating func noteDiscretionaryStart(_ id: BundleID) {
        let window = policy.judgement.quotaWindow
        apps[id].scheduling.noteDiscretionaryStart(at: now, window: window)
    }

    /// A refresh run used `joules` (from its start to its end): the measured use its successors reserve from.
    mutating func noteRefreshEnergyUse(_ joules: Double) {
        let weight = policy.judgement.refreshUseWeight
        refreshEnergyUse = refreshEnergyUse.map { $0 * (1 - weight) + joules * weight } ?? joules
    }

    /// The background energy charged to the app since the ledger began.
    func backgroundJoules(of id: BundleID) -> Double { energy.totals[.app(id)]?.background ?? 0 }

    /// Accounts for a run that ended: what it did not use of its reservations goes back to the budgets
    /// (what it used beyond them is not charged: the budget is never overspent), its outcome moves the
    /// app's cooperation score, and a successful refresh makes the app's content fresh.
    mutating func noteRunEnded(_ id: BundleID, _ run: TaskRun, outcome: TaskOutcome?, success: Bool) {
        runningTaskCount -= 1
        if let reserved = apps[id].scheduling.releaseReservation(of: run.id) {
            let usedEnergy = backgroundJoules(of: id) - reserved.energyBefore
            let usedBytes = Double(apps[id].totalUsage.cellularBytes - reserved.bytesBefore)
            energyBudget.deposit(reserved.energy - min(max(0, usedEnergy), reserved.energy), at: now)
            if run.request.kind == .appRefresh { noteRefreshEnergyUse(max(0, usedEnergy)) }
            dataBudget.deposit(reserved.data - min(max(0, usedBytes), reserved.data), at: now)
            dirty.formUnion(appsAwaitingBudget)
        }
        if success && run.request.kind == .appRefresh { apps[id].contentUpdatedAt = now }
        guard run.request.isDiscretionary, let outcome else { return }
        apps[id].cooperation.note(outcome, policy.judgement)
        let score = apps[id].cooperation.score
        record(
            id, .cooperation, task: run.request.identifier,
            reason: "\(outcome.rawValue): cooperation score \(Int((score * 100).rounded()))%")
    }

    /// A run completed with `setTaskCompleted`: quick, in time, or after its expiration.
    mutating func finishRun(_ id: BundleID, _ run: TaskRun, success: Bool) {
        let quick = policy.runtime(for: run.request.kind).map {
            now - run.startedAt <= $0 * policy.judgement.quickShare
        }
        let outcome: TaskOutcome = run.expiredAt != nil ? .expired : quick ?? false ? .completedQuickly : .completed
        noteRunEnded(id, run, outcome: outcome, success: success)
    }

    /// A run ended with its process: the app's fault (ignored expiration, crash, watchdog) or not
    /// (the user swiped it away, jetsam), which does not count against it.
    mutating func finishRun(_ id: BundleID, _ run: TaskRun, ending reason: TerminationReason) {
        let outcome: TaskOutcome?
        switch reason {
        case .userForceQuit, .memoryPressure, .deviceShutdown: outcome = nil
        case .watchdog, .crash, .exited, .resourceLimit:
            let ignored = run.expiredAt.map { now >= $0 + policy.expirationGrace } ?? false
            outcome = ignored ? .ignoredExpiration : .killed
        }
        noteRunEnded(id, run, outcome: outcome, success: false)
    }
}

/// "12 min" or "3 h 5 min": a duration in words, for records.
func minutes(_ seconds: Double) -> String {
    let total = Int((seconds / 60).rounded())
    return total >= 60 ? "\(total / 60) h \(total % 60) min" : "\(total) min"
}
