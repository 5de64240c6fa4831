import PropertyBased
import Testing

@testable import OffstageCore

/// Invariants of the core over random sequences of user, device and app actions (ARCHITECTURE: "no task
/// runs while its constraints are blocked; every begun assertion ends, expires or kills").
@Suite struct PropertyTests {
    /// Random runs: 2–3 apps, whether expiration handlers do their job, and up to 80 steps.
    static let apps = Gen.int(in: 2...3)
    static let honours = Gen.bool
    static let steps = Gen.int(in: 0...Int(Int32.max)).array(of: 10...80).map { $0.map(Step.init(seed:)) }

    @Test func noDiscretionaryTaskStartsWhileAConstraintBlocksIt() async {
        await propertyCheck(count: 300, input: Self.apps, Self.honours, Self.steps) { apps, honours, steps in
            let run = PropertyRun(apps: apps, honoursExpiration: honours, steps: steps)
            #expect(run.constraintViolations == [], "\(steps)")
        }
    }

    @Test func everyGrantedAssertionIsEndedExpiredOrKilled() async {
        await propertyCheck(count: 300, input: Self.apps, Self.honours, Self.steps) { apps, honours, steps in
            let run = PropertyRun(apps: apps, honoursExpiration: honours, steps: steps)
            #expect(run.unresolvedAssertions == [], "\(steps)")
        }
    }

    @Test func appStatesStayConsistent() async {
        await propertyCheck(count: 300, input: Self.apps, Self.honours, Self.steps) { apps, honours, steps in
            let run = PropertyRun(apps: apps, honoursExpiration: honours, steps: steps)
            #expect(run.stateViolations == [], "\(steps)")
        }
    }

    @Test func sameSequenceGivesTheSameRecords() async {
        await propertyCheck(count: 100, input: Self.apps, Self.honours, Self.steps) { apps, honours, steps in
            let first = PropertyRun(apps: apps, honoursExpiration: honours, steps: steps)
            let second = PropertyRun(apps: apps, honoursExpiration: honours, steps: steps)
            #expect(first.harness.records == second.harness.records)
            #expect(first.harness.log == second.harness.log)
        }
    }
}

// MARK: Steps

/// One thing the user, the device or an app does; app numbers pick among the installed apps.
enum Step: Hashable, Sendable {
    case open(Int)
    case home, lock, unlock, openSwitcher
    case swipe(Int)
    case interruptionBegan
    case interruptionEnded(accepted: Bool)
    case battery(percent: Int, charging: Bool)
    case network(NetworkKind)
    case thermal(ThermalState)
    case lowPower(Bool)
    case lowData(Bool)
    case backgroundAppRefresh(Bool)
    case appBackgroundAppRefresh(Int, Bool)
    case memoryPressure(megabytes: Int)
    case submitRefresh(Int, delayMinutes: Int?)
    case submitProcessing(Int, number: Int, network: Bool, power: Bool)
    case begin(Int)
    case end(Int, pick: Int)
    case complete(Int, pick: Int, success: Bool)
    case simulateLaunch(Int, pick: Int)
    case advance(seconds: Double)

    static let durations: [Double] = [
        0.5, 1, 3, 5, 10, 24, 25, 26, 29, 30, 31, 35, 60, 120, 600, 900, 901, 1200, 1800, 3600,
    ]
    static let percents = [5, 15, 19, 20, 21, 50, 80, 100]

