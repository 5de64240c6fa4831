/// The iOS background-execution system as a pure state machine: life cycle, assertions,
/// `BGTaskScheduler` and its scheduler. Hosts feed it events and app calls; it returns effects.
/// It never reads a clock or does I/O: every entry point takes the time of the event.
public struct BackgroundSystem: Sendable {
    /// The numbers the system works by. A change of it, of the settings, the wall clock or the constraints (which
    /// every judgement reads) forgets every app's kept judgement and usage tier (`forgetKeptJudgements`).
    public internal(set) var policy: Policy {
        _read { yield sharedPolicy.value }
        set {
            sharedPolicy = SharedPolicy(newValue)
            judgementFollowsPolicy()
            forgetKeptJudgements()
        }
    }
    /// The policy, kept once and shared with the constraint contexts: held inline, its hundreds of bytes were
    /// copied with the system at every call of one of its non-mutating methods from a mutating one.
    private var sharedPolicy: SharedPolicy
    public internal(set) var device: DeviceState
    public internal(set) var settings: UserSettings {
        didSet { forgetKeptJudgements() }
    }
    public internal(set) var wallClock: WallClock {
        didSet { forgetKeptJudgements() }
    }
    /// The constraints the scheduler applies and what they look at (`constraints`, Constraints/).
    var constraintSet = ConstraintSet(.standard)
    /// The time of the latest event: the system's "now".
    public internal(set) var now: Instant = .zero

    var apps = AppTable()
    /// Installed apps in installation order: every loop over apps uses it, for determinism.
    public internal(set) var installed: [BundleID] = []
    /// The app on screen (active or inactive), if any.
    public internal(set) var foregroundApp: BundleID?
    /// The app to bring back when the device is unlocked.
    var appUnderLock: BundleID?
    var nextToken = 1
    var nextTaskID = 1
    var outbox: [Effect] = []
    /// Which kinds of records are handed to the host (nil: every kind). A host that reads a few kinds (an
    /// evaluation reads two of the dozen a refresh makes) is spared carrying out the others.
    /// A test of the kind, not a set: a set of kinds hashes each kind's name.
    public var keepsRecords: (@Sendable (RecordKind) -> Bool)?
    /// The scheduler's system-wide state: apps to review, reviews to come, running tasks, the continued-processing
    /// queue, maintenance wakes (Scheduling/).
    var scheduler = Scheduler()
    /// The judgement's controllers: the launch model, the refresh energy use, the budgets (Judgement/).
    var judgement: JudgementControllers
    /// Apps handling (or, until their next settle, that handled) a push or fetch: the device is awake for them.
    var appsHandlingWakeEvents = AppsHandlingWakeEvents()
    /// Continued-processing progress and UI, CPU priorities and CPU reports (see `Monitors`).
    var monitors = Monitors()
    /// The energy account (§9): the ledger, the steady draws integrated so far, the radio tail.
    var energyMeter = EnergyMeter()
    /// Background URLSession transfers the system carries on for apps (BackgroundTransfers/).
    var backgroundTransfers = BackgroundTransfers()
    /// Local notifications waiting for their time or shown in Notification Center (Notifications/).
    var localNotifications = LocalNotifications()

    public init(
        policy: Policy = .iOS, device: DeviceState = DeviceState(), settings: UserSettings = UserSettings(),
        wallClock: WallClock = WallClock(epochAtZero: 0)
    ) {
        sharedPolicy = SharedPolicy(policy)
        self.device = device
        self.settings = settings
        self.wallClock = wallClock
        judgement = JudgementControllers(policy.judgement)
    }

    // MARK: Entry points

    /// Installs an app (or updates its manifest), not running.
    public mutating func install(_ manifest: AppManifest, at time: Instant) -> [Effect] {
        begin(at: time)
        let id = manifest.bundleIdentifier
        if !apps.contains(id) {
            apps.insert(
                AppRecord(
                    manifest: manifest, installIndex: installed.count, memoryFootprint: policy.defaultMemoryFootprint))
            installed.append(id)
        } else {
            apps[id].manifest = manifest
        }
        record(
            id, .installed,
            reason: "modes: \(manifest.backgroundModes.sorted().map(\.rawValue).joined(separator: ", "))")
        return finish()
    }

    /// Handles something the user, the device or a process did at `time`.
    public mutating func handle(_ event: SystemEvent, at time: Instant) -> [Effect] {
        begin(at: time)
        if device.isShutDown, event.needsDeviceOn {
            record(
                event.app, .log,
                reason: "ignored: the device is off (its battery is empty) until the charger is connected")
        } else {
            apply(event)
        }
        if device.startUpIfCharging() {
            record(nil, .device, reason: "the charger is connected: the device starts up (locked)")
            reviewEveryApp()
        }
        return finish()
    }

    /// Answers a call from `app`'s code at `time`, with the effects it causes.
    public mutating func call(_ call: AppCall, from app: BundleID, at time: Instant) -> (AppCallResult, [Effect]) {
        begin(at: time)
        if apps.contains(app), !call.onlyReads { reviewAgain(app) }
        let result: AppCallResult
        if apps.contains(app), apps[app].state.hasProcess {  // no copy of the record alive while `answer` changes it
            result = answer(call, from: app)
        } else {
            result = .notRunning
        }
        return (result, finish())
    }

