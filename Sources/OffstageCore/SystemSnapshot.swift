/// What the system remembers beyond its processes, as plain values a host can store and give back after a
/// restart (the daemon keeps it in SQLite): each app's usage and cooperation, the budgets and the energy ledger.
/// Instants are on the system's monotonic clock, so a host that restores one must keep that clock going.
public struct SystemSnapshot: Hashable, Sendable, Codable {
    /// When it was taken.
    public var takenAt: Instant
    /// Each installed app's history.
    public var apps: [BundleID: AppHistory]
    /// The system-wide energy budget's balance at `takenAt`, in joules.
    public var energyBudgetBalance: Double
    /// The cellular data budget's balance at `takenAt`, in bytes.
    public var dataBudgetBalance: Double
    /// Every joule spent so far, by consumer and hour.
    public var energy: EnergyLedger
    /// Maintenance wakes of the device so far.
    public var wakeUps: Int

    public init(
        takenAt: Instant, apps: [BundleID: AppHistory], energyBudgetBalance: Double, dataBudgetBalance: Double,
        energy: EnergyLedger, wakeUps: Int
    ) {
        self.takenAt = takenAt
        self.apps = apps
        self.energyBudgetBalance = energyBudgetBalance
        self.dataBudgetBalance = dataBudgetBalance
        self.energy = energy
        self.wakeUps = wakeUps
    }
}

/// One app's history as the judgement reads it: the user's launches and time on screen, how its tasks ended
/// (cooperation), when its discretionary runs started (the quota), its content's freshness, what it used.
public struct AppHistory: Hashable, Sendable, Codable {
    /// The user's launches within the history window, oldest first.
    public var launches: [Instant]
    /// Seconds on screen in all (an app on screen when the snapshot was taken counts until then).
    public var foregroundSeconds: Double
    public var lastUsed: Instant?
    /// The cooperation score (0–1) and how many runs it has judged.
    public var cooperation: Double
    public var judgedRuns: Int
    /// When its discretionary runs started, within the quota window.
    public var runStarts: [Instant]
    /// When a background refresh last completed successfully.
    public var contentUpdatedAt: Instant?
    /// Maintenance wakes its work started.
    public var wakeUps: Int
    /// What its processes used since installation, as hosts reported it.
    public var totalUsage: ResourceUsage

    public init(
        launches: [Instant], foregroundSeconds: Double, lastUsed: Instant?, cooperation: Double, judgedRuns: Int,
        runStarts: [Instant], contentUpdatedAt: Instant?, wakeUps: Int, totalUsage: ResourceUsage
    ) {
        self.launches = launches
        self.foregroundSeconds = foregroundSeconds
        self.lastUsed = lastUsed
        self.cooperation = cooperation
        self.judgedRuns = judgedRuns
        self.runStarts = runStarts
        self.contentUpdatedAt = contentUpdatedAt
        self.wakeUps = wakeUps
        self.totalUsage = totalUsage
    }
}
