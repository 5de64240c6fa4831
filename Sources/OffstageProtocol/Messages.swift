public import OffstageCore

/// What a client sends the daemon: an app's call into the system, or a control command (`offstage ctl`).
/// `id` is the client's own number for the request; the reply carries it back.
public struct ClientMessage: Codable, Sendable, Hashable {
    public var id: Int
    public var body: Body

    public init(id: Int, body: Body) {
        self.id = id
        self.body = body
    }

    /// The two kinds of request.
    public enum Body: Codable, Sendable, Hashable {
        /// An app's call, from a process the daemon launched. The caller is known from the kernel;
        /// `bundle`, if given, must be that identity or the call is refused.
        case call(call: AppCall, bundle: BundleID?)
        /// A command of `offstage ctl`.
        case control(command: ControlCommand)
        // MARK: Energy
        /// The app's own account of work it just did (`OffstageWork.report`), from a launched app only.
        /// One-way: the daemon sends no reply. It charges the GPU time and network bytes, which it cannot
        /// measure; CPU time it measures itself from the app's control group, so the reported CPU is ignored.
        case work(WorkReport)
    }
}

/// Work an app reports having done (`OffstageWork` on the wire): CPU and GPU seconds, network bytes, and
/// the seconds the work was spread over.
public struct WorkReport: Codable, Sendable, Hashable {
    public var cpuSeconds: Double
    public var gpuSeconds: Double
    public var bytes: Int
    public var seconds: Double

    public init(cpuSeconds: Double, gpuSeconds: Double, bytes: Int, seconds: Double) {
        self.cpuSeconds = cpuSeconds
        self.gpuSeconds = gpuSeconds
        self.bytes = bytes
        self.seconds = seconds
    }
}

/// What the daemon sends a client: replies to its requests, errors, and (to apps) the system's
/// effects to carry out in the app's code.
public enum ServerMessage: Codable, Sendable, Hashable {
    /// The answer to the app call with this `id`.
    case result(id: Int, result: AppCallResult)
    /// The answer to the control command with this `id`.
    case reply(id: Int, reply: ControlReply)
    /// The request with this `id` (nil: a frame that could not be read) was refused.
    case error(id: Int?, message: String)
    /// For an app: a life-cycle callback, a task launch or an expiration to run (`deliver`, `startTask`,
    /// `expireTask`, `expireBackgroundTasks`).
    case effect(effect: Effect)
    /// For an app: the user tapped the control named `action` (`offstage ctl tap`).
    case userAction(action: String)
}

/// The commands of `offstage ctl`. Those that change anything need the daemon's owner (or its group).
public enum ControlCommand: Codable, Sendable, Hashable {
    /// Installs (or updates) the app bundle at this absolute path: a `Name.app` folder.
    case install(path: String)
    /// Something the user, the settings or the debugger did: open, home, lock, swipe, settings, run-task…
    case event(event: SystemEvent)
    /// The user taps the control named `action` in the app (an `OffstageUserActions` app).
    case tap(bundle: BundleID, action: String)
    /// Overrides device readings (set fields only); `reset` returns every field to the probes first.
    case device(overrides: DeviceOverrides, reset: Bool)
    /// Installed apps with their processes.
    case apps
    /// Requests and tasks, with the reason each waits.
    case tasks
    /// The latest decisions, for one app or all, newest last.
    case why(bundle: BundleID?, limit: Int)
    /// The daemon, the freezer it uses, the device and the settings.
    case status
    // MARK: Continued processing
    /// The system's progress UI: every running continued-processing task (title, progress, the question the
    /// system asks, if any) and finished ones still showing their outcome (`ctl watch`).
    case progress

    /// Whether the command changes something (and so needs the owner or the configured group).
    public var isMutating: Bool {
        switch self {
        case .install, .event, .tap, .device: true
        case .apps, .tasks, .why, .status, .progress: false
        }
    }

