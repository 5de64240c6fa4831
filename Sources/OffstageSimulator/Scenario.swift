public import OffstageCore
public import OffstageKit

/// A simulation to run: the device, the settings, the apps and what the user does, over time.
/// Loaded from YAML by `ScenarioLoader`; the same scenario and seed always give the same records.
public struct Scenario: Sendable {
    /// A title for reports.
    public var name: String
    /// Where it came from (a file path, or "built-in demo"): errors and reports name it.
    public var source: String
    /// Seeds every random draw (e.g. `work: 5s..10s`).
    public var seed: UInt64
    /// Wall-clock seconds since 1970 at the start of the simulation.
    public var startEpoch: Double
    public var policy: Policy
    /// Which policy decides when discretionary work runs: the judgement, or a baseline of the evaluation.
    public var strategy: SchedulingStrategy = .judgement
    public var device: DeviceState
    public var settings: UserSettings
    public var apps: [ScenarioApp]
    public var timeline: [TimelineEntry]
    /// Seconds after the start at which the run stops; nil: one hour after the last timeline entry.
    public var duration: Double?
    // MARK: Usage traces
    /// Seconds the user's time zone is ahead of UTC: the system reads usage (hour, weekday) in local time.
    public var utcOffset: Double = 0
    /// What the loader accepted but doubts was meant (a mistyped Info.plist key, an unknown background mode).
    public var warnings: [ScenarioError] = []
    /// The network apps reach through `URLSession` (Network/SimulatedNetwork.swift).
    public var network = SimulatedNetwork()

    public init(
        name: String, source: String, seed: UInt64 = 1, startEpoch: Double = 1_795_219_200,
        policy: Policy = .iOS, device: DeviceState = DeviceState(), settings: UserSettings = UserSettings(),
        apps: [ScenarioApp] = [], timeline: [TimelineEntry] = [], duration: Double? = nil
    ) {
        self.name = name
        self.source = source
        self.seed = seed
        self.startEpoch = startEpoch
        self.policy = policy
        self.device = device
        self.settings = settings
        self.apps = apps
        self.timeline = timeline
        self.duration = duration
    }
}

/// One app of a scenario: its manifest and either real Swift code (by name) or a declarative behaviour.
public struct ScenarioApp: Sendable {
    public var manifest: AppManifest
    /// The name of a Swift app the host was given (see `SwiftAppCatalog`), e.g. "ColorFeed".
    public var code: String?
    /// What a declarative app does; used when `code` is nil.
    public var behaviour: AppBehaviour
    /// Memory the app uses, in bytes (jetsam reads it).
    public var memoryFootprint: Int?
    /// The Info.plist's `UIApplicationSceneManifest`: a scene-based app gets scene callbacks.
    public var sceneManifest: OffstageSceneManifest?

    public init(
        manifest: AppManifest, code: String? = nil, behaviour: AppBehaviour = AppBehaviour(),
        memoryFootprint: Int? = nil
    ) {
        self.manifest = manifest
        self.code = code
        self.behaviour = behaviour
        self.memoryFootprint = memoryFootprint
    }
}

/// A length of virtual time: fixed, or drawn uniformly from a range with the scenario's seed.
public enum WorkDuration: Hashable, Sendable {
    case fixed(Double)
    case between(Double, Double)
}

/// What a declarative app does in its callbacks and tasks, written against OffstageKit by `ScriptedApp`.
public struct AppBehaviour: Sendable {
    /// Identifiers whose launch handlers it registers in `didFinishLaunching` (before it returns).
    public var register: [String] = []
    /// Actions in `application(_:didFinishLaunchingWithOptions:)`, after registering.
    public var onLaunch: [BehaviourAction] = []
    /// Actions in `applicationDidBecomeActive(_:)`.
    public var onBecomeActive: [BehaviourAction] = []
    /// Actions in `applicationDidEnterBackground(_:)`.
    public var onEnterBackground: [BehaviourAction] = []
    /// Actions when the user taps a named control in the app (`tap APP ACTION` in the timeline).
    public var onTap: [String: [BehaviourAction]] = [:]
    /// What each task's launch handler does, by identifier (a wildcard pattern matches its tasks).
    public var tasks: [String: TaskBehaviour] = [:]
    // MARK: Background pushes, legacy fetch and location (§7)
    /// What `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` does.
    public var onPush = EventBehaviour()
    /// What `application(_:performFetchWithCompletionHandler:)` does.
    public var onFetch = EventBehaviour()
    /// Actions when a location event arrives (the app's `CLLocationManager` is made at launch if non-empty).
    public var onLocation: [BehaviourAction] = []

    public init() {}
}

/// What a declarative app's push or fetch handler does: work, actions, then the completion handler.
public struct EventBehaviour: Hashable, Sendable {
    /// How long the work takes before the completion handler is called.
    public var work: WorkDuration = .fixed(1)
    /// The result it reports; nil never calls the completion handler (the watchdog kills the app).
    public var result: BackgroundFetchResult? = .newData
    /// Actions just before the completion handler.
    public var then: [BehaviourAction] = []

    public init() {}
}