    /// Decodes a step from one random number: the low digits choose the kind (weighted towards time,
    /// opening apps and app calls), the rest its arguments (weighted towards conditions that let work run).
    init(seed: Int) {
        var rest = seed / 48
        func take(_ count: Int) -> Int {
            defer { rest /= count }
            return rest % count
        }
        func pick<T>(_ values: [T]) -> T { values[take(values.count)] }
        func flag() -> Bool { take(2) == 1 }
        switch seed % 48 {
        case 0...7: self = .advance(seconds: pick(Self.durations))
        case 8...12: self = .open(take(3))
        case 13, 14: self = .home
        case 15, 16: self = .lock
        case 17: self = .unlock
        case 18: self = .openSwitcher
        case 19: self = .swipe(take(3))
        case 20: self = .interruptionBegan
        case 21: self = .interruptionEnded(accepted: flag())
        case 22: self = .battery(percent: pick(Self.percents), charging: flag())
        case 23: self = .network(pick([.wifi, .wifi, .cellular, .none]))
        case 24: self = .thermal(pick([.nominal, .nominal, .fair, .serious, .critical]))
        case 25: self = .lowPower(pick([true, false, false]))
        case 26: self = .lowData(flag())
        case 27: self = .backgroundAppRefresh(pick([true, true, true, false]))
        case 28: self = .appBackgroundAppRefresh(take(3), pick([true, true, false]))
        case 29: self = .memoryPressure(megabytes: pick([1, 60, 200]))
        case 30...34: self = .submitRefresh(take(3), delayMinutes: pick([nil, nil, 1, 20, 90]))
        case 35...39: self = .submitProcessing(take(3), number: 1 + take(3), network: flag(), power: flag())
        case 40...42: self = .begin(take(3))
        case 43: self = .end(take(3), pick: take(4))
        case 44...46: self = .complete(take(3), pick: take(2), success: flag())
        default: self = .simulateLaunch(take(3), pick: take(2))
        }
    }
}

// MARK: The oracle

/// The device and the settings as the test tracks them from the steps it sends, and an independent
/// judgement of whether a refresh or processing request may start.
struct Oracle {
    var percent = 80
    var charging = false
    var network = NetworkKind.wifi
    var thermal = ThermalState.nominal
    var lowPower = false
    var lowData = false
    var backgroundAppRefresh = true
    var refreshOff: Set<BundleID> = []
    var lockedAt: Instant?
    var foreground: BundleID?
    var underLock: BundleID?
    var forceQuit: Set<BundleID> = []

    /// Why `request` must not start for `app` at `time`, or nil when nothing forbids it.
    func forbids(_ request: TaskRequest, of app: BundleID, at time: Instant) -> String? {
        let processing = request.kind == .processing
        if let date = request.earliestBeginDate, time.seconds < date { return "before its earliest begin date" }
        if !backgroundAppRefresh || refreshOff.contains(app) { return "Background App Refresh off" }
        if lowPower { return "Low Power Mode" }
        if percent < 20 && !charging { return "critical battery" }
        if thermal == .serious || thermal == .critical { return "thermal state \(thermal)" }
        if request.requiresNetworkConnectivity && (network == .none || lowData) { return "no usable network" }
        if processing && request.requiresExternalPower && !charging { return "not charging" }
        if processing, lockedAt.map({ time.seconds < $0.seconds + 900 }) ?? true { return "device not idle" }
        if !processing && forceQuit.contains(app) { return "force-quit" }
        if !processing && foreground == app { return "app in the foreground" }
        return nil
    }
}

// MARK: One run

/// Runs one random sequence on a fresh system with auto-registering apps and checks it as it goes.
struct PropertyRun {
    static let allApps: [BundleID] = [Fixture.feed, Fixture.mail, Fixture.photos]

    private(set) var harness: CoreHarness
    private(set) var oracle = Oracle()
    let apps: [BundleID]
    /// Starts of refresh or processing tasks that the oracle forbids, described.
    private(set) var constraintViolations: [String] = []
    /// Broken state invariants, described.
    private(set) var stateViolations: [String] = []
    /// Moments a budget's balance was below zero, described.
    private(set) var budgetViolations: [String] = []
    /// Discretionary runs the system started (not simulated launches) while the screen was off and the
    /// device unplugged: what a per-task schedule would wake the device for, one wake each.
    private(set) var startsWhileAsleep = 0
    /// The requests each app last submitted successfully, by identifier.
    private var submitted: [BundleID: [String: TaskRequest]] = [:]

    init(apps count: Int, honoursExpiration: Bool, steps: [Step], policy: Policy = .iOS) {
        apps = Array(Self.allApps.prefix(count))
        harness = CoreHarness(policy: policy, apps: apps.map { Fixture.manifest($0) })
        harness.completeOnExpiration = honoursExpiration
        harness.endAssertionsOnExpiration = honoursExpiration
        for step in steps { perform(step) }
        // Nothing stays on screen, then every deadline passes.
        perform(.home)
        perform(.advance(seconds: 3600))
    }

