/// Continued processing once it runs (SPEC §6): the system's progress UI (title, subtitle, progress, then the
/// outcome until it dismisses itself), the user's cancel and answer, and the progress monitor: a task whose progress
/// stands still is expired; one whose estimated completion lies too far after its start makes the system ask the
/// user whether it should go on. Its state is private; its transitions take the running continued-processing tasks,
/// `now` and the policy, and return what to carry out.
struct ProgressMonitor: Sendable {
    /// Running continued-processing tasks whose UI is shown, by task ID.
    private var watches: [Int: ProgressWatch] = [:]
    /// Progress UIs showing an outcome until they dismiss themselves, oldest first.
    private var finishedUI: [ContinuedProcessingUI] = []

    /// Whether a running task's progress is watched: only then do its stalls and estimates come due.
    var isWatching: Bool { !watches.isEmpty }

    /// The progress UI of every `running` continued-processing task and of finished ones still showing their
    /// outcome, in the order the tasks started.
    func ui(running: [TaskRun]) -> [ContinuedProcessingUI] {
        let shown = running.map { run in
            ContinuedProcessingUI(run, question: run.expiredAt == nil ? watches[run.id]?.pendingQuestion : nil)
        }
        return (shown + finishedUI).sorted { $0.taskID < $1.taskID }
    }

    /// When the monitor acts next without a new event: stalls and slow estimates of the `running` tasks (which
    /// need listing only while `isWatching`), and UI dismissals.
    func dueTimes(running: [TaskRun], policy: Policy) -> [Instant] {
        var due = finishedUI.compactMap(\.dismissAt)
        for run in running {
            guard let watch = watches[run.id] else { continue }
            due += [watch.stallDue(policy), watch.slowDue(policy)].compactMap { $0 }
        }
        return due
    }

    /// Follows the `running` continued-processing tasks after each entry point: shows new ones, notes moved
    /// progress, expires stalled ones, asks about slow ones, shows the outcome of those killed with their app,
    /// and dismisses outcomes whose time is up.
    mutating func watch(_ running: [TaskRun], now: Instant, policy: Policy) -> [MonitorAction] {
        // Nothing runs, is watched or is on screen: the common case, with nothing to look at.
        guard !running.isEmpty || !watches.isEmpty || !finishedUI.isEmpty else { return [] }
        var actions: [MonitorAction] = []
        let alive = Set(running.map(\.id))
        for taskID in watches.keys.sorted() where !alive.contains(taskID) {
            // Ended without setTaskCompleted: the app's process ended under it.
            actions.append(showOutcome(watches.removeValue(forKey: taskID)!, success: false, now: now, policy: policy))
        }
        for run in running {
            guard var watch = watches[run.id] else {
                watches[run.id] = ProgressWatch(run: run, movedAt: run.delivered ? run.startedAt : nil)
                let shown = "shown: \(run.request.title) — \(run.request.subtitle)"
                actions.append(.note(run.app, .progressUI, task: run.request.identifier, reason: shown))
                continue
            }
            if watch.movedAt == nil, run.delivered { watch.movedAt = run.startedAt }
            if run.progressCompleted > watch.run.progressCompleted { watch.movedAt = now }
            watch.run = run
            actions += judge(&watch, now: now, policy: policy)
            watches[run.id] = watch
        }
        for ui in finishedUI where ui.dismissAt.map({ $0 <= now }) ?? false {
            actions.append(.note(ui.app, .progressUI, task: ui.identifier, reason: "dismissed"))
        }
        finishedUI.removeAll { $0.dismissAt.map { $0 <= now } ?? false }
        return actions
    }

    /// `setTaskCompleted` on a continued-processing task: the UI shows the outcome.
    mutating func taskCompleted(_ run: TaskRun, success: Bool, now: Instant, policy: Policy) -> MonitorAction {
        var watch = watches.removeValue(forKey: run.id) ?? ProgressWatch(run: run)
        watch.run = run
        return showOutcome(watch, success: success, now: now, policy: policy)
    }

    /// The user tapped cancel in the UI of the app's task `identifier`, among the app's `running` tasks: its
    /// expiration handler runs, with the usual grace to complete.
    mutating func userCancelled(_ identifier: String, of app: BundleID, running: [TaskRun]) -> [MonitorAction] {
        guard let run = Self.deliveredRun(identifier, in: running), run.expiredAt == nil else {
            return [
                .note(app, .log, task: identifier, reason: "cancel: no running continued-processing task to cancel")
            ]
        }
        watches[run.id]?.cancelledByUser = true
        return [
            .note(app, .user, task: identifier, reason: "cancel in the progress UI"),
            .expire(app, taskID: run.id, .userCancelled),
        ]
    }

