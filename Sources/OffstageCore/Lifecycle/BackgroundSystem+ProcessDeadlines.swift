/// The process's own deadlines (§2, §4's background time): a callback that must return, background time
/// running out. `fireTimers` fires them first on each review; `nextDeadline` queues the review they need.
extension BackgroundSystem {
    /// Fires the app's callback watchdog and background-time deadlines at or before `now`: a late callback
    /// or used-up background time ends the process, whose end is returned as true; a near end warns. The CPU
    /// monitor judges the process's work in progress here too.
    mutating func fireProcessDeadlines(_ id: BundleID) -> Bool {
        if fireCPULimit(id) { return true }
        let app = apps[id]
        if let inFlight = app.inFlight, let deadline = inFlight.deadline, deadline <= now {
            if inFlight.callback == .willTerminate, let reason = app.terminating {
                endProcess(id, reason)
            } else {
                let limit = Int(policy.watchdogTimeout(for: inFlight.callback) ?? 0)
                let why = "\(inFlight.callback.rawValue) did not return within \(limit) s (0x8badf00d)"
                endProcess(id, .watchdog(why))
            }
            return true
        }
        if let since = app.backgroundSince, !app.assertions.isEmpty, !app.backgroundTimeCoveredByTask,
            !app.backgroundTimeCoveredByMode
        {
            let end = since + backgroundTimeAllowance
            if now >= end {
                endProcess(id, .watchdog("background task assertion timeout"))
                return true
            }
            if !app.assertionsWarned, now >= end + (-policy.assertionExpirationWarning) {
                let ids = app.assertions.keys.sorted()
                apps[id].lifecycle.noteAssertionsWarned()
                let secondsLeft = Int(end - now)
                record(id, .assertionExpired, .assertionsExpiring(numbers: ids, secondsLeft: secondsLeft))
                emit(.expireBackgroundTasks(id, ids: ids))
            }
        }
        return false
    }

    /// Notes the app's process deadlines after now in `next`: its callback's watchdog, and its background
    /// time's warning or end.
    func noteProcessDeadlines(of app: AppRecord, in next: inout EarliestAfter) {
        next.note(app.inFlight?.deadline)
        next.note(monitors.cpuLimitDue(of: app, onScreen: foregroundApp, now: now, policy: policy))
        if let since = app.backgroundSince, !app.assertions.isEmpty, !app.backgroundTimeCoveredByTask,
            !app.backgroundTimeCoveredByMode
        {
            let end = since + backgroundTimeAllowance
            next.note(app.assertionsWarned ? end : end + (-policy.assertionExpirationWarning))
        }
    }
}
