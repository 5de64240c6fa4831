/// An app's last judgement of its pending requests, kept with what it read, so that a review after a
/// change it did not read (most reviews follow such a call or event) can skip judging them again. A change of
/// the policy, the settings, the wall clock or the constraints forgets it (`forgetKeptJudgements`).
struct PendingJudgement: Sendable {
    /// What the constraints see of the device and the app, apart from the time (the policy, settings and
    /// wall clock it was made with hold as long as it is kept).
    struct Seen: Sendable {
        var device: DeviceState
        var appState: AppState
        var appForceQuit: Bool
        var runningIdentifiers: Set<String>
        var judgement: JudgementContext
    }

    var pending: [TaskRequest]
    /// What the constraints saw; the time is bounded by `turnsAt`.
    var seen: Seen
    /// The earliest time a verdict turns by time alone (a blocker lifts, a satisfied constraint ends).
    var turnsAt: Instant?
    /// Until when none of `pending` can start whatever happens, each held by a blocker that holds until its time
    /// (`Constraint.holdsUntilItsTime`); nil when one is not so held.
    var heldUntil: Instant?

    /// Whether none of `pending` can start at `now` whatever the device or the budgets do, and the app's own
    /// state is as it was (so its next review stays as it was set): judging them again before `heldUntil` could
    /// change only the words of their waits, so it is not done. Asked before a context is worked out.
    func holdsWhateverHappens(
        pending: [TaskRequest], now: Instant, appState: AppState, appForceQuit: Bool, runningIdentifiers: Set<String>,
        sight: AppStateSight
    ) -> Bool {
        guard let heldUntil, now < heldUntil else { return false }
        return judges(pending, appState: appState, appForceQuit: appForceQuit, runningIdentifiers, sight: sight)
    }

    /// Whether judging `pending` at `now`, with the constraints seeing `seen`, would give the same verdicts:
    /// the same requests, the same sight of the device and the app (its state as far as the
    /// constraints' `sight` goes), and no verdict turned since. Asked without a context, so that a judgement
    /// that holds (most do) costs none.
    func holds(pending: [TaskRequest], now: Instant, seen: Seen, sight: AppStateSight) -> Bool {
        guard turnsAt.map({ now < $0 }) ?? true else { return false }
        return judges(
            pending, appState: seen.appState, appForceQuit: seen.appForceQuit, seen.runningIdentifiers, sight: sight)
            && seen.device == self.seen.device && seen.judgement == self.seen.judgement
    }

    /// Whether it judged these requests, for the app as it is now: its state as far as `sight` goes, whether the
    /// user swiped it away, and its running tasks (what both kinds of hold compare).
    private func judges(
        _ pending: [TaskRequest], appState: AppState, appForceQuit: Bool, _ runningIdentifiers: Set<String>,
        sight: AppStateSight
    ) -> Bool {
        pending == self.pending && !sight.tells(appState, from: seen.appState) && appForceQuit == seen.appForceQuit
            && runningIdentifiers == seen.runningIdentifiers
    }
}
