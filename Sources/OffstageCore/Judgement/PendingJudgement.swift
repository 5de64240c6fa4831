/// An app's last judgement of its pending requests, kept with what it read, so that a review after a
/// change it did not read (most reviews follow such a call or event) can skip judging them again.
struct PendingJudgement: Sendable {
    /// The system's judgement era (policy, settings, wall clock, constraints) it was made in.
    var era: Int
    var pending: [TaskRequest]
    /// What the constraints saw; its `now` is not compared: `turnsAt` bounds the time it holds.
    var context: ConstraintContext
    /// The earliest time a verdict turns by time alone (a blocker lifts, a satisfied constraint ends).
    var turnsAt: Instant?

    /// Whether judging `pending` in `context` now would give the same verdicts: the same era, requests
    /// and context, and no verdict turned since.
    func holds(era: Int, pending: [TaskRequest], context: ConstraintContext) -> Bool {
        guard era == self.era, turnsAt.map({ context.now < $0 }) ?? true else { return false }
        let seen = self.context
        return pending == self.pending && context.app == seen.app && context.appState == seen.appState
            && context.appForceQuit == seen.appForceQuit && context.device == seen.device
            && context.judgement == seen.judgement && context.runningIdentifiers == seen.runningIdentifiers
    }
}