    /// The user answered the system's question about the app's task `identifier`: `stop` expires the task;
    /// `continue` lets it run, unasked again.
    mutating func userAnswered(_ answer: SlowTaskAnswer, _ identifier: String, of app: BundleID, running: [TaskRun])
        -> [MonitorAction]
    {
        guard let run = Self.deliveredRun(identifier, in: running), watches[run.id]?.pendingQuestion != nil else {
            let words = "answer \(answer.rawValue): no question is pending for this task"
            return [.note(app, .log, task: identifier, reason: words)]
        }
        watches[run.id]?.question = .answered
        let answered = MonitorAction.note(app, .user, task: identifier, reason: "answer \(answer.rawValue)")
        return answer == .stop ? [answered, .expire(app, taskID: run.id, .userChoseToStop)] : [answered]
    }

    /// Expires the watched task if its progress stalled; else asks the user if it is too slow.
    private func judge(_ watch: inout ProgressWatch, now: Instant, policy: Policy) -> [MonitorAction] {
        let run = watch.run
        if let due = watch.stallDue(policy), now >= due {
            watch.run.expiredAt = now
            return [.expire(run.app, taskID: run.id, .stalled(seconds: Int(policy.continuedProcessingStallTimeout)))]
        }
        guard let due = watch.slowDue(policy), now >= due else { return [] }
        let fraction = ContinuedProcessingUI(run).fraction
        let minutes = Int(((now - run.startedAt) / fraction / 60).rounded())
        let question = "\(run.request.title) is taking longer than expected (about \(minutes) min). Continue?"
        watch.question = .asked(question)
        let limit = Int(policy.continuedProcessingSlowLimit / 60)
        let words = "estimated to finish \(minutes) min after it started, beyond \(limit) min: \(question)"
        return [
            .note(run.app, .askedUser, task: run.request.identifier, reason: words),
            .askUser(run.app, taskID: run.id, question: question),
        ]
    }

    /// Shows how the task ended until the UI dismisses itself: cancelled by the user, expired, or completed
    /// successfully or not.
    private mutating func showOutcome(_ watch: ProgressWatch, success: Bool, now: Instant, policy: Policy)
        -> MonitorAction
    {
        let outcome: ContinuedProcessingUI.Outcome =
            watch.cancelledByUser
            ? .cancelledByUser : watch.run.expiredAt != nil ? .expired : success ? .completed : .failed
        var ui = ContinuedProcessingUI(watch.run)
        ui.outcome = outcome
        ui.dismissAt = now + policy.continuedProcessingOutcomeDisplay
        finishedUI.append(ui)
        return .note(ui.app, .progressUI, task: ui.identifier, reason: "outcome: \(outcome.rawValue)")
    }

    /// The continued-processing task `identifier` among `running`, once handed to the app.
    private static func deliveredRun(_ identifier: String, in running: [TaskRun]) -> TaskRun? {
        running.first { $0.request.kind == .continuedProcessing && $0.request.identifier == identifier && $0.delivered }
    }
}

/// One running continued-processing task as the progress monitor follows it.
struct ProgressWatch: Sendable {
    /// The task as the monitor last saw it (kept to show its outcome if it dies with its app).
    var run: TaskRun
    /// When the progress last moved, or the task was handed to the app; nil until it is handed over.
    var movedAt: Instant?
    /// The user tapped cancel in the UI.
    var cancelledByUser = false
    var question: Question = .notAsked

    /// When a stall expires the task: its progress has stood still since `movedAt` for the policy's timeout.
    func stallDue(_ policy: Policy) -> Instant? {
        guard run.expiredAt == nil, let moved = movedAt else { return nil }
        return moved + policy.continuedProcessingStallTimeout
    }

    /// When the estimated completion, extrapolated from the progress rate since the start, passes the
    /// slow limit: `start + elapsed / fraction > start + limit` once `elapsed > limit × fraction`.
    func slowDue(_ policy: Policy) -> Instant? {
        let fraction = ContinuedProcessingUI(run).fraction
        guard run.expiredAt == nil, run.delivered, question == .notAsked, fraction > 0, fraction < 1 else {
            return nil
        }
        return run.startedAt + policy.continuedProcessingSlowLimit * fraction
    }

    /// Where the system's "continue?" question stands.
    enum Question: Sendable, Equatable {
        case notAsked
        /// Asked with this text; waiting for the user.
        case asked(String)
        /// The user answered: never asked again.
        case answered
    }
}

extension ProgressWatch {
    /// The question waiting for the user's answer, if any.
    var pendingQuestion: String? {
        if case .asked(let question) = question { question } else { nil }
    }
}
