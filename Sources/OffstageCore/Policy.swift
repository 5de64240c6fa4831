/// Every number the system uses, with iOS's published or observed value as the default.
/// A scenario or a test changes a value here instead of editing the code that uses it.
public struct Policy: Hashable, Sendable, Codable {
    /// Seconds an app has to return from `applicationDidEnterBackground(_:)` before it is killed.
    public var didEnterBackgroundDeadline: Double = 5
    /// Seconds an app has to return from `applicationWillTerminate(_:)`.
    public var willTerminateDeadline: Double = 5
    /// Seconds of background time an app gets for its `beginBackgroundTask` assertions, shared by all.
    public var backgroundTimeAllowance: Double = 30
    /// Seconds before the background time runs out at which expiration handlers are called.
    public var assertionExpirationWarning: Double = 5
    /// Outstanding assertions an app may hold; one more crashes it (iOS: about 1000).
    public var maxOutstandingAssertions: Int = 1000
    /// Pending `BGAppRefreshTaskRequest`s per app.
    public var maxPendingRefreshRequests: Int = 1
    /// Pending `BGProcessingTaskRequest`s per app.
    public var maxPendingProcessingRequests: Int = 10
    /// Seconds an app-refresh task may run before it is expired.
    public var refreshRuntime: Double = 30
    /// Seconds a processing task may run before it is expired (iOS says "minutes").
    public var processingRuntime: Double = 600
    /// Seconds after its expiration handler within which a task must call `setTaskCompleted`.
    public var expirationGrace: Double = 5
    /// Battery level (0–1) below which, off the charger, only essential work runs.
    public var criticalBatteryLevel: Double = 0.20
    /// Seconds the screen must have been off and locked before the device counts as idle.
    public var deviceIdleDelay: Double = 15 * 60
    /// Continued-processing tasks that may run at once on the device.
    public var maxConcurrentContinuedProcessingTasks: Int = 3
    /// Memory an app is assumed to use when the host reports nothing (bytes).
    public var defaultMemoryFootprint: Int = 50_000_000
    /// Usage tiers, quotas, launch prediction, budgets, coalescing and cooperation.
    public var judgement = JudgementPolicy()

    // MARK: Continued processing and resource limits
    /// Seconds a running continued-processing task's progress may stay still before it is expired.
    public var continuedProcessingStallTimeout: Double = 60
    /// Seconds after its start beyond which a continued-processing task's estimated completion makes
    /// the system ask the user whether it should go on.
    public var continuedProcessingSlowLimit: Double = 30 * 60
    /// Seconds the progress UI shows a finished task's outcome before it dismisses itself
    /// (an assumption: Apple publishes no value).
    public var continuedProcessingOutcomeDisplay: Double = 5
    /// CPU share of one core (0–1), averaged over `backgroundCPUWindow`, above which a background app is killed.
    public var backgroundCPULimit: Double = 0.8
    /// Seconds over which the CPU monitor averages a background app's CPU use.
    public var backgroundCPUWindow: Double = 60
    /// Memory (bytes) above which an app running in the background is killed.
    public var backgroundMemoryLimit: Int = 50_000_000

    // MARK: Energy
    /// What CPU, GPU, bytes, the cellular tail, wake-ups, the screen and the baseline cost (§9).
    public var power = PowerModel()

    // MARK: Background pushes, legacy fetch and background modes (§7)
    /// Background pushes that may wake an app within `backgroundPushRateWindow` (Apple: "two or three per hour").
    public var backgroundPushRateLimit: Int = 3
    /// The rolling window of the push rate limit, in seconds.
    public var backgroundPushRateWindow: Double = 3600
    /// Seconds an app has to call a background push's completion handler before it is killed.
    public var backgroundPushRuntime: Double = 30
    /// Seconds an app has to call a background fetch's completion handler before it is killed.
    public var backgroundFetchRuntime: Double = 30
    /// The shortest fetch interval the system uses (`backgroundFetchIntervalMinimum` means this one).
    public var minimumBackgroundFetchInterval: Double = 15 * 60
    /// A fetch that takes longer than this many seconds counts as slow: the interval doubles.
    public var slowBackgroundFetch: Double = 10
    /// The largest factor slow or failed fetches may multiply the fetch interval by.
    public var maxBackgroundFetchBackoff: Int = 16
    /// Seconds a significant-location-change or region event keeps the app running in the background.
    public var locationEventRuntime: Double = 10

    // MARK: Rate limiting and the factors by kind of work (issue 16, items 6, 7, 10)
    /// Seconds the system leaves between two discretionary launches (refresh and processing tasks) of one
    /// app: iOS spaces such work but publishes no figure; this default is ours (see BENCHMARKS.md).
    public var discretionaryRateLimit: Double = 10 * 60
    /// Seconds after which refresh tasks are expired instead of `refreshRuntime`, as seen in the field (2–5 s),
    /// so an app can test that it survives it; 0, the default, turns it off.
    public var refreshEarlyExpiry: Double = 0

    // MARK: Life cycle and background time, as iOS does them (issue 16)
    /// Seconds an app may block launching or entering the foreground before the watchdog kills it (`0x8badf00d`);
    /// ours: Apple says "about 20 seconds" (WWDC20 "Why is my app getting killed?") and gives no exact number.
    public var transitionWatchdogTimeout: Double = 20
    /// Seconds of background time for assertions while Low Power Mode is on; ours: Apple says only that Low
    /// Power Mode reduces the time available (`backgroundRefreshStatus`'s documentation).
    public var lowPowerModeBackgroundTimeAllowance: Double = 15
    /// Battery level (0–1) at which iOS turns Low Power Mode off itself while charging (Apple: 80 %).
    public var lowPowerModeOffWhileChargingLevel: Double = 0.80

    /// Seconds an app has to return from `callback` before the watchdog kills it; nil for callbacks with no limit.
    public func watchdogTimeout(for callback: LifecycleCallback) -> Double? {
        switch callback {
        case .didEnterBackground: didEnterBackgroundDeadline
        case .willTerminate: willTerminateDeadline
        case .willFinishLaunching, .didFinishLaunching, .willEnterForeground, .didBecomeActive, .beginRequest:
            transitionWatchdogTimeout
        default: nil
        }
    }

    // MARK: Background URLSession (issue 16, item 8)
    /// Seconds the resume rate limiter holds the second background wake for a background session's events after
    /// the first; it doubles at each further wake until the user opens the app (Apple's DTS describes the doubling
    /// but gives no figure: this default is ours).
    public var backgroundSessionWakeDelay: Double = 60
    /// Seconds an app woken for its background session's events has to call the completion handler of
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)` (ours, as for pushes and fetches).
    public var backgroundSessionEventsRuntime: Double = 30

    /// Seconds a task of this kind may run before it is expired; nil for continued processing, which
    /// runs until it completes (its progress is watched instead).
    public func runtime(for kind: TaskKind) -> Double? {
        switch kind {
        case .appRefresh: refreshEarlyExpiry > 0 ? min(refreshEarlyExpiry, refreshRuntime) : refreshRuntime
        case .processing: processingRuntime
        case .continuedProcessing: nil
        }
    }

    /// iOS's defaults.
    public static let iOS = Policy()

    public init() {}
}

/// A policy held once and shared by reference: the system's current policy, which every constraint
/// context reads; replaced whole when the policy changes.
final class SharedPolicy: Sendable {
    let value: Policy
    init(_ value: Policy) { self.value = value }
}
