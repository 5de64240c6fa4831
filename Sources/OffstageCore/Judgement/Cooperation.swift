/// How a discretionary task ended, as the cooperation score judges it.
public enum TaskOutcome: String, Hashable, Sendable, Codable, CaseIterable {
    /// Completed within the quick share of its runtime.
    case completedQuickly = "completed quickly"
    /// Completed before it expired.
    case completed
    /// Expired (it overran its runtime, or conditions changed) and completed within the grace period.
    case expired
    /// Killed while it ran: the app crashed or broke a resource limit.
    case killed
    /// Its expiration was ignored: not completed within the grace period, so the app was killed.
    case ignoredExpiration = "ignored expiration"

    /// A run completed with `setTaskCompleted` at `now`: quick (within the quick share of its kind's runtime), in
    /// time, or after its expiration.
    init(completing run: TaskRun, at now: Instant, policy: Policy) {
        let quick = policy.runtime(for: run.request.kind).map {
            now - run.startedAt <= $0 * policy.judgement.quickShare
        }
        self = run.expiredAt != nil ? .expired : quick ?? false ? .completedQuickly : .completed
    }

    /// A run that ended with its process at `now`: the app's fault (ignored expiration, crash, watchdog), or nil
    /// when it was not (the user swiped it away, jetsam, a shutdown), which does not count against it.
    init?(ending run: TaskRun, because reason: TerminationReason, at now: Instant, policy: Policy) {
        switch reason {
        case .userForceQuit, .memoryPressure, .deviceShutdown: return nil
        case .watchdog, .crash, .exited, .resourceLimit:
            let ignored = run.expiredAt.map { now >= $0 + policy.expirationGrace } ?? false
            self = ignored ? .ignoredExpiration : .killed
        }
    }

    /// The value the score moves towards after this outcome.
    var value: Double {
        switch self {
        case .completedQuickly: 1
        case .completed: 0.9
        case .expired: 0.5
        case .killed: 0.2
        case .ignoredExpiration: 0
        }
    }
}

/// An app's cooperation score, 0.1–1: an exponential average of how its tasks ended. It scales the
/// app's quota, so apps that finish quickly and honour expiration get more chances. Kept across launches.
public struct Cooperation: Hashable, Sendable, Codable {
    public private(set) var score: Double = 1
    /// How many outcomes were judged.
    public private(set) var judged = 0

    public init() {}

    /// A score put back from a snapshot.
    init(score: Double, judged: Int) {
        self.score = score
        self.judged = judged
    }

    /// Moves the score towards the outcome's value by the policy's weight, never below its minimum.
    mutating func note(_ outcome: TaskOutcome, _ policy: JudgementPolicy) {
        let weight = policy.cooperationWeight
        score = max(policy.minimumCooperation, score * (1 - weight) + outcome.value * weight)
        judged += 1
    }

    /// The tier's quota scaled by the score: at least one run unless the tier gets none.
    func scaled(_ quota: Int) -> Int { quota == 0 ? 0 : max(1, Int((Double(quota) * score).rounded(.down))) }
}
