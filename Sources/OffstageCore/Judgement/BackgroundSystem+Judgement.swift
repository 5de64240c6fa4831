/// The scheduler's judgement around each run (§5): usage (launches, tier, prediction), quotas,
/// budget reservations, maintenance wakes and cooperation, kept per app and system-wide.
extension BackgroundSystem {
    // MARK: Usage

    /// The user brought the app on screen: a launch in its usage history and the launch model, and the age of
    /// the content it shows (since its last successful background refresh) as a record.
    mutating func noteLaunchByUser(_ id: BundleID) {
        apps[id].judgementHistory.noteOpened(at: now, keeping: policy.judgement.historyWindow)
        learn(.launched(id))
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
            learn(.left(left))
        }
        if case .setBattery = event, wasCharging != device.isCharging {  // `setCharging` comes through it
            learn(.charger(plugged: device.isCharging))
        }
        switch event {
        case .notificationShown(let id) where apps.contains(id):
            learn(.notified(id))
        case .backgroundPush(let id, _) where apps.contains(id):
            learn(.pushed(id))
        default: break
        }
    }

    /// Teaches the launch model `signal` now and, if a constraint in use reads the likelihood, marks for review
    /// the apps it makes likely enough to pay for a run at its cheapest: below that no refresh of theirs starts.
    mutating func learn(_ signal: JudgementControllers.UsageSignal) {
        let likelier = judgement.learn(signal, at: now, clock: wallClock)
        guard constraintSet.readsLaunchLikelihood else { return }
        for id in likelier where apps.contains(id) {
            guard launchLikelihood(of: id).probability >= policy.judgement.awakeRunCost else { continue }
            reviewAgain(id)
        }
    }

    /// The policy changed: the controllers take the judgement's new numbers (`JudgementControllers.follow`).
    mutating func judgementFollowsPolicy() { judgement.follow(policy.judgement) }

    /// Puts back the budgets, the launch model and the refresh energy use a snapshot remembers.
    mutating func restoreJudgement(_ saved: SystemSnapshot) { judgement.restore(saved, policy: policy.judgement) }

    /// What the user's use of the device says about the apps they open next (§5 judgement).
    public var launchModel: LaunchModel { judgement.launchModel }

    /// The chance the user opens the app within the freshness window now, and why (`LaunchModel`).
    public func launchLikelihood(of id: BundleID) -> LaunchLikelihood {
        judgement.launchLikelihood(of: id, at: now, clock: wallClock, policy: policy.judgement)
    }

    /// Maintenance wakes in all (each app's: `app(_:).wakeUps`).
    public var wakeUps: Int { scheduler.wakeUps }

    /// The system-wide energy budget for discretionary work, in joules, and the cellular data budget, in bytes.
    public var energyBudget: BudgetAccount { judgement.energyBudget }
    public var dataBudget: BudgetAccount { judgement.dataBudget }

    /// The joules a refresh run uses, measured as runs end (an exponential average); nil before the first.
    public var refreshEnergyUse: Double? { judgement.refreshEnergyUse }

    /// What the judgement constraints see for the app now.
    func judgementContext(for id: BundleID) -> JudgementContext {
        let app = apps[id]  // looked up once: each lookup probes the table
        let window = policy.judgement.quotaWindow
        let recent = app.discretionaryStarts.drop(while: { now - $0 >= window })  // oldest first
        let tier = app.usageTier(at: now, clock: wallClock, policy: policy.judgement)
        let likelihood =
            constraintSet.readsLaunchLikelihood ? launchLikelihood(of: id) : .notWorkedOut(window: launchModel.window)
        return JudgementContext(
            tier: tier, likelihood: likelihood,
            contentUpdatedAt: app.contentUpdatedAt,
            runsInWindow: recent.count,
            quota: app.cooperation.scaled(tier.quota(policy.judgement)),
            quotaFreesAt: recent.first.map { $0 + window },
            energyBudget: energyBudget, refreshEnergyUse: refreshEnergyUse ?? .infinity, dataBudget: dataBudget,
            deviceAwake: isDeviceAwake, otherRunInProgress: scheduler.runningTaskCount > 0,
            radioTailEnds: radioTailEnds,
            lastRunStarted: recent.last, processingStarts: app.processingStarts, launchesKnown: app.usage.launches.count
        )
    }

    // MARK: Runs

    /// The screen is on, the charger plugged in, a task is running, a maintenance wake is open or an app handles
    /// a push or a fetch: the device is awake anyway.
    var isDeviceAwake: Bool {
        if device.isScreenOn || device.isCharging || scheduler.runningTaskCount > 0 { return true }
        if scheduler.isMaintenanceWakeOpen(at: now, window: policy.judgement.maintenanceWindow) { return true }
        return appsHandlingWakeEvents.keepDeviceAwake(apps)
    }

    /// Accounts for a run the scheduler started now (the scheduler counts it running): a maintenance wake if
    /// the device slept before it, a place in the app's quota, and reservations from the budgets (none on the
    /// charger). A simulated launch is a developer's act, not the scheduler's: it is only counted as running.
    mutating func noteRunStarted(_ id: BundleID, _ run: TaskRun, simulated: Bool, deviceWasAwake wasAwake: Bool) {
        guard run.request.isDiscretionary, !simulated else { return }
        if !wasAwake { noteMaintenanceWake(for: id, task: run.request.identifier) }
        noteDiscretionaryStart(id)
        if run.request.kind == .processing { apps[id].scheduling.noteProcessingStart(run.request.identifier, at: now) }
        guard !device.isCharging else { return }
        // Processing is not held by the budgets: it takes what is left of its reservations, never more.
        let taken = judgement.reserve(
            for: run.request, cellular: device.network == .cellular, at: now, policy: policy.judgement)
        let reservation = Reservation(
            energy: taken.energy, data: taken.data, energyBefore: energy.backgroundJoules(of: id),
            bytesBefore: apps[id].totalUsage.cellularBytes)
        apps[id].scheduling.reserve(reservation, for: run.id)
    }

    /// A discretionary launch of the app starts now (a task or a legacy fetch): a place in its quota window,
    /// and the start the rate limit spaces the next one from.
    mutating func noteDiscretionaryStart(_ id: BundleID) {
        let window = policy.judgement.quotaWindow
        apps[id].scheduling.noteDiscretionaryStart(at: now, window: window)
    }

    /// Accounts for a run that ended: what it did not use of its reservations goes back to the budgets
    /// (what it used beyond them is not charged: the budget is never overspent), its outcome moves the
    /// app's cooperation score, and a successful refresh makes the app's content fresh.
    mutating func noteRunEnded(_ id: BundleID, _ run: TaskRun, outcome: TaskOutcome?, success: Bool) {
        let reserved = apps[id].scheduling.releaseReservation(of: run.id)
        if let reserved {
            judgement.giveBack(
                reserved, usedEnergy: energy.backgroundJoules(of: id) - reserved.energyBefore,
                usedBytes: Double(apps[id].totalUsage.cellularBytes - reserved.bytesBefore),
                refresh: run.request.kind == .appRefresh, at: now, policy: policy.judgement)
        }
        noteTaskEnded(refillingBudgets: reserved != nil)
        if success && run.request.kind == .appRefresh { apps[id].judgementHistory.noteRefreshed(at: now) }
        guard run.request.isDiscretionary, let outcome else { return }
        let score = apps[id].judgementHistory.noteOutcome(outcome, policy.judgement)
        record(
            id, .cooperation, task: run.request.identifier,
            reason: "\(outcome.rawValue): cooperation score \(Int((score * 100).rounded()))%")
    }
}

/// "12 min", "3 h 5 min" or "6 h": a duration in words, for records.
func minutes(_ seconds: Double) -> String {
    let total = Int((seconds / 60).rounded())
    guard total >= 60 else { return "\(total) min" }
    return total % 60 == 0 ? "\(total / 60) h" : "\(total / 60) h \(total % 60) min"
}
