@testable import OffstageCore

/// Drives a `BackgroundSystem` the way a host and well-behaved apps would, on a virtual clock.
///
/// Apps answer every delivered callback at once (unless told to hold one), register their launch
/// handlers in `didFinishLaunching`, and by default honour expiration: an expired task is completed
/// unsuccessfully and expired assertions are ended. Every effect is kept, in the order it was emitted.
struct CoreHarness {
    private(set) var system: BackgroundSystem
    /// The virtual clock: the time of the last event or call.
    private(set) var now: Instant = .zero
    /// Every effect the system returned, reactions included, in order.
    private(set) var log: [Effect] = []
    /// The time at which each effect of `log` was returned.
    private(set) var times: [Instant] = []
    /// The identifiers each app registers in `didFinishLaunching` (default: its exact permitted identifiers).
    var handlers: [BundleID: [String]] = [:]
    /// Callbacks an app does not return from when they are delivered, until `release`.
    var holds: [BundleID: Set<LifecycleCallback>] = [:]
    /// The callback each app is holding, with its token.
    private(set) var held: [BundleID: (callback: LifecycleCallback, token: Int)] = [:]
    /// Whether an expiration handler completes its task (`setTaskCompleted(success: false)`).
    var completeOnExpiration = true
    /// Whether assertion expiration handlers end their assertions.
    var endAssertionsOnExpiration = true
    /// The IDs of the tasks handed to apps' launch handlers.
    private var handed: Set<Int> = []
    /// The result apps call a push's or fetch's completion handler with at once; nil holds it until `finish`.
    var backgroundEventAnswer: BackgroundFetchResult? = .newData
    /// Push and fetch deliveries whose completion handler an app is holding, oldest first.
    private(set) var heldEvents: [(app: BundleID, event: BackgroundEvent, token: Int)] = []

    init(
        policy: Policy = .iOS, device: DeviceState = DeviceState(), settings: UserSettings = UserSettings(),
        apps: [AppManifest]
    ) {
        system = BackgroundSystem(policy: policy, device: device, settings: settings)
        for manifest in apps {
            let id = manifest.bundleIdentifier
            handlers[id] = manifest.permittedIdentifiers.filter { !AppManifest.isWildcard($0) }
            process(system.install(manifest, at: now))
        }
    }

    /// The records kept so far.
    var records: [Record] { log.records }

    /// Replaces the constraints the scheduler applies (a host adding its own).
    mutating func useConstraints(_ constraints: [any Constraint]) { system.constraints = constraints }

    // MARK: Driving

    /// Sends an event now and carries out its effects; returns them (reactions included).
    @discardableResult
    mutating func handle(_ event: SystemEvent) -> [Effect] {
        let start = log.count
        process(system.handle(event, at: now))
        return Array(log[start...])
    }

    /// Makes a call from `app`'s code now; returns its result. Its effects are in `log`.
    @discardableResult
    mutating func call(_ call: AppCall, from app: BundleID) -> AppCallResult {
        let (result, effects) = system.call(call, from: app, at: now)
        process(effects)
        return result
    }

    /// Makes a call and returns its result with the effects it caused (reactions included).
    mutating func callWithEffects(_ call: AppCall, from app: BundleID) -> (AppCallResult, [Effect]) {
        let start = log.count
        let result = self.call(call, from: app)
        return (result, Array(log[start...]))
    }

    /// Lets `seconds` pass, ticking at every time the system asked to be woken; returns the effects.
    @discardableResult
    mutating func advance(by seconds: Double) -> [Effect] {
        advance(to: now + seconds)
    }

    /// Lets time pass until `target`, ticking at every due time on the way and at `target`.
    @discardableResult
    mutating func advance(to target: Instant) -> [Effect] {
        let start = log.count
        while let due = system.nextDueTime, due <= target {
            now = due
            process(system.handle(.tick, at: now))
        }
        if target > now {
            now = target
            process(system.handle(.tick, at: now))
        }
        return Array(log[start...])
    }

    /// Charges a wake-up of the device as the scheduler does when it wakes it (not an entry point: no effects).
    mutating func chargeWakeUp(for app: BundleID?) { system.meterEnergy(.wakeUp(for: app)) }

    /// The app returns from the callback it was holding.
    @discardableResult
    mutating func release(_ app: BundleID) -> [Effect] {
        guard let (_, token) = held.removeValue(forKey: app) else { return [] }
        return callWithEffects(.returned(token: token), from: app).1
    }

    /// The app calls the completion handler of the oldest push or fetch it holds, with `result`.
    @discardableResult
    mutating func finishEvent(of app: BundleID, _ result: BackgroundFetchResult) -> [Effect] {
        guard let index = heldEvents.firstIndex(where: { $0.app == app }) else { return [] }
        let held = heldEvents.remove(at: index)
        return callWithEffects(.backgroundEventCompleted(token: held.token, result: result), from: app).1
    }

