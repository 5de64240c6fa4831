/// The numbers of the scheduler's judgement (§5): usage tiers and quotas, launch prediction,
/// budgets, coalescing and cooperation. Part of `Policy`; iOS publishes none of them, so each
/// default is an assumption modelled on Android's published values and named as such.
public struct JudgementPolicy: Hashable, Sendable, Codable {
    // Usage tiers (recency of last use, like Android's standby-bucket timeouts).
    /// Used within this many seconds (or on screen): `active`.
    public var activeWithin: Double = 3600
    /// Used within this many seconds: `workingSet`.
    public var workingSetWithin: Double = 12 * 3600
    /// Used within this many seconds: `frequent`.
    public var frequentWithin: Double = 48 * 3600
    /// Used within this many seconds: `rare`; older than this (or never used): `never` (SPEC: a week).
    public var rareWithin: Double = 7 * 86_400
    /// Days of use in the last week that keep an app at least in `workingSet` (frequency).
    public var dailyUseDays: Int = 4
    /// Days of use in the last week that keep an app at least in `frequent`.
    public var regularUseDays: Int = 2

    // Quotas: discretionary runs an app may start per rolling window, by tier.
    /// The rolling window of the quota, in seconds.
    public var quotaWindow: Double = 86_400
    /// Runs per window for `active`, `workingSet`, `frequent`, `rare` (`never` gets none). Every run counts,
    /// the awake ones the quota does not hold too, so an app used every day spends most of its places on the
    /// refreshes pre-warmed as the screen lights: 48 for both (was 24 and 12) leaves it the wakes for its predicted
    /// windows (measured: the history of BENCHMARKS.md in git).
    public var quotaActive: Int = 48
    /// Seconds between two starts of one processing task (by identifier) of an app: iOS runs processing tasks
    /// when the device is idle, "a few times a night at most", and publishes no figure. 3 h, ours, keeps a task
    /// the app resubmits at every trip to the background to three runs in an eight-hour night.
    public var processingSpacing: Double = 3 * 3600
    /// Launches within the history window below which an app is little known (SPEC §5, "Little known, little
    /// run"): its refresh and legacy fetch are spaced `littleKnownSpacing` apart. 3 (ours): a new app, or one opened
    /// once or twice, until a habit can show.
    public var littleKnownLaunches: Int = 3
    /// Seconds between two refresh or fetch starts of a little-known app: 6 h (ours) is at most four a day.
    public var littleKnownSpacing: Double = 6 * 3600
    public var quotaWorkingSet: Int = 48
    public var quotaFrequent: Int = 4
    public var quotaRare: Int = 1

    // Launch prediction (`LaunchModel`) and the decision rule (`LaunchPredictionConstraint`): ours, like every
    // number here; see docs/architecture.md, "The launch model".
    /// Seconds of history the usage tier reads (and the usage history keeps).
    public var historyWindow: Double = 28 * 86_400
    /// Local days the launch model must have seen before its likelihoods hold a refresh back; until then a
    /// refresh runs as the other constraints allow.
    public var likelihoodLearningDays: Int = 2
    /// How many firings the app's base rate counts for in a signal's estimate (the Beta prior's weight).
    public var likelihoodPriorWeight: Double = 2
    /// Days of launches the launch model keeps for an app's habit: the chance of a launch now is the share of
    /// those days with one at this time of day (ours: a week, so a habit shows from the second day and a
    /// changed one fades within the week).
    public var habitDays: Int = 7
    /// The share of those days (of the same kind, weekdays or weekend days) on which the app must have been
    /// opened within the window at this time of day for that to be a habit. 0.75 (ours): a daily habit, not
    /// launches only around a time (those the hour's rate covers).
    public var habitRegularity: Double = 0.75
    /// How many days the app's base rate counts for in a habit's estimate (the Beta prior's weight). 2 (ours):
    /// a launch at the same time the day before makes the next one about a third likely.
    public var habitPriorWeight: Double = 2
    /// Seconds after which the launch model's evidence weighs half, so habits that changed fade; 0 never
    /// forgets. Off (ours): on the generated traces, whose habits do not change, forgetting after 14 or 28 days
    /// cost 0.1–0.5 points of fresh launches (BENCHMARKS.md); a real user's changing habits may want it.
    public var likelihoodHalfLife: Double = 0
    /// What a refresh costs, in fresh launches it must be expected to bring, when the device is awake anyway
    /// (screen on, charger, another task running, a maintenance wake open, a notification just shown): little
    /// more than its own energy. Ours: with `cellularRunCost` it is the point of the judgement's frontier that keeps
    /// every user within 1 % of the battery a day on the example and generated traces (BENCHMARKS.md).
    public var awakeRunCost: Double = 0.08
    /// What it costs when it has to wake the sleeping device.
    public var wakeRunCost: Double = 0.3
    /// What running on cellular adds (the radio's tail, the user's data) when the radio is idle: the tail (10 s at
    /// 1 W) costs several Wi-Fi runs' energy, so the first run of a batch pays it (`radioTailExtension` the others).
    public var cellularRunCost: Double = 0.6
    /// What a run on cellular with the radio already up adds of `cellularRunCost`, beyond what has passed of an
    /// app's tail: its own bytes restart the tail as it ends, 3 s on for a 3 s refresh in a 10 s tail (ours: 0.3).
    public var radioTailExtension: Double = 0.3
    /// Battery level (0–1) below which, off the charger, a run's cost is multiplied by `lowBatteryCostFactor`.
    public var lowBatteryLevel: Double = 0.3
    public var lowBatteryCostFactor: Double = 2

    // Budgets (system-wide, for discretionary work; unlimited on the charger).
    /// The most energy the budget holds, in joules.
    public var energyBudgetCapacity: Double = 120
    /// Joules added to the budget per day, spread evenly through the day. 500 (was 250, with 60 J held): an
    /// emptying budget raises every run's cost, so the smaller one held back the likeliest launches' refreshes
    /// after cheap ones had spent it; the run costs above now bound the day's energy (BENCHMARKS.md).
    public var energyBudgetPerDay: Double = 500
    /// The most joules a refresh run reserves when it starts (and its reservation before any run was measured).
    public var refreshEnergyReservation: Double = 25
    /// A refresh run reserves this many times what refresh runs use, measured (ours: runs vary by about that).
    public var refreshReservationMargin: Double = 2
    /// Weight of the newest refresh run in the measured use (an exponential average).
    public var refreshUseWeight: Double = 0.2
    /// Joules a processing run reserves when it starts.
    public var processingEnergyReservation: Double = 150
    /// The most cellular data the budget holds, in bytes.
    public var dataBudgetCapacity: Double = 20_000_000
    /// Cellular bytes added per day.
    public var dataBudgetPerDay: Double = 50_000_000
    /// Cellular bytes a discretionary run reserves when it starts on cellular.
    public var dataReservation: Double = 2_000_000

    // Coalescing.
    /// Maintenance wakes fall on this grid (seconds): work that becomes eligible while the device
    /// sleeps waits for the next grid point, so work due close together shares one wake.
    public var maintenanceInterval: Double = 15 * 60
    /// How long a maintenance wake stays open for work to start, in seconds.
    public var maintenanceWindow: Double = 60

    // Cooperation.
    /// Weight of the newest outcome in the app's cooperation score (an exponential average).
    public var cooperationWeight: Double = 0.2
    /// The lowest score: even a bad app keeps a trickle of opportunities.
    public var minimumCooperation: Double = 0.1
    /// A task completed within this share of its runtime counts as quick.
    public var quickShare: Double = 0.5

    public init() {}
}
