/// The process's own deadlines (§2, §4's background time): a callback that must return, background time
/// running out. `fireTimers` fires them first on each review; `nextDeadline` queues the review they need.
/// The rules are `AppLifecycle.fireDeadlines` and `noteDeadlines`.
extension BackgroundSystem {
    /// Fires the app's callback watchdog and background-time deadlines at or before `now`: a late callback
    /// or used-up background time ends the process, whose end is returned as true; a near end warns. The CPU
    /// monitor judges the process's work in progress here too.
    mutating func fireProcessDeadlines(_ id: BundleID) -> Bool {
        if handleMonitors(.cpuJudgementDue(id)) { return true }
        let covered = apps[id].backgroundTimeCovered
        let actions = apps[id].lifecycle.fireDeadlines(
            at: now, allowance: backgroundTimeAllowance, timeCovered: covered, policy: policy)
        carryOut(actions, for: id)
        return actions.contains { if case .end = $0 { true } else { false } }
    }

    /// Notes the app's process deadlines after now in `next`: its callback's watchdog, the CPU monitor's, and
    /// its background time's warning or end.
    func noteProcessDeadlines(of app: AppRecord, in next: inout EarliestAfter) {
        app.noteProcessDeadlines(in: &next, allowance: backgroundTimeAllowance, policy: policy)
        next.note(monitors.cpuLimitDue(of: app, onScreen: foregroundApp, now: now, policy: policy))
    }
}
