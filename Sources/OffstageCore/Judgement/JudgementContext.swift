/// What the judgement constraints see besides the device and settings: the app's usage tier, quota
/// and predicted launch, the system's budgets, and whether the device is awake anyway.
public struct JudgementContext: Hashable, Sendable {
    public var tier: UsageTier
    /// The user's predicted next launch of the app, if the history supports a prediction.
    public var predictedLaunch: Instant?
    /// Discretionary runs the app started in the current quota window.
    public var runsInWindow: Int
    /// Runs it may start per window: its tier's quota scaled by its cooperation score.
    public var quota: Int
    /// When the oldest run in the window leaves it, freeing a place; nil when the window is empty.
    public var quotaFreesAt: Instant?
    public var energyBudget: BudgetAccount
    public var dataBudget: BudgetAccount
    /// The screen is on, the charger is plugged in, or a task is running: work costs no extra wake-up.
    public var deviceAwake: Bool
    /// When the app's latest discretionary run started, within the quota window (for a host's constraint:
    /// the evaluation's fixed-period and oracle baselines).
    public var lastRunStarted: Instant?
}
