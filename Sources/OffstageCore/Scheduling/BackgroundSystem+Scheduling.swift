/// The scheduler's passes over one app, run by `review`: deadlines that fell due, running tasks
/// whose conditions broke, and pending requests whose constraints are all satisfied.
extension BackgroundSystem {
    /// Fires the app's deadlines at or before `now`: the process's (callback watchdogs, background time),
    /// then its tasks' runtimes and grace periods (`AppScheduling.deadlinesDue`).
    mutating func fireTimers(_ id: BundleID) {
        guard apps[id].state.hasProcess, apps[id].hasTimers, !fireProcessDeadlines(id) else {
            return
        }
        carryOut(apps[id].runDeadlinesDue(at: now, policy: policy), for: id)
    }

    /// Expires the app's running discretionary tasks whose conditions stopped holding.
    mutating func interruptRunningTasks(_ id: BundleID) {
        guard apps[id].hasRunningTasks else { return }
        for run in apps[id].running where run.delivered && run.expiredAt == nil && run.request.isDiscretionary {
            if let reason = constraints.interruption(for: run.request, in: context(for: id)) {
                expire(id, run.id, .interrupted(words: reason))
            }
        }
    }

    /// Starts the app's pending requests whose constraints are all satisfied; records why the others
    /// wait, and remembers when the soonest of them can become eligible by itself.
    mutating func schedulePendingRequests(_ id: BundleID) {
        guard !apps[id].isTerminating else { return }
        let pending = apps[id].pending
        guard !pending.isEmpty else {
            apps[id].scheduling.keep(nil)
            let before = apps[id].scheduling.noteWaiting(until: nil, waits: [])
            return scheduler.noteWaits(apps.position(of: id), [], before: before)
        }
        if apps[id].judgementHoldsWhateverHappens(pending: pending, now: now, sight: constraintSet.sight) { return }
        apps[id].judgementHistory.refreshUsageTier(at: now, clock: wallClock, policy: policy.judgement)
        let judgement = judgementContext(for: id)
        let seen = PendingJudgement.Seen(
            device: device, appState: apps[id].projectedState, appForceQuit: apps[id].forceQuit,
            runningIdentifiers: apps[id].runningIdentifiers, judgement: judgement)
        if apps[id].judgementHolds(pending: pending, now: now, seen: seen, sight: constraintSet.sight) {
            return
        }
        var context = context(for: id, judgement: judgement)
        var lift: Instant?
        var turnsAt: Instant?
        var started = false
        var waits: BlockerLifts = []
        var heldUntil: Instant?  // the earliest of the requests' holds whatever happens, while each has one
        var eachHeld = true
        for request in pending {
            let (blockers, turns, wait) = constraints.judge(request, in: context)
            if blockers.isEmpty {
                if request.kind == .appRefresh, context.judgement.likelihood.learnt {
                    let likelihood = context.judgement.likelihood
                    record(id, .prediction, task: request.identifier, .launchLikelihood(likelihood))
                }
                start(id, request, .allConstraintsSatisfied)
                started = true
                context = self.context(for: id)  // a start changes what the next requests see
                continue
            }
            if let turns, turnsAt.map({ turns < $0 }) ?? true { turnsAt = turns }
            if let review = wait.reviewAt, lift.map({ review < $0 }) ?? true { lift = review }
            waits.formUnion(wait.liftedBy)
            if let held = wait.heldWhateverHappensUntil, eachHeld {
                heldUntil = min(heldUntil ?? held, held)
            } else {
                (eachHeld, heldUntil) = (false, nil)
            }
            let last = apps[id].lastBlockers[request.identifier]  // names in an array only when the wait changed
            if !(last?.elementsEqual(blockers, by: { $0 == $1.constraint }) ?? false) {
                apps[id].scheduling.noteBlockers(blockers.map { $0.constraint }, of: request.identifier)
                record(id, .deferred, task: request.identifier, .deferred(blockers: blockers.map(\.withWordsWritten)))
            }
        }
        let before = apps[id].scheduling.noteWaiting(until: lift, waits: waits)
        scheduler.noteWaits(apps.position(of: id), waits, before: before)
        apps[id].scheduling.keep(
            started ? nil : PendingJudgement(pending: pending, seen: seen, turnsAt: turnsAt, heldUntil: heldUntil))
    }

    /// The sleeping device wakes for work of `id` (a task run, a push, a fetch): a maintenance wake, counted,
    /// charged to the app and recorded; it stays open for the maintenance window, and work that waits for a
    /// wake is reviewed, to ride along with it (counted once: the device is awake while the window is open).
    mutating func noteMaintenanceWake(for id: BundleID, task label: String) {
        let number = scheduler.noteMaintenanceWake(at: now)
        apps[id].judgementHistory.noteWake()
        meterEnergy(.wakeUp(for: id))
        record(id, .wake, task: label, reason: "maintenance wake #\(number): the device was asleep")
    }

    /// The sleeping device woke to show the user something (a notification), not for work: for the maintenance
    /// window work starts as if the device were awake anyway, without a wake of its own.
    mutating func noteDeviceWokeForUser() { scheduler.noteDeviceWoke(at: now) }

    /// An app's cellular bytes brought the radio up: the refreshes held only by the radio's cost are reviewed, to
    /// ride on its tail.
    mutating func noteRadioCameUp() { scheduler.noteRadioCameUp() }

    /// Puts back the count of maintenance wakes a snapshot remembers.
    mutating func restoreWakeUps(_ saved: SystemSnapshot) { scheduler.restore(wakeUps: saved.wakeUps) }

    /// For every request not yet finished: where it stands and, if it waits, every constraint that blocks it.
    public func explain() -> [RequestStatus] {
        var result: [RequestStatus] = []
        for id in installed {
            let app = apps[id]
            for request in app.pending {
                let blockers = constraints.blockers(for: request, in: context(for: id))
                result.append(RequestStatus(app: id, request: request, phase: .pending, blockers: blockers))
            }
            for (position, entry) in scheduler.continuedQueue.enumerated() where entry.app == id {
                result.append(
                    RequestStatus(app: id, request: entry.request, phase: .queued(position: position + 1), blockers: [])
                )
            }
            for run in app.running {
                result.append(RequestStatus(app: id, request: run.request, phase: .running(run), blockers: []))
            }
        }
        return result
    }
}

/// Where one request stands, for `explain` and `why`.
public struct RequestStatus: Hashable, Sendable {
    public enum Phase: Hashable, Sendable {
        /// Waiting for its constraints (eligible when `blockers` is empty).
        case pending
        /// A continued-processing request waiting for room, at this place in the queue.
        case queued(position: Int)
        case running(TaskRun)
    }

    public var app: BundleID
    public var request: TaskRequest
    public var phase: Phase
    public var blockers: [Blocker]
}