    /// The app calls `setTaskCompleted(success:)` on its running task with this identifier.
    @discardableResult
    mutating func complete(_ identifier: String, of app: BundleID, success: Bool = true) -> [Effect] {
        guard let run = task(identifier, of: app) else { return [] }
        return callWithEffects(.setTaskCompleted(taskID: run.id, success: success), from: app).1
    }

    /// The running task the app was handed for `identifier`, if any.
    func task(_ identifier: String, of app: BundleID) -> TaskRun? {
        system.runningTasks.first { $0.app == app && $0.request.identifier == identifier && handed.contains($0.id) }
    }

    /// The app's state, as the system sees it.
    func state(of app: BundleID) -> AppState { system.app(app).state }

    // MARK: Reacting

    /// Logs effects in order and reacts as apps would; reactions' effects follow in the same queue.
    private mutating func process(_ effects: [Effect]) {
        var queue = effects
        var next = 0
        while next < queue.count {
            let effect = queue[next]
            next += 1
            log.append(effect)
            times.append(now)
            queue += react(to: effect)
        }
    }

    private mutating func react(to effect: Effect) -> [Effect] {
        switch effect {
        case .deliver(let app, let callback, let token):
            var effects: [Effect] = []
            if callback == .didFinishLaunching {
                for identifier in handlers[app] ?? [] {
                    effects += quietCall(.register(identifier: identifier), from: app)
                }
                if system.app(app).state == .notRunning { return effects }
            }
            if holds[app]?.contains(callback) == true {
                held[app] = (callback, token)
                return effects
            }
            return effects + quietCall(.returned(token: token), from: app)
        case .startTask(_, let run):
            handed.insert(run.id)
            return []
        case .deliverBackgroundEvent(let app, let event, let token):
            guard case .location = event else {
                guard let result = backgroundEventAnswer else {
                    heldEvents.append((app, event, token))
                    return []
                }
                return quietCall(.backgroundEventCompleted(token: token, result: result), from: app)
            }
            return []
        case .expireTask(let app, let taskID):
            guard completeOnExpiration, system.runningTasks.contains(where: { $0.id == taskID }) else { return [] }
            return quietCall(.setTaskCompleted(taskID: taskID, success: false), from: app)
        case .expireBackgroundTasks(let app, let ids):
            guard endAssertionsOnExpiration else { return [] }
            return ids.flatMap { quietCall(.endBackgroundTask($0), from: app) }
        case .record(let record) where record.kind == .terminated:
            if let app = record.app {
                held[app] = nil
                heldEvents.removeAll { $0.app == app }
            }
            return []
        default:
            return []
        }
    }

    /// A call made by the harness itself: its effects are returned for the queue, not processed here.
    private mutating func quietCall(_ call: AppCall, from app: BundleID) -> [Effect] {
        system.call(call, from: app, at: now).1
    }
}

// MARK: Reading effects

extension Array where Element == Effect {
    /// The callbacks delivered to `app`, in order.
    func callbacks(of app: BundleID) -> [LifecycleCallback] {
        compactMap { effect in
            if case .deliver(let target, let callback, _) = effect, target == app { callback } else { nil }
        }
    }

    /// What the host must do for the life cycle and the tasks, in order: every effect but records and
    /// CPU priorities (which `cpuPriorities` reads, for the tests of SPEC §5 "Foreground first").
    var actions: [Effect] {
        filter {
            switch $0 {
            case .record, .setCPUPriority: false
            default: true
            }
        }
    }

    /// The `.setCPUPriority` effects, in order.
    var cpuPriorities: [(BundleID, CPUPriority)] {
        compactMap { if case .setCPUPriority(let app, let priority) = $0 { (app, priority) } else { nil } }
    }

    /// The records of this kind, in order.
    func records(_ kind: RecordKind) -> [Record] { records.filter { $0.kind == kind } }

    /// The tasks handed to apps, in order.
    var startedTasks: [TaskRun] {
        compactMap { if case .startTask(_, let run) = $0 { run } else { nil } }
    }

    /// The §7 events handed to apps, in order.
    var backgroundEvents: [(app: BundleID, event: BackgroundEvent)] {
        compactMap { if case .deliverBackgroundEvent(let app, let event, _) = $0 { (app, event) } else { nil } }
    }

    /// The `.terminate` effects, in order.
    var terminations: [(BundleID, TerminationReason)] {
        compactMap { if case .terminate(let app, let reason) = $0 { (app, reason) } else { nil } }
    }
}

// MARK: Fixtures

/// Apps and requests the tests share.
enum Fixture {
    static let feed: BundleID = "com.example.feed"
    static let mail: BundleID = "com.example.mail"
    static let photos: BundleID = "com.example.photos"

