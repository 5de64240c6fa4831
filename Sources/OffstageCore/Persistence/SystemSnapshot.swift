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
    // MARK: Restarts with live processes (the daemon's re-adoption)
    /// The next callback token and task ID the system hands out: a restarted system goes on from them, so that
    /// a process it adopts never answers a new callback or task with a number from before the restart.
    public var nextToken: Int = 1
    public var nextTaskID: Int = 1
    /// What the launch model learnt of the user's habits (nil in a snapshot stored before it existed).
    public var launchModel: LaunchModel?
    /// The joules a refresh run uses, as measured (what refresh runs reserve from the energy budget); nil
    /// before the first run ended, or in a snapshot stored before it was kept.
    public var refreshEnergyUse: Double?

    public init(
        takenAt: Instant, apps: [BundleID: AppHistory], energyBudgetBalance: Double, dataBudgetBalance: Double,
        energy: EnergyLedger, wakeUps: Int, nextToken: Int = 1, nextTaskID: Int = 1, launchModel: LaunchModel? = nil,
        refreshEnergyUse: Double? = nil
    ) {
        self.launchModel = launchModel
        self.refreshEnergyUse = refreshEnergyUse
        self.takenAt = takenAt
        self.apps = apps
        self.energyBudgetBalance = energyBudgetBalance
        self.dataBudgetBalance = dataBudgetBalance
        self.energy = energy
        self.wakeUps = wakeUps
        self.nextToken = nextToken
        self.nextTaskID = nextTaskID
    }

    /// Decodes a snapshot, also one stored before a field existed: a missing field is its empty default.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        takenAt = try values.decode(Instant.self, forKey: .takenAt)
        apps = try values.decode([BundleID: AppHistory].self, forKey: .apps)
        energyBudgetBalance = try values.decode(Double.self, forKey: .energyBudgetBalance)
        dataBudgetBalance = try values.decode(Double.self, forKey: .dataBudgetBalance)
        energy = try values.decode(EnergyLedger.self, forKey: .energy)
        wakeUps = try values.decode(Int.self, forKey: .wakeUps)
        nextToken = try values.decodeIfPresent(Int.self, forKey: .nextToken) ?? 1
        nextTaskID = try values.decodeIfPresent(Int.self, forKey: .nextTaskID) ?? 1
        launchModel = try values.decodeIfPresent(LaunchModel.self, forKey: .launchModel)
        refreshEnergyUse = try values.decodeIfPresent(Double.self, forKey: .refreshEnergyUse)
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
    // MARK: What outlives the app's processes besides its history
    /// The user swiped the app away and has not opened it since: no pushes, no tasks until they do.
    public var forceQuit = false
    /// Its held push and push wake-ups, legacy fetch schedule and location monitoring (§7).
    public var backgroundWork = BackgroundWorkMemory()

    public init(
        launches: [Instant], foregroundSeconds: Double, lastUsed: Instant?, cooperation: Double, judgedRuns: Int,
        runStarts: [Instant], contentUpdatedAt: Instant?, wakeUps: Int, totalUsage: ResourceUsage,
        forceQuit: Bool = false, backgroundWork: BackgroundWorkMemory = BackgroundWorkMemory()
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
        self.forceQuit = forceQuit
        self.backgroundWork = backgroundWork
    }

    /// Decodes a history, also one stored before a field existed: a missing field is its empty default.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        launches = try values.decode([Instant].self, forKey: .launches)
        foregroundSeconds = try values.decode(Double.self, forKey: .foregroundSeconds)
        lastUsed = try values.decodeIfPresent(Instant.self, forKey: .lastUsed)
        cooperation = try values.decode(Double.self, forKey: .cooperation)
        judgedRuns = try values.decode(Int.self, forKey: .judgedRuns)
        runStarts = try values.decode([Instant].self, forKey: .runStarts)
        contentUpdatedAt = try values.decodeIfPresent(Instant.self, forKey: .contentUpdatedAt)
        wakeUps = try values.decode(Int.self, forKey: .wakeUps)
        totalUsage = try values.decode(ResourceUsage.self, forKey: .totalUsage)
        forceQuit = try values.decodeIfPresent(Bool.self, forKey: .forceQuit) ?? false
        backgroundWork = try values.decodeIfPresent(BackgroundWorkMemory.self, forKey: .backgroundWork) ?? .init()
    }
}

/// What §7 keeps for an app across its processes, as plain values: the background push held for it and the
/// pushes that woke it within the rate window, its legacy fetch schedule (interval, start, backoff), and the
/// location monitoring that relaunches it. Empty by default (an app that never used any of these).
public struct BackgroundWorkMemory: Hashable, Sendable, Codable {
    /// The newest background push held back, with its payload and arrival.
    public var heldPush: HeldPush?
    /// When background pushes woke the app, within the rate limit's window.
    public var pushWakes: [Instant] = []
    /// The interval from `setMinimumBackgroundFetchInterval(_:)`; nil is `backgroundFetchIntervalNever`.
    public var fetchInterval: Double?
    /// When the fetch interval started counting, and its multiplier after slow or failed fetches.
    public var fetchSince: Instant = .zero
    public var fetchBackoff: Double = 1
    /// Significant-change and region monitoring (regions by identifier, sorted).
    public var significantLocationChanges = false
    public var monitoredRegions: [String] = []

    public init() {}

    /// Decodes the memory, also one stored before a field existed: a missing field is its empty default.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        heldPush = try values.decodeIfPresent(HeldPush.self, forKey: .heldPush)
        pushWakes = try values.decodeIfPresent([Instant].self, forKey: .pushWakes) ?? []
        fetchInterval = try values.decodeIfPresent(Double.self, forKey: .fetchInterval)
        fetchSince = try values.decodeIfPresent(Instant.self, forKey: .fetchSince) ?? .zero
        fetchBackoff = try values.decodeIfPresent(Double.self, forKey: .fetchBackoff) ?? 1
        significantLocationChanges = try values.decodeIfPresent(Bool.self, forKey: .significantLocationChanges) ?? false
        monitoredRegions = try values.decodeIfPresent([String].self, forKey: .monitoredRegions) ?? []
    }
}