    func app(_ number: Int) -> BundleID { apps[number % apps.count] }

    /// Whether the app has CPU to make a call.
    func canCall(_ app: BundleID) -> Bool {
        let state = harness.state(of: app)
        return state == .active || state == .inactive || state == .background
    }

    mutating func perform(_ step: Step) {
        let start = harness.log.count
        act(step)
        observe(from: start)
        checkStates(after: step)
        let (energy, data) = (harness.system.energyBudget, harness.system.dataBudget)
        if energy.balance(at: harness.now) < 0 || data.balance(at: harness.now) < 0 {
            budgetViolations.append(
                "after \(step): energy \(energy.balance(at: harness.now)) J, data \(data.balance(at: harness.now)) B")
        }
    }

    // MARK: Acting

    private mutating func act(_ step: Step) {
        switch step {
        case .open(let n):
            let id = app(n)
            if oracle.lockedAt != nil {
                oracle.lockedAt = nil
                oracle.underLock = nil
            }
            oracle.foreground = id
            oracle.forceQuit.remove(id)
            harness.handle(.open(id))
        case .home:
            oracle.foreground = nil
            harness.handle(.home)
        case .lock:
            if oracle.lockedAt == nil {
                oracle.underLock = oracle.foreground
                oracle.foreground = nil
                oracle.lockedAt = harness.now
            }
            harness.handle(.lock)
        case .unlock:
            if let previous = oracle.underLock { oracle.foreground = previous }
            oracle.underLock = nil
            oracle.lockedAt = nil
            harness.handle(.unlock)
        case .openSwitcher:
            harness.handle(.openSwitcher)
        case .swipe(let n):
            let id = app(n)
            if harness.system.switcher.contains(id) {
                oracle.forceQuit.insert(id)
                if oracle.foreground == id { oracle.foreground = nil }
            }
            harness.handle(.swipeAway(id))
        case .interruptionBegan:
            harness.handle(.interruptionBegan)
        case .interruptionEnded(let accepted):
            if accepted { oracle.foreground = nil }
            harness.handle(.interruptionEnded(accepted: accepted))
        case .battery(let percent, let charging):
            (oracle.percent, oracle.charging) = (percent, charging)
            if charging && percent >= 80 { oracle.lowPower = false }  // iOS turns it off at 80 % on the charger
            harness.handle(.setBattery(level: Double(percent) / 100, charging: charging))
        case .network(let kind):
            oracle.network = kind
            harness.handle(.setNetwork(kind))
        case .thermal(let state):
            oracle.thermal = state
            harness.handle(.setThermalState(state))
        case .lowPower(let on):
            oracle.lowPower = on
            harness.handle(.setLowPowerMode(on))
        case .lowData(let on):
            oracle.lowData = on
            harness.handle(.setLowDataMode(on))
        case .backgroundAppRefresh(let on):
            oracle.backgroundAppRefresh = on
            harness.handle(.setBackgroundAppRefresh(on))
        case .appBackgroundAppRefresh(let n, let on):
            if on { oracle.refreshOff.remove(app(n)) } else { oracle.refreshOff.insert(app(n)) }
            harness.handle(.setAppBackgroundAppRefresh(app(n), on))
        case .memoryPressure(let megabytes):
            harness.handle(.memoryPressure(bytes: megabytes * 1_000_000))
        case .submitRefresh(let n, let delay):
            let date = delay.map { harness.now.seconds + Double($0 * 60) }
            submit(Fixture.refreshRequest(app(n), earliestBeginDate: date), from: app(n))
        case .submitProcessing(let n, let number, let network, let power):
            submit(Fixture.processingRequest(app(n), number, network: network, power: power), from: app(n))
        case .begin(let n):
            guard canCall(app(n)) else { return }
            harness.call(.beginBackgroundTask(name: nil), from: app(n))
        case .end(let n, let pick):
            guard canCall(app(n)) else { return }
            let outstanding = harness.system.app(app(n)).outstandingAssertions
            let number = pick < outstanding.count ? outstanding[pick] : 99
            harness.call(.endBackgroundTask(number), from: app(n))
        case .complete(let n, let pick, let success):
            guard canCall(app(n)) else { return }
            let handed = harness.system.runningTasks.filter { $0.app == app(n) && $0.delivered }
            guard pick < handed.count else { return }
            harness.call(.setTaskCompleted(taskID: handed[pick].id, success: success), from: app(n))
        case .simulateLaunch(let n, let pick):
            let pending = harness.system.app(app(n)).pendingRequests
            guard pick < pending.count else { return }
            harness.handle(.simulateLaunch(app(n), identifier: pending[pick].identifier))
        case .advance(let seconds):
            harness.advance(by: seconds)
        }
    }

