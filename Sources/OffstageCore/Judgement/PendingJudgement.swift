/// An app's last judgement of its pending requests, kept with what it read, so that a review after a
/// change it did not read (most reviews follow such a call or event) can skip judging them again.
struct PendingJudgement: Sendable {
    /// The system's judgement era (policy, settings, wall clock, constraints) it was made in.
    var era: Int
    var pending: [TaskRequest]
    /// What the constraints saw of the device and the app; the policy, settings and wall clock are the
    /// era's, and the time is bounded by `turnsAt`.
    var device: DeviceState
    var appState: AppState
    var appForceQuit: Bool
    var runningIdentifiers: Set<String>
    var judgement: JudgementContext
    /// The earliest time a verdict turns by time alone (a blocker lifts, a satisfied constraint ends).
    var turnsAt: Instant?

    /// The judgement of `pending` made in `context`, in `era`, whose verdicts hold until `turnsAt`.
    init(era: Int, pending: [TaskRequest], context: ConstraintContext, turnsAt: Instant?) {
        (self.era, self.pending, self.turnsAt) = (era, pending, turnsAt)
        (device, appState, appForceQuit) = (context.device, context.appState, context.appForceQuit)
        (runningIdentifiers, judgement) = (context.runningIdentifiers, context.judgement)
    }

    /// Whether judging `pending` in `context` now would give the same verdicts: the same era, requests
    /// and context (the app's state as far as the constraints' `sight` goes), and no verdict turned since.
    func holds(era: Int, pending: [TaskRequest], context: ConstraintContext, sight: AppStateSight) -> Bool {
        guard era == self.era, turnsAt.map({ context.now < $0 }) ?? true else { return false }
        return pending == self.pending && !sight.tells(context.appState, from: appState)
            && context.appForceQuit == appForceQuit
            && context.device == device && context.judgement == judgement
            && context.runningIdentifiers == runningIdentifiers
    }
}