/// One step of a declarative app.
public enum BehaviourAction: Hashable, Sendable {
    /// `BGTaskScheduler.shared.submit(_:)` of a request made from the template.
    case submit(RequestTemplate)
    /// `beginBackgroundTask(withName:)`, work for the duration, then `endBackgroundTask` unless `leak`.
    case backgroundTask(name: String, work: WorkDuration, leak: Bool, load: WorkLoad = WorkLoad())
    /// Block the callback for this long (a slow `didEnterBackground`, say).
    case work(WorkDuration, load: WorkLoad = WorkLoad())
    /// Work that goes on after the callback returns, for this long (content an app downloads as it comes on
    /// screen): the load is the process's, the callback is not held.
    case load(WorkDuration, load: WorkLoad = WorkLoad())
    /// Register a launch handler now (continued-processing identifiers are registered this way).
    case register(String)
    case cancel(String)
    case cancelAll
    // MARK: Legacy fetch, background modes and location (§7)
    /// `setMinimumBackgroundFetchInterval(_:)`; nil is `backgroundFetchIntervalNever`, 0 the minimum.
    case fetchInterval(Double?)
    /// The work of a continuous mode starts (`location`: background location updates) or stops.
    case startMode(BackgroundMode)
    case stopMode(BackgroundMode)
    /// `start/stopMonitoringSignificantLocationChanges()`.
    case monitorSignificantChanges(Bool)
    /// `startMonitoring(for:)` a region with this identifier.
    case monitorRegion(String)
    // MARK: Background URLSession (issue 16, item 8)
    /// A download task of a background session (`background(withIdentifier:)`), resumed now.
    case backgroundDownload(BackgroundDownload)
}

/// A declarative app's background download: its URL and its session's configuration.
public struct BackgroundDownload: Hashable, Sendable {
    public var url: String
    public var session: String
    public var isDiscretionary = false
    public var sendsLaunchEvents = true

    public init(url: String, session: String) {
        self.url = url
        self.session = session
    }
}

/// How to build a `BGTaskRequest` when a declarative app submits one.
public struct RequestTemplate: Hashable, Sendable {
    public var identifier: String
    public var kind: TaskKind
    /// `earliestBeginDate` as seconds after the moment of submission.
    public var after: Double?
    public var requiresNetworkConnectivity = false
    public var requiresExternalPower = false
    public var title = ""
    public var subtitle = ""
    public var strategy: SubmissionStrategy = .queue
    public var requiresGPU = false
    /// Set for a `BGHealthResearchTaskRequest`: the file protection its data needs.
    public var protectionTypeOfRequiredData: String?

    public init(identifier: String, kind: TaskKind, after: Double? = nil) {
        self.identifier = identifier
        self.kind = kind
        self.after = after
    }

    /// The request's values, without its earliest begin date (set at submission, from `after`).
    var taskRequest: TaskRequest {
        TaskRequest(
            identifier: identifier, kind: kind, requiresNetworkConnectivity: requiresNetworkConnectivity,
            requiresExternalPower: requiresExternalPower, title: title, subtitle: subtitle, strategy: strategy,
            requiresGPU: requiresGPU, protectionTypeOfRequiredData: protectionTypeOfRequiredData)
    }
}

/// What a task's launch handler does when it runs.
public struct TaskBehaviour: Hashable, Sendable {
    /// How long the work takes before `setTaskCompleted`.
    public var work: WorkDuration = .fixed(1)
    /// What the work uses besides time.
    public var load = WorkLoad()
    /// The `success:` it reports.
    public var success = true
    public var onExpiration: ExpirationBehaviour = .stop
    /// Actions taken just before completing (resubmitting the next refresh, say).
    public var then: [BehaviourAction] = []

    public init() {}
}

/// What a stretch of declarative work uses besides time: CPU, GPU and network bytes. The app reports it
/// (`OffstageWork.report`) when the work ends, or the part done when it is stopped, and the energy ledger prices it.
public struct WorkLoad: Hashable, Sendable {
    /// CPU cores kept busy while working (0.3: a third of one core; 2: two cores).
    public var cpu: Double
    /// The fraction of the GPU kept busy.
    public var gpu: Double
    /// Network bytes over the whole work, on whatever network the device is on.
    public var bytes: Int

    public init(cpu: Double = 0.3, gpu: Double = 0, bytes: Int = 0) {
        self.cpu = cpu
        self.gpu = gpu
        self.bytes = bytes
    }
}

/// What a declarative task does about its expiration handler.
public enum ExpirationBehaviour: String, Hashable, Sendable, CaseIterable {
    /// Sets a handler that stops the work and completes unsuccessfully (the right thing).
    case stop
    /// Sets a handler that does nothing: the work goes on, and the watchdog may kill the app.
    case ignore
    /// Sets no handler: the system completes the task unsuccessfully itself.
    case none
}

/// One moment of the user's timeline.
public struct TimelineEntry: Hashable, Sendable {
    /// Seconds after the start of the simulation.
    public var at: Double
    public var action: UserAction
    /// The line of the scenario file it came from (0 when built in code).
    public var line: Int

    public init(at: Double, action: UserAction, line: Int = 0) {
        self.at = at
        self.action = action
        self.line = line
    }
}

/// What the user (or the world) does at a moment of the timeline.
public enum UserAction: Hashable, Sendable {
    /// An event for the system: open, home, lock, battery, settings…
    case system(SystemEvent)
    /// The user taps a named control inside an app that is on screen.
    case tap(BundleID, action: String)
}