    /// Whether only the owner (or the configured group) may send it: what changes something, and the decision
    /// log, which carries push payloads and every app's task names (docs/protocol.md, "Who you are").
    public var needsOwner: Bool {
        if case .why = self { return true }
        return isMutating
    }
}

/// Readings the user or a test forces instead of the probes'; nil fields are probed.
public struct DeviceOverrides: Codable, Sendable, Hashable {
    public var batteryLevel: Double?
    public var charging: Bool?
    public var network: NetworkKind?
    public var thermal: ThermalState?
    /// Memory pressure to report now, in bytes that must be freed (a one-off jetsam event, not kept).
    public var memoryPressureBytes: Int?

    public init(
        batteryLevel: Double? = nil, charging: Bool? = nil, network: NetworkKind? = nil, thermal: ThermalState? = nil,
        memoryPressureBytes: Int? = nil
    ) {
        self.batteryLevel = batteryLevel
        self.charging = charging
        self.network = network
        self.thermal = thermal
        self.memoryPressureBytes = memoryPressureBytes
    }

    /// These overrides with `newer`'s set fields on top.
    public func merged(with newer: DeviceOverrides) -> DeviceOverrides {
        DeviceOverrides(
            batteryLevel: newer.batteryLevel ?? batteryLevel, charging: newer.charging ?? charging,
            network: newer.network ?? network, thermal: newer.thermal ?? thermal)
    }
}

/// The daemon's answer to a control command.
public enum ControlReply: Codable, Sendable, Hashable {
    case ok(message: String)
    case apps(apps: [AppInfo])
    case tasks(tasks: [TaskInfo])
    case records(records: [LoggedRecord])
    case status(status: DaemonStatus)
    case progress(tasks: [ContinuedProcessingUI])
}

/// One installed app and its process, for `ctl apps` and `ctl battery`.
public struct AppInfo: Codable, Sendable, Hashable {
    public var bundle: BundleID
    public var path: String
    public var state: AppState
    public var pid: Int32?
    /// Whether the freezer reports the process frozen (nil: no process).
    public var frozen: Bool?
    public var forceQuit: Bool
    /// CPU seconds the app's processes used since installation (as reported to the core).
    public var cpuSeconds: Double
    /// The resident memory of the app's processes at the last sample, in bytes.
    public var memoryBytes: Int
    // MARK: What the system remembers (kept across restarts of the daemon)
    /// The usage tier the judgement gives the app (`UsageTier`'s raw value).
    public var usageTier: String
    /// The user's launches within the history window (28 days).
    public var launches: Int
    /// The cooperation score, 0–1.
    public var cooperation: Double
    /// The energy charged to the app since installation, in joules.
    public var energyJoules: Double

    public init(
        bundle: BundleID, path: String, state: AppState, pid: Int32?, frozen: Bool?, forceQuit: Bool,
        cpuSeconds: Double, memoryBytes: Int, usageTier: String = "", launches: Int = 0, cooperation: Double = 1,
        energyJoules: Double = 0
    ) {
        self.usageTier = usageTier
        self.launches = launches
        self.cooperation = cooperation
        self.energyJoules = energyJoules
        self.bundle = bundle
        self.path = path
        self.state = state
        self.pid = pid
        self.frozen = frozen
        self.forceQuit = forceQuit
        self.cpuSeconds = cpuSeconds
        self.memoryBytes = memoryBytes
    }
}

/// One request or task, for `ctl tasks` and `ctl watch`: where it stands and why it waits.
public struct TaskInfo: Codable, Sendable, Hashable {
    public var bundle: BundleID
    public var identifier: String
    public var kind: TaskKind
    /// "pending", "queued 2" or "running".
    public var phase: String
    /// Every constraint that blocks it, in words (pending requests only).
    public var waitingFor: [String]
    public var title: String
    public var subtitle: String
    public var progressCompleted: Int64
    public var progressTotal: Int64
    /// Whether the expiration handler has been called (running tasks only).
    public var expired: Bool

