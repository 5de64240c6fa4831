/// Continued processing once it runs (SPEC §6): the system's progress UI (title, subtitle, progress, then
/// the outcome until it dismisses itself), the user's cancel, and the progress monitor: a task whose progress
/// stands still is expired; one whose estimated completion lies too far after its start makes the system
/// ask the user whether it should go on.
extension BackgroundSystem {
    /// The progress UI of every running continued-processing task and of finished ones still showing their
    /// outcome, in the order the tasks started. `updateTitle(_:subtitle:)` and reported progress show at once.
    public var progressUI: [ContinuedProcessingUI] {
        let running = continuedRuns.map { run in
            ContinuedProcessingUI(
                run, question: run.expiredAt == nil ? monitors.progress[run.id]?.pendingQuestion : nil)
        }
        return (running + monitors.finishedUI).sorted { $0.taskID < $1.taskID }
    }

    /// When the monitor acts next without a new event: stalls, slow estimates and UI dismissals.
    var continuedProcessingDueTimes: [Instant] {
        var due = monitors.finishedUI.compactMap(\.dismissAt)
        guard !monitors.progress.isEmpty else { return due }  // no watched run: no need to list the running ones
        for run in continuedRuns {
            guard let watch = monitors.progress[run.id] else { continue }
            due += [watch.stallDue(policy), watch.slowDue(policy)].compactMap { $0 }
        }
        return due
    }

    /// Continued-processing tasks running now, on every app.
    var continuedRuns: [TaskRun] {
        var runs: [TaskRun] = []  // a loop: listing every running task first built an array per settle
        for position in scheduler.appsWithTasks {
            let id = apps.id(at: position)
            guard apps[id].continuedRunCount > 0 else { continue }  // its runs are not read: most run refreshes
            runs += apps[id].running.filter { $0.request.kind == .continuedProcessing }
        }
        return runs
    }

    // MARK: The monitor

    /// Follows every running continued-processing task after each entry point: shows new ones, notes moved
    /// progress, expires stalled ones, asks about slow ones, shows the outcome of those killed with their
    /// app, and dismisses outcomes whose time is up.
    mutating func watchContinuedTasks() {
        let running = continuedRuns
        // No continued-processing task runs, is watched or is on screen: the common case, with nothing to look at
        // (other tasks running, refreshes, are no reason to build the sets below).
        guard !running.isEmpty || !monitors.progress.isEmpty || !monitors.finishedUI.isEmpty else { return }
        let alive = Set(running.map(\.id))
        for taskID in monitors.progress.keys.sorted() where !alive.contains(taskID) {
            // Ended without setTaskCompleted: the app's process ended under it.
            showOutcome(monitors.progress.removeValue(forKey: taskID)!, success: false)
        }
        for run in running {
            guard var watch = monitors.progress[run.id] else {
                monitors.progress[run.id] = ProgressWatch(run: run, movedAt: run.delivered ? run.startedAt : nil)
                record(
                    run.app, .progressUI, task: run.request.identifier,
                    reason: "shown: \(run.request.title) — \(run.request.subtitle)")
                continue
            }
            if watch.movedAt == nil, run.delivered { watch.movedAt = run.startedAt }
            if run.progressCompleted > watch.run.progressCompleted { watch.movedAt = now }
            watch.run = run
            monitors.progress[run.id] = watch
            judgeProgress(of: run)
        }
        for ui in monitors.finishedUI where ui.dismissAt.map({ $0 <= now }) ?? false {
            record(ui.app, .progressUI, task: ui.identifier, reason: "dismissed")
        }
        monitors.finishedUI.removeAll { $0.dismissAt.map { $0 <= now } ?? false }
    }

    /// Expires the task if its progress stalled; else asks the user if it is too slow.
    mutating func judgeProgress(of run: TaskRun) {
        guard var watch = monitors.progress[run.id] else { return }
        if let due = watch.stallDue(policy), now >= due {
            expire(run.app, run.id, .stalled(seconds: Int(policy.continuedProcessingStallTimeout)))
            watch.run.expiredAt = now
        } else if let due = watch.slowDue(policy), now >= due {
            let fraction = ContinuedProcessingUI(run).fraction
            let minutes = Int(((now - run.startedAt) / fraction / 60).rounded())
            let question = "\(run.request.title) is taking longer than expected (about \(minutes) min). Continue?"
            watch.question = .asked(question)
            let limit = Int(policy.continuedProcessingSlowLimit / 60)
            record(
                run.app, .askedUser, task: run.request.identifier,
                reason: "estimated to finish \(minutes) min after it started, beyond \(limit) min: \(question)")
            emit(.askUser(run.app, taskID: run.id, question: question))
        }
        monitors.progress[run.id] = watch
    }

    // MARK: Outcomes

    /// `setTaskCompleted` on a continued-processing task: the UI shows the outcome; a queued task may start.
    mutating func continuedTaskCompleted(_ run: TaskRun, success: Bool) {
        var watch = monitors.progress.removeValue(forKey: run.id) ?? ProgressWatch(run: run)
        watch.run = run
        showOutcome(watch, success: success)
        startQueuedContinuedTasks()
    }

    /// Shows how the task ended until the UI dismisses itself: cancelled by the user, expired,
    /// or completed successfully or not.
    mutating func showOutcome(_ watch: ProgressWatch, success: Bool) {
        let outcome: ContinuedProcessingUI.Outcome =
            watch.cancelledByUser
            ? .cancelledByUser : watch.run.expiredAt != nil ? .expired : success ? .completed : .failed
        var ui = ContinuedProcessingUI(watch.run)
        ui.outcome = outcome
        ui.dismissAt = now + policy.continuedProcessingOutcomeDisplay
        monitors.finishedUI.append(ui)
        record(ui.app, .progressUI, task: ui.identifier, reason: "outcome: \(outcome.rawValue)")
    }

    // MARK: The user in the UI

    /// The user tapped cancel: the task's expiration handler runs, with the usual grace to complete.
    mutating func userCancelled(_ id: BundleID, identifier: String) {
        guard let run = deliveredContinuedRun(id, identifier), run.expiredAt == nil else {
            return record(
                id, .log, task: identifier, reason: "cancel: no running continued-processing task to cancel")
        }
        record(id, .user, task: identifier, reason: "cancel in the progress UI")
        monitors.progress[run.id]?.cancelledByUser = true
        expire(id, run.id, .userCancelled)
    }

    /// The user answered the system's question: `stop` expires the task; `continue` lets it run, unasked again.
    mutating func userAnswered(_ id: BundleID, identifier: String, _ answer: SlowTaskAnswer) {
        guard let run = deliveredContinuedRun(id, identifier), monitors.progress[run.id]?.pendingQuestion != nil
        else {
            return record(
                id, .log, task: identifier, reason: "answer \(answer.rawValue): no question is pending for this task")
        }
        record(id, .user, task: identifier, reason: "answer \(answer.rawValue)")
        monitors.progress[run.id]?.question = .answered
        if answer == .stop { expire(id, run.id, .userChoseToStop) }
    }

    /// The app's continued-processing task with this identifier, once handed to the app.
    func deliveredContinuedRun(_ id: BundleID, _ identifier: String) -> TaskRun? {
        apps.lookUp(id)?.running.first {
            $0.request.kind == .continuedProcessing && $0.request.identifier == identifier && $0.delivered
        }
    }
}

extension ProgressWatch {
    /// The question waiting for the user's answer, if any.
    var pendingQuestion: String? {
        if case .asked(let question) = question { question } else { nil }
    }
}