    private mutating func submit(_ request: TaskRequest, from app: BundleID) {
        guard canCall(app) else { return }
        if harness.call(.submit(request), from: app) == .ok {
            submitted[app, default: [:]][request.identifier] = request
        }
    }

    // MARK: Checking

    /// Checks every start among the new effects against the oracle, and follows terminations.
    private mutating func observe(from start: Int) {
        var simulated: Set<String> = []
        for index in harness.log.indices.dropFirst(start) {
            let time = harness.times[index]
            switch harness.log[index] {
            case .record(let record) where record.kind == .started:
                guard let app = record.app, let identifier = record.task else { continue }
                if case .started(_, .simulatedLaunch) = record.detail {
                    simulated.insert("\(app) \(identifier)")
                } else if let request = submitted[app]?[identifier] {
                    check(request, of: app, at: time, what: "started record")
                    if oracle.lockedAt != nil && !oracle.charging { startsWhileAsleep += 1 }
                }
            case .startTask(let app, let run):
                guard run.request.kind != .continuedProcessing,
                    !simulated.contains("\(app) \(run.request.identifier)")
                else { continue }
                check(run.request, of: app, at: time, what: "startTask")
            case .record(let record) where record.kind == .terminated:
                if oracle.foreground == record.app { oracle.foreground = nil }
                if oracle.underLock == record.app { oracle.underLock = nil }
            default:
                break
            }
        }
    }

    private mutating func check(_ request: TaskRequest, of app: BundleID, at time: Instant, what: String) {
        if let reason = oracle.forbids(request, of: app, at: time) {
            constraintViolations.append("\(what) \(request.identifier) at \(time): \(reason)")
        }
    }

    private mutating func checkStates(after step: Step) {
        let system = harness.system
        func fail(_ message: String) { stateViolations.append("after \(step): \(message)") }
        if system.foregroundApp != oracle.foreground {
            fail(
                "foreground \(String(describing: system.foregroundApp)), expected \(String(describing: oracle.foreground))"
            )
        }
        for id in apps {
            let state = system.app(id).state
            if state.isForeground != (system.foregroundApp == id) { fail("\(id) is \(state.rawValue)") }
            if state == .suspended,
                !system.app(id).outstandingAssertions.isEmpty || system.runningTasks.contains(where: { $0.app == id })
            {
                fail("\(id) is suspended with work outstanding")
            }
        }
        let live = Set(apps.filter { system.app($0).state.hasProcess })
        if Set(system.switcher) != live || system.switcher.count != live.count {
            fail("switcher \(system.switcher) but live apps \(live.sorted())")
        }
    }

    /// Granted assertions that were never ended, expired or ended with their process.
    var unresolvedAssertions: [String] {
        var generation: [BundleID: Int] = [:]
        var open: Set<String> = []
        func key(_ app: BundleID, _ number: Int) -> String { "\(app)#\(generation[app, default: 0]) \(number)" }
        for effect in harness.log {
            switch effect {
            case .launch(let app, _):
                generation[app, default: 0] += 1
            case .expireBackgroundTasks(let app, let ids):
                for number in ids { open.remove(key(app, number)) }
            case .record(let record):
                guard let app = record.app else { continue }
                switch record.kind {
                case .assertionBegan:
                    if case .assertionBegan(let number, _) = record.detail { open.insert(key(app, number)) }
                case .assertionEnded:
                    if case .assertionEnded(let number) = record.detail { open.remove(key(app, number)) }
                case .terminated:
                    open = open.filter { !$0.hasPrefix("\(app)#\(generation[app, default: 0]) ") }
                default:
                    break
                }
            default:
                break
            }
        }
        return open.sorted()
    }
}