    public init(
        bundle: BundleID, identifier: String, kind: TaskKind, phase: String, waitingFor: [String], title: String,
        subtitle: String, progressCompleted: Int64, progressTotal: Int64, expired: Bool
    ) {
        self.bundle = bundle
        self.identifier = identifier
        self.kind = kind
        self.phase = phase
        self.waitingFor = waitingFor
        self.title = title
        self.subtitle = subtitle
        self.progressCompleted = progressCompleted
        self.progressTotal = progressTotal
        self.expired = expired
    }
}

/// A decision of the core as the daemon logged it, with its UTC wall-clock time.
public struct LoggedRecord: Codable, Sendable, Hashable {
    public var time: String
    public var record: Record

    public init(time: String, record: Record) {
        self.time = time
        self.record = record
    }
}

/// The daemon as `ctl status` shows it.
public struct DaemonStatus: Codable, Sendable, Hashable {
    public var pid: Int32
    public var protocolVersion: Int
    public var uptimeSeconds: Double
    /// How apps are suspended: "cgroup v2 freezer", "cgroup v1 freezer" or "SIGSTOP".
    public var freezer: String
    public var socket: String
    public var stateDirectory: String
    public var device: DeviceState
    public var overrides: DeviceOverrides
    public var settings: UserSettings
    /// Load average over one minute and memory pressure ("some avg10", percent), as probed.
    public var loadAverage: Double?
    public var memoryPressure: Double?
    public var installedApps: Int
    public var runningApps: Int
    /// Seconds until the core's next due time, if any.
    public var nextDueIn: Double?
    /// Whether changes to the usage history, budgets or energy ledger wait to be written to the store.
    public var memoryWritePending: Bool
    // MARK: Speed
    /// The last freeze or thaw the daemon carried out, timed (nil before the first).
    public var lastFreezerAction: FreezerAction?

    public init(
        pid: Int32, protocolVersion: Int, uptimeSeconds: Double, freezer: String, socket: String,
        stateDirectory: String, device: DeviceState, overrides: DeviceOverrides, settings: UserSettings,
        loadAverage: Double?, memoryPressure: Double?, installedApps: Int, runningApps: Int, nextDueIn: Double?,
        memoryWritePending: Bool = false, lastFreezerAction: FreezerAction? = nil
    ) {
        self.lastFreezerAction = lastFreezerAction
        self.memoryWritePending = memoryWritePending
        self.pid = pid
        self.protocolVersion = protocolVersion
        self.uptimeSeconds = uptimeSeconds
        self.freezer = freezer
        self.socket = socket
        self.stateDirectory = stateDirectory
        self.device = device
        self.overrides = overrides
        self.settings = settings
        self.loadAverage = loadAverage
        self.memoryPressure = memoryPressure
        self.installedApps = installedApps
        self.runningApps = runningApps
        self.nextDueIn = nextDueIn
    }
}

// MARK: Speed

/// A freeze or thaw the daemon carried out, on the monotonic clock (`CLOCK_MONOTONIC`, nanoseconds since boot,
/// the same for every process): when the core decided it (its effects came back), when the write to the freezer
/// began and when it returned. A benchmark compares them with when the kernel reported the group frozen or thawed.
public struct FreezerAction: Codable, Sendable, Hashable {
    public var app: BundleID
    /// True for a freeze (`.suspend`), false for a thaw (`.resume`).
    public var frozen: Bool
    public var decidedAt: UInt64
    public var writingAt: UInt64
    public var writtenAt: UInt64

    public init(app: BundleID, frozen: Bool, decidedAt: UInt64, writingAt: UInt64, writtenAt: UInt64) {
        self.app = app
        self.frozen = frozen
        self.decidedAt = decidedAt
        self.writingAt = writingAt
        self.writtenAt = writtenAt
    }
}
