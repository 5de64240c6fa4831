/// One app's place in the scheduler (§4), and the only code that changes it: its pending requests and running
/// tasks, why each request last waited, its kept judgement, its next review and what can lift its waits.
struct AppScheduling: Sendable {
    /// Its submitted requests not yet started, in submission order.
    private(set) var pending: [TaskRequest] = []
    /// Its tasks started and not yet ended (delivered or not). Dies with the process.
    private(set) var running: [TaskRun] = []
    /// The identifiers of `running`, kept with it: every constraint context reads them, and building
    /// the set there was a tenth of a context's cost.
    private(set) var runningIdentifiers: Set<String> = []
    /// How many of `running` are continued-processing runs, kept with it: the monitor of those looks for them
    /// after every entry point, and most runs are refreshes.
    private(set) var continuedRunCount = 0
    /// The blocker names last recorded for each pending identifier, so only changes are logged.
    private(set) var lastBlockers: [String: [String]] = [:]
    /// Its last judgement of its pending requests, while it may still hold (see `PendingJudgement`).
    private(set) var judgement: PendingJudgement?
    /// The earliest time one of its pending requests is to be judged again with no event (`RequestWait.reviewAt`).
    private(set) var blockersLift: Instant?
    /// The time of the app's queued review in `BackgroundSystem.reviews`, if one is queued.
    private(set) var scheduledReview: Instant?
    /// The system-wide changes that can lift one of its pending requests, as last reviewed: shared state, a
    /// wake, a budget refill.
    private(set) var sharedWaits: BlockerLifts = []
    /// When its discretionary runs started, within the quota window. Outlives processes.
    private(set) var discretionaryStarts: [Instant] = []
    /// When each of its processing tasks (by identifier) last started, for the processing pace.
    private(set) var processingStarts: [String: Instant] = [:]
    /// Budget reservations of its running tasks, by task ID.
    private(set) var reservations: [Int: Reservation] = [:]

    // MARK: What the system asks

    /// Whether the app has tasks running (delivered or not).
    var hasRunningTasks: Bool { !running.isEmpty }

    /// Whether a task handed to the app is running: its own time then covers the app's background time.
    var hasDeliveredTask: Bool { running.contains { $0.delivered } }

    /// Whether a running task waits to be handed to the app's code.
    var hasUndeliveredTask: Bool { running.contains { !$0.delivered } }

    // MARK: Requests

    /// Queues `request` after those pending, as a snapshot remembers it: no limit is checked.
    mutating func submit(_ request: TaskRequest) { pending.append(request) }

    /// `BGTaskScheduler.submit(_:)` of a refresh or processing request (§4): it replaces the pending request with its
    /// identifier, else joins the pending ones unless `policy`'s limit of pending requests of its kind is reached.
    mutating func submitWithinLimit(_ request: TaskRequest, policy: Policy) -> Submission {
        if replace(request) { return .replacing }
        let limit = request.kind == .appRefresh ? policy.maxPendingRefreshRequests : policy.maxPendingProcessingRequests
        if pending.lazy.filter({ $0.kind == request.kind }).count >= limit { return .tooMany(limit: limit) }
        pending.append(request)
        return .pending
    }

    /// What became of a submitted request (`submitWithinLimit`).
    enum Submission: Equatable {
        /// It took the place of the pending request with its identifier.
        case replacing
        /// It joined the pending requests.
        case pending
        /// Refused: `limit` requests of its kind are already pending.
        case tooMany(limit: Int)
    }

    /// Puts `request` in the place of the pending request with its identifier, whose wait is then recorded
    /// anew; false if none is pending.
    mutating func replace(_ request: TaskRequest) -> Bool {
        guard let index = pending.firstIndex(where: { $0.identifier == request.identifier }) else { return false }
        pending[index] = request
        forgetBlockers(of: request.identifier)
        return true
    }

    /// Removes the pending requests that `matches` and returns them, in their order.
    mutating func removePending(where matches: (TaskRequest) -> Bool) -> [TaskRequest] {
        let removed = pending.filter(matches)
        pending.removeAll(where: matches)
        return removed
    }