    /// The earliest time at which something will happen without a new event; nil if none.
    /// Hosts sleep (or jump virtual time) until then and send `.tick`.
    public var nextDueTime: Instant? {
        var next: Instant?
        func consider(_ time: Instant?) {  // the earliest time after now, with no array built per step
            guard let time, time > now, next.map({ time < $0 }) ?? true else { return }
            next = time
        }
        consider(scheduler.nextReview?.at)
        consider(criticalBatteryDueTime)
        consider(emptyBatteryDueTime)
        consider(lowPowerModeOffDueTime)
        // Listed only while one is watched, and not by a closure: capturing `self`, it would copy the whole system.
        let running = monitors.progress.isWatching ? continuedRuns : []
        for time in monitors.progress.dueTimes(running: running, policy: policy) { consider(time) }
        for time in backgroundTransfers.dueTimes { consider(time) }
        consider(localNotifications.nextDueTime)
        return next
    }

    // MARK: Reading

    /// The app `id` as hosts read it: its state, manifest, requests, assertions, usage, CPU priority and modes.
    public func app(_ id: BundleID) -> AppStatus {
        let record = apps.lookUp(id)
        return AppStatus(
            record: record, continuedQueue: scheduler.continuedQueue,
            cpuPriority: record == nil ? nil : monitors.cpuPriority(at: apps.position(of: id)), now: now,
            clock: wallClock, policy: sharedPolicy)
    }

    /// The app switcher: apps with a live process, most recently used first (the app on screen,
    /// which the previous one left at the same instant, before all others).
    public var switcher: [BundleID] {
        installed.filter { apps[$0].state.hasProcess }
            .enumerated()
            .sorted { a, b in
                let (fa, fb) = (a.element == foregroundApp, b.element == foregroundApp)
                if fa != fb { return fa }
                let (ua, ub) = (apps[a.element].lastUsed, apps[b.element].lastUsed)
                return ua != ub ? ua > ub : a.offset < b.offset
            }
            .map(\.element)
    }

    /// Tasks running now, on every app.
    public var runningTasks: [TaskRun] {
        var runs: [TaskRun] = []
        for position in scheduler.appsWithTasks { runs += apps[apps.id(at: position)].running }
        return runs
    }

    /// Continued-processing tasks running now, on every app.
    var continuedRuns: [TaskRun] {
        var runs: [TaskRun] = []  // a loop: listing every running task first built an array per settle
        for position in scheduler.appsWithTasks {
            let id = apps.id(at: position)
            guard apps[id].continuedRunCount > 0 else { continue }  // its runs are not read: most run refreshes
            runs += apps[id].running.filter { $0.request.kind == .continuedProcessing }
        }
        return runs
    }

    // MARK: Plumbing shared by the extensions

    /// Starts an entry point at `time`: an empty outbox with room for a typical entry point's effects (one
    /// allocation, not one per doubling), the clock moved on, energy accounted to now.
    mutating func begin(at time: Instant) {
        outbox = []
        outbox.reserveCapacity(8)
        if time > now { now = time }
        meterEnergy(.timePassed)
        shutDownIfBatteryEmpty()
    }

    mutating func finish() -> [Effect] {
        settle()
        let effects = outbox
        outbox = []
        return effects
    }

    mutating func emit(_ effect: Effect) {
        if keepsRecords != nil, case .record(let record) = effect, !handsOver(record.kind) { return }
        outbox.append(effect)
    }

    /// Whether records of `kind` are handed to the host (`keepsRecords`); asked before a record is made.
    func handsOver(_ kind: RecordKind) -> Bool { keepsRecords?(kind) ?? true }

    /// Keeps a decision or fact for the host. A record is output only: which apps to review again is said by
    /// the entry points and transitions that change them. The words are written only when the host is handed
    /// records of this kind (a lean run drops most).
    mutating func record(
        _ app: BundleID?, _ kind: RecordKind, task: String? = nil, reason: @autoclosure () -> String
    ) {
        guard handsOver(kind) else { return }
        outbox.append(.record(Record(at: now, app: app, kind: kind, task: task, reason: reason())))
    }

    /// Keeps a typed fact, its words rendered from it; output only, and made only when handed over, as
    /// `record(_:_:task:reason:)` says.
    mutating func record(
        _ app: BundleID?, _ kind: RecordKind, task: String? = nil, _ detail: @autoclosure () -> RecordDetail
    ) {
        guard handsOver(kind) else { return }
        outbox.append(.record(Record(at: now, app: app, kind: kind, task: task, detail: detail(), on: wallClock)))
    }

    /// What the constraints see of the system and of the app `id` now; `judgement` is the app's judgement context
    /// when the caller already worked it out (a pass over its requests reuses one), else it is worked out here.
    func context(for id: BundleID, judgement: JudgementContext? = nil) -> ConstraintContext {
        let app = apps[id]  // looked up once: each lookup probes the table
        return ConstraintContext(
            now: now, sharedPolicy: sharedPolicy, device: device, settings: settings, wallClock: wallClock,
            app: id, appState: app.projectedState, appForceQuit: app.forceQuit,
            runningIdentifiers: app.runningIdentifiers, judgement: judgement ?? judgementContext(for: id))
    }
}
