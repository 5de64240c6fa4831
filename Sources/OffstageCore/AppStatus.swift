/// One app as hosts read it (`BackgroundSystem.app(_:)`): its life-cycle state, manifest, requests, assertions,
/// usage, CPU priority, continuous modes and what a restarted host would adopt of its process. Read-only, made on
/// demand from the app's record; an app that is not installed reads as one that never ran.
public struct AppStatus: Sendable {
    /// The app's record; nil when it is not installed.
    private let record: AppRecord?
    /// The continued-processing requests queued for a slot, of every app: the app's own are among its pending ones.
    private let continuedQueue: [(app: BundleID, request: TaskRequest)]
    /// The CPU priority last sent for the app; nil while it is suspended or not running.
    public let cpuPriority: CPUPriority?
    /// The system's time, wall clock and policy, which the usage tier is worked out with.
    private let now: Instant
    private let clock: WallClock
    private let policy: SharedPolicy

    init(
        record: AppRecord?, continuedQueue: [(app: BundleID, request: TaskRequest)], cpuPriority: CPUPriority?,
        now: Instant, clock: WallClock, policy: SharedPolicy
    ) {
        self.record = record
        self.continuedQueue = continuedQueue
        self.cpuPriority = cpuPriority
        self.now = now
        self.clock = clock
        self.policy = policy
    }

    /// The app's life-cycle state; `.notRunning` for an app that is not installed.
    public var state: AppState { record?.state ?? .notRunning }

    /// The installed app's manifest.
    public var manifest: AppManifest? { record?.manifest }

    /// Whether the user swiped the app away since they last opened it.
    public var isForceQuit: Bool { record?.forceQuit ?? false }

    /// Requests submitted and not yet started (continued-processing ones waiting for a slot included), as copies.
    public var pendingRequests: [TaskRequest] {
        let pending = record?.pending ?? []
        guard let id = record?.id, continuedQueue.contains(where: { $0.app == id }) else { return pending }
        return pending + continuedQueue.filter { $0.app == id }.map(\.request)
    }

    /// Outstanding `beginBackgroundTask` identifiers, in order.
    public var outstandingAssertions: [Int] { record?.assertions.keys.sorted() ?? [] }

    /// The user's use of the app (launches, time on screen, last use), as the judgement reads it.
    public var usage: UsageHistory { record?.usage ?? UsageHistory() }

    /// The app's usage tier now; `.never` for an app that is not installed.
    public var usageTier: UsageTier {
        record?.usageTier(at: now, clock: clock, policy: policy.value.judgement) ?? .never
    }

    /// How the app's tasks have ended, as the judgement scores it.
    public var cooperation: Cooperation { record?.cooperation ?? Cooperation() }

    /// Maintenance wakes the app's work started.
    public var wakeUps: Int { record?.wakeUps ?? 0 }

    /// Everything the app has been reported to use since it was installed.
    public var totalUsage: ResourceUsage { record?.totalUsage ?? ResourceUsage() }

    /// Continuous modes active for the app now (audio playing, location updates, a call…).
    public var activeBackgroundModes: Set<BackgroundMode> { record?.backgroundEvents.activeModes ?? [] }

    /// The app's live process as a restarted host would adopt it (`BackgroundSystem.adoptProcess`); nil when it
    /// has none (or it is ending).
    public var processMemory: ProcessMemory? {
        guard let record, record.state.hasProcess, record.terminating == nil else { return nil }
        return ProcessMemory(
            state: record.state, launchReason: record.launchReason, launchCompleted: record.launchCompleted,
            registered: record.registered, activeModes: record.backgroundEvents.activeModes)
    }
}