    /// Remembers the blocker names last recorded for a pending request.
    mutating func noteBlockers(_ names: [String], of identifier: String) { lastBlockers[identifier] = names }

    /// Forgets the blockers last recorded for a request that was replaced, cancelled or started, so its
    /// next wait is recorded anew, and with them the last judgement, which would skip that record.
    mutating func forgetBlockers(of identifier: String) {
        lastBlockers[identifier] = nil
        judgement = nil
    }

    // MARK: Runs

    /// Starts `run`: its request leaves the pending ones and its next wait is recorded anew.
    mutating func start(_ run: TaskRun) {
        pending.removeAll { $0.identifier == run.request.identifier }
        forgetBlockers(of: run.request.identifier)
        running.append(run)
        runningIdentifiers.insert(run.request.identifier)
        if run.request.kind == .continuedProcessing { continuedRunCount += 1 }
    }

    /// Hands the run `taskID` to the app's code at `now`; its runtime, if limited, ends at `expiresAt`.
    mutating func deliver(_ taskID: Int, at now: Instant, expiresAt: Instant?) {
        guard let index = running.firstIndex(where: { $0.id == taskID }) else { return }
        running[index].delivered = true
        running[index].startedAt = now
        running[index].expiresAt = expiresAt
    }

    /// Hands the runs waiting for the app's code to it at `now`, in their order, each with its runtime under
    /// `policy` (`.startTask`), while the app has `registered` their launch handlers; a run with none crashes the
    /// app (`.end`, the last action then).
    mutating func deliverWaitingRuns(registered: Set<String>, at now: Instant, policy: Policy) -> [SchedulingAction] {
        var actions: [SchedulingAction] = []
        for index in running.indices where !running[index].delivered {
            let request = running[index].request
            guard registered.contains(request.identifier) else {
                let message = "No launch handler registered for task with identifier \(request.identifier)"
                return actions + [.end(.crash(message))]
            }
            deliver(running[index].id, at: now, expiresAt: policy.runtime(for: request.kind).map { now + $0 })
            actions.append(.startTask(running[index]))
        }
        return actions
    }

    /// The delivered runs' deadlines at or before `now`, in their order: a run whose runtime is used up expires
    /// (`.expire`); one expired and not completed within `policy`'s grace period ends the process (`.end`, the last
    /// action then).
    func deadlinesDue(at now: Instant, policy: Policy) -> [SchedulingAction] {
        var actions: [SchedulingAction] = []
        for run in running where run.delivered {
            if let expired = run.expiredAt, now >= expired + policy.expirationGrace {
                let grace = Int(policy.expirationGrace)
                let words = "task \(run.request.identifier) not completed within \(grace) s of expiration"
                return actions + [.end(.watchdog(words))]
            }
            if run.expiredAt == nil, let end = run.expiresAt, now >= end {
                let runtime = Int(policy.runtime(for: run.request.kind) ?? 0)
                actions.append(.expire(taskID: run.id, .runtimeUsedUp(seconds: runtime)))
            }
        }
        return actions
    }

    /// Apple's `_simulateExpirationForTaskWithIdentifier:`: the run of `identifier` handed to the app expires now
    /// (`.expire`, simulated); no action if none is.
    func simulatedExpiration(of identifier: String) -> [SchedulingAction] {
        guard let run = running.first(where: { $0.request.identifier == identifier && $0.delivered }) else { return [] }
        return [.expire(taskID: run.id, .simulated)]
    }

    /// Marks the run `taskID` expired at `now`, which starts its grace period to complete, and returns it; nil if
    /// it is not running or already expired.
    mutating func expire(_ taskID: Int, at now: Instant) -> TaskRun? {
        guard let index = running.firstIndex(where: { $0.id == taskID }), running[index].expiredAt == nil else {
            return nil
        }
        running[index].expiredAt = now
        return running[index]
    }

