/// What the judgement constraints see besides the device and settings: the app's usage tier, quota
/// and launch likelihood, its content's age, the system's budgets, and whether the device is awake anyway.
public struct JudgementContext: Hashable, Sendable {
    public var tier: UsageTier
    /// The chance the user opens the app within the freshness window, and why (`LaunchModel`).
    public var likelihood: LaunchLikelihood
    /// When the app's content was last refreshed in the background; nil if it never was. An instant, not an
    /// age: the context stays the same while time passes, so a kept judgement holds (the age is `now` minus it).
    public var contentUpdatedAt: Instant?
    /// Discretionary runs the app started in the current quota window.
    public var runsInWindow: Int
    /// Runs it may start per window: its tier's quota scaled by its cooperation score.
    public var quota: Int
    /// When the oldest run in the window leaves it, freeing a place; nil when the window is empty.
    public var quotaFreesAt: Instant?
    public var energyBudget: BudgetAccount
    /// The joules a refresh run uses, as measured (a running mean): what its reservation is sized from.
    public var refreshEnergyUse: Double
    public var dataBudget: BudgetAccount
    /// The screen is on, the charger is plugged in, a task is running or a maintenance wake is open: work
    /// costs no extra wake-up.
    public var deviceAwake: Bool
    /// Another task is running now: on cellular its download has the radio up already, so a run that starts
    /// now shares the radio's high-power tail instead of paying for one of its own.
    public var otherRunInProgress: Bool = false
    /// When the cellular radio's high-power tail after an app's last bytes ends, while it runs: a run that
    /// starts before then pays only for what has passed of it. An instant, so a kept judgement holds.
    public var radioTailEnds: Instant?
    /// When the app's latest discretionary run started, within the quota window (for a host's constraint:
    /// the evaluation's fixed-period and oracle baselines).
    public var lastRunStarted: Instant?
    /// When each of the app's processing tasks (by identifier) last started: the processing pace reads it.
    public var processingStarts: [String: Instant] = [:]
    /// The user's launches of the app within the history window: how well the system knows it.
    public var launchesKnown: Int = 0
}