    static func refresh(_ app: BundleID, _ number: Int = 1) -> String {
        number == 1 ? "\(app).refresh" : "\(app).refresh\(number)"
    }
    static func processing(_ app: BundleID, _ number: Int = 1) -> String { "\(app).processing\(number)" }
    static func continued(_ app: BundleID, _ suffix: String) -> String { "\(app).export.\(suffix)" }

    /// An app with `fetch` and `processing`, two refresh identifiers, eleven processing identifiers
    /// and a continued-processing wildcard.
    static func manifest(
        _ app: BundleID, modes: Set<BackgroundMode> = [.fetch, .processing], entitlements: Set<String> = []
    ) -> AppManifest {
        AppManifest(
            bundleIdentifier: app, backgroundModes: modes,
            permittedIdentifiers: [refresh(app), refresh(app, 2)] + (1...11).map { processing(app, $0) } + [
                "\(app).export.*"
            ],
            entitlements: entitlements)
    }

    static func refreshRequest(_ app: BundleID, _ number: Int = 1, earliestBeginDate: Double? = nil) -> TaskRequest {
        TaskRequest(identifier: refresh(app, number), kind: .appRefresh, earliestBeginDate: earliestBeginDate)
    }

    static func processingRequest(
        _ app: BundleID, _ number: Int = 1, network: Bool = false, power: Bool = false
    ) -> TaskRequest {
        TaskRequest(
            identifier: processing(app, number), kind: .processing, requiresNetworkConnectivity: network,
            requiresExternalPower: power)
    }

    static func continuedRequest(
        _ app: BundleID, _ suffix: String, strategy: SubmissionStrategy = .queue, gpu: Bool = false
    ) -> TaskRequest {
        TaskRequest(
            identifier: continued(app, suffix), kind: .continuedProcessing, title: "Export", subtitle: suffix,
            strategy: strategy, requiresGPU: gpu)
    }

    /// iOS's policy without rate limiting: for tests of other rules that start one app's runs back to back.
    static var unspaced: Policy {
        var policy = Policy.iOS
        policy.discretionaryRateLimit = 0
        policy.judgement.processingSpacing = 0
        policy.judgement.littleKnownSpacing = 0
        return policy
    }

    /// iOS's policy with every app as well known as if used for weeks: for tests of other rules that run an app
    /// opened once more often than a little-known app runs (`LittleKnownConstraint`).
    static var knowingEveryApp: Policy {
        var policy = Policy.iOS
        policy.judgement.littleKnownLaunches = 0
        return policy
    }

    /// A policy whose launch model judges from the first day, with no rate limit between runs.
    static var judging: Policy {
        var policy = unspaced
        policy.judgement.likelihoodLearningDays = 0
        return policy
    }

    /// A harness with `apps` installed; the device starts unlocked, in use, on Wi-Fi, off the charger.
    static func harness(
        _ apps: [BundleID] = [feed], policy: Policy = .iOS, device: DeviceState = DeviceState(),
        settings: UserSettings = UserSettings()
    ) -> CoreHarness {
        CoreHarness(policy: policy, device: device, settings: settings, apps: apps.map { manifest($0) })
    }
}

extension CoreHarness {
    /// The user opens the app and it finishes launching (or comes back) to active.
    mutating func open(_ app: BundleID) { handle(.open(app)) }

    /// Opens the app, then goes home: the app ends suspended with its handlers registered.
    mutating func launchAndSuspend(_ app: BundleID) {
        handle(.open(app))
        handle(.home)
    }

    /// Locks the device and waits until it counts as idle for processing tasks.
    mutating func lockUntilIdle() {
        handle(.lock)
        advance(by: system.policy.deviceIdleDelay)
    }

    /// Submits a request from the app (which must be running); returns the result.
    @discardableResult
    mutating func submit(_ request: TaskRequest, from app: BundleID) -> AppCallResult {
        call(.submit(request), from: app)
    }
}

extension CoreHarness {
    /// The host restarts now, as the daemon does after `kill -9`: a new system with the same policy, device and
    /// settings, the apps installed again, the snapshot restored, the processes in `adopting` adopted, then the
    /// pending requests restored. Returns the effects of the restart (reactions included).
    @discardableResult
    mutating func restart(adopting processes: [BundleID: ProcessMemory] = [:]) -> [Effect] {
        let old = system
        var restarted = BackgroundSystem(
            policy: old.policy, device: old.device, settings: old.settings, wallClock: old.wallClock)
        var effects: [Effect] = []
        for id in old.installed { effects += restarted.install(old.app(id).manifest!, at: now) }
        restarted.restore(SystemSnapshot(of: old))
        for id in old.installed {
            if let memory = processes[id] { effects += restarted.adoptProcess(id, memory, at: now) }
        }
        for id in old.installed { effects += restarted.restorePending(old.app(id).pendingRequests, for: id, at: now) }
        effects += restarted.handle(.tick, at: now)
        system = restarted
        held = [:]
        heldEvents = []
        let start = log.count
        process(effects)
        return Array(log[start...])
    }
}