    /// Shows `title` and `subtitle` for the run `taskID` (continued processing); returns its request's identifier,
    /// nil if it is not running.
    mutating func retitle(_ taskID: Int, title: String, subtitle: String) -> String? {
        guard let index = running.firstIndex(where: { $0.id == taskID }) else { return nil }
        running[index].request.title = title
        running[index].request.subtitle = subtitle
        return running[index].request.identifier
    }

    /// Notes the progress the run `taskID` reported: `completed` units of `total`.
    mutating func noteProgress(_ taskID: Int, completed: Int64, total: Int64) {
        guard let index = running.firstIndex(where: { $0.id == taskID }) else { return }
        running[index].progressCompleted = completed
        running[index].progressTotal = total
    }

    /// Ends the run `taskID` and returns it; nil if it is not running.
    mutating func end(_ taskID: Int) -> TaskRun? {
        guard let index = running.firstIndex(where: { $0.id == taskID }) else { return nil }
        let run = running.remove(at: index)
        if run.request.kind == .continuedProcessing { continuedRunCount -= 1 }
        // The set kept, not built again: it loses the identifier only when no other run has it.
        if !running.contains(where: { $0.request.identifier == run.request.identifier }) {
            runningIdentifiers.remove(run.request.identifier)
        }
        return run
    }

    /// Forgets everything that lives only as long as the process: its running tasks.
    mutating func clearProcess() {
        running = []
        runningIdentifiers = []
        continuedRunCount = 0
    }

    // MARK: Judgement and review

    /// Keeps the app's judgement of its pending requests (nil: none holds).
    mutating func keep(_ judgement: PendingJudgement?) { self.judgement = judgement }

    /// Forgets the kept judgement: something every judgement reads (policy, settings, clock, constraints) changed.
    mutating func forgetJudgement() { judgement = nil }

    /// Remembers how the pending requests wait: when the soonest is to be judged again by itself (`lift`, nil:
    /// none is) and which system-wide changes (shared state, a wake, a budget refill) can lift one of them now
    /// (`waits`). Returns the changes last noted when they differ: the scheduler's index of who waits for what then
    /// learns the new ones, so a change of the screen, the network, a budget… reviews just the apps it can start.
    mutating func noteWaiting(until lift: Instant?, waits: BlockerLifts) -> BlockerLifts? {
        blockersLift = lift
        guard sharedWaits != waits else { return nil }
        defer { sharedWaits = waits }
        return sharedWaits
    }

    /// Remembers the time of the app's queued review (nil: none is queued, or the queued one came).
    mutating func noteReview(at time: Instant?) { scheduledReview = time }

    // MARK: Quota and budgets

    /// A discretionary launch starts `now`: a place in the quota window of `window` seconds, which
    /// forgets the starts that left it (the oldest: starts are kept in time order, so no scan of the rest).
    mutating func noteDiscretionaryStart(at now: Instant, window: Double) {
        let left = discretionaryStarts.prefix { now - $0 >= window }.count
        if left > 0 { discretionaryStarts.removeFirst(left) }
        discretionaryStarts.append(now)
    }

    /// The processing task `identifier` starts `now`: the start its next run is spaced from.
    mutating func noteProcessingStart(_ identifier: String, at now: Instant) { processingStarts[identifier] = now }

    /// The discretionary starts remembered across a restart.
    mutating func restore(discretionaryStarts starts: [Instant]) { discretionaryStarts = starts }

    /// Keeps what the run `taskID` took from the budgets, to give back what it does not use.
    mutating func reserve(_ reservation: Reservation, for taskID: Int) { reservations[taskID] = reservation }

    /// Takes back what the run `taskID` reserved, if anything.
    mutating func releaseReservation(of taskID: Int) -> Reservation? { reservations.removeValue(forKey: taskID) }
}

/// What a running task took from the budgets when it started, and the app's meters then, so that what
/// it did not use can be given back when it ends.
struct Reservation: Sendable {
    /// Joules and cellular bytes reserved.
    var energy: Double
    var data: Double
    /// The app's background joules and cellular bytes when the run started.
    var energyBefore: Double
    var bytesBefore: Int
}
