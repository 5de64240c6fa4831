import DequeModule
import Foundation
import HeapModule
import OffstageAppContext
import OffstageAppExecution
public import OffstageCore
import OffstageKit

/// The virtual-time host: a discrete-event loop that jumps from one due time to the next,
/// drives the core, and hosts every app's code (declarative or real Swift). App code runs inline on the
/// loop's thread; code that parks in virtual time keeps that thread, and a new one drives the loop.
///
/// The loop's state is read and written by one driving thread at a time (code that parks hands the loop to a new
/// one), so its hottest fields are `@exclusivity(unchecked)`: the dynamic check of every access (per thread, so it
/// could never see two drivers anyway) cost 7 % of the CPU of a fixed-period replay.
public final class Simulation: @unchecked Sendable {
    /// Called with the system after each step of the loop, for a measurement that reads it as the run goes
    /// (`LaunchCalibration`); nil in ordinary runs.
    @exclusivity(unchecked) public var stepObserver: ((BackgroundSystem) -> Void)?
    /// The scenario's apps and conditions (a stepping `Device` adds the apps it installs later).
    public internal(set) var scenario: Scenario
    @exclusivity(unchecked) public private(set) var system: BackgroundSystem
    /// Virtual time now.
    @exclusivity(unchecked) public private(set) var now: Instant = .zero
    @exclusivity(unchecked) public private(set) var records: [Record] = []
    /// When set, the run is lean: each record goes to it as it is made and is not kept, nor are the device's
    /// history and each task run's usage (only reports read them). An evaluation keeps its summaries this way,
    /// so its memory stays bounded whatever the run's length.
    @exclusivity(unchecked) public var recordObserver: ((Record) -> Void)?
    /// Which kinds of records the run is handed (nil: all); the system drops the others as it makes them. Set
    /// by an observer that reads only a few kinds (an evaluation's summary).
    public var keepsRecords: (@Sendable (RecordKind) -> Bool)? {
        get { system.keepsRecords }
        set { system.keepsRecords = newValue }
    }
    /// The battery's level and charger after each step, for the battery curve of reports.
    @exclusivity(unchecked) public private(set) var batteryHistory = BatteryHistory()
    /// Each app's background energy drawn on the charger, for the evaluation's battery share.
    public private(set) var chargerEnergy = ChargerEnergy()
    /// The device's conditions over the run (screen, lock, charger, network, modes, thermal, idle), for reports.
    public private(set) var deviceHistory = DeviceHistory()
    /// What each task run used (energy, CPU, bytes), for reports.
    public private(set) var taskUsage = TaskUsage()
    let catalog: SwiftAppCatalog
    var random: SeededRandom
    @exclusivity(unchecked) private var queue = Heap<Scheduled>()
    /// The timeline's entries still to come, in the order one queue of them and `queue`'s actions would give
    /// (time, then scheduling order), from `nextEntry` on: kept apart, so the queue holds only the few actions
    /// apps and wake-ups schedule, and each of its insertions and removals stays short.
    @exclusivity(unchecked) private var timeline: [Scheduled] = []
    @exclusivity(unchecked) private var nextEntry = 0
    @exclusivity(unchecked) private var sequence = 0
    @exclusivity(unchecked) private(set) var processes: [BundleID: SimulatedProcess] = [:]
    private var generations: [BundleID: Int] = [:]
    /// Effects still to carry out, first in first out (a deque: taking the first shifts nothing).
    @exclusivity(unchecked) private var pendingEffects = Deque<Effect>()
    /// The end of the run in progress, and whether its final tick has been made.
    @exclusivity(unchecked) private var end: Instant = .zero
    @exclusivity(unchecked) private var finalTickDone = false
    private var progress: ((Double) -> Void)?
    @exclusivity(unchecked) private var reportedPercent = -1
    /// Signalled by the driver that finishes the run, or that pauses it (`pausesAtEnd`).
    private var finished = DispatchSemaphore(value: 0)
    /// Set while a stepping `Device` drives the loop: the driver stops at `end` without the final tick, and
    /// `includesEnd` says whether the steps due at `end` itself run before it stops.
    @exclusivity(unchecked) private var pausesAtEnd = false
    @exclusivity(unchecked) private var includesEnd = true
    /// Actions a `Device` put on the timeline, counted down: their sequence numbers are negative, so each runs
    /// before the work queued for the same instant, as a scenario's timeline entries do.
    private var injected = 0
    /// The app runtime bound to the current driver thread, so inline code finds its `UIApplication`.
    @exclusivity(unchecked) private var runtimeOnDriver: AppRuntime?
    /// Work apps started outside their queues (`OffstageExternalWork`): virtual time waits for it.
    let externalWork = ExternalWork()
    /// When the run declares a stall and stops (our bounds, see `StallLimits`).
    public var stallLimits = StallLimits()
    /// Why the run stopped before its end, if it did: its records end at the stall.
    public var stall: SimulationStall? { watch.stall }
    /// What app code runs now and whether the run stopped, shared with the real-time watchdog.
    private let watch = StallWatch()
    /// The virtual instant whose pieces of app work are counted, and how many ran at it.
    @exclusivity(unchecked) private var countedInstant = Instant(seconds: -1)
    @exclusivity(unchecked) private var piecesAtInstant = 0

    /// Prepares a run; every `code:` app must be in the catalog.
    public init(scenario: Scenario, catalog: SwiftAppCatalog = SwiftAppCatalog()) throws(ScenarioError) {
        for app in scenario.apps { try Self.requireCode(of: app, in: catalog, source: scenario.source) }
        self.scenario = scenario
        self.catalog = catalog
        random = SeededRandom(seed: scenario.seed)
        var device = scenario.device
        device.simulatesBattery = true
        system = BackgroundSystem(
            policy: scenario.policy, device: device, settings: scenario.settings,
            wallClock: WallClock(epochAtZero: scenario.startEpoch, utcOffset: scenario.utcOffset))
        if scenario.strategy != .judgement { system.constraints = scenario.strategy.constraints(knowing: launches) }
    }

    /// Throws unless the app is declarative or its Swift code is in the catalog and the interposition that runs it
    /// in virtual time is complete in this process, naming the app's `code` field.
    static func requireCode(of app: ScenarioApp, in catalog: SwiftAppCatalog, source: String) throws(ScenarioError) {
        if app.code != nil, !Interposition.problems.isEmpty {
            throw ScenarioError(
                source: source, line: nil, field: "apps[\(app.manifest.bundleIdentifier)].code",
                message: "this host cannot run Swift app code in virtual time: "
                    + Interposition.problems.joined(separator: "; "))
        }
        guard let code = app.code, catalog.apps[code] == nil else { return }
        let known = catalog.apps.keys.sorted().joined(separator: ", ")
        throw ScenarioError(
            source: source, line: nil, field: "apps[\(app.manifest.bundleIdentifier)].code",
            message: "no Swift app named '\(code)' in this host (known: \(known.isEmpty ? "none" : known))")
    }

    /// The user's launches of each app in the timeline, in time order: the future only the oracle knows.
    private var launches: [BundleID: [Instant]] {
        var launches: [BundleID: [Instant]] = [:]
        for entry in scenario.timeline {
            if case .system(.open(let id)) = entry.action {
                launches[id, default: []].append(Instant(seconds: entry.at))
            }
        }
        return launches.mapValues { $0.sorted() }
    }

    /// When the run stops by default: one hour after the last timeline entry.
    public var defaultDuration: Double { scenario.duration ?? ((scenario.timeline.map(\.at).max() ?? 0) + 3600) }

    /// Runs that host Swift app code share Foundation's process-wide objects (`OperationQueue.main`,
    /// `NotificationCenter.default`, `URLSession.shared`), so they take turns: one at a time in a process. A
    /// semaphore, not a lock: a stepping `Device` takes its turn on one thread and may end it on another.
    static let swiftCodeRuns = DispatchSemaphore(value: 1)

    /// Whether any app of the run is real Swift code (which must take its turn, `swiftCodeRuns`).
    var hostsSwiftCode: Bool { scenario.apps.contains { $0.code != nil } }

    /// Runs the scenario for `duration` seconds of virtual time (default: the scenario's), reporting progress 0–1.
    @discardableResult
    public func run(for duration: Double? = nil, progress: ((Double) -> Void)? = nil) -> [Record] {
        guard !watch.hasStopped else { return records }
        let hostsSwiftCode = hostsSwiftCode
        if hostsSwiftCode { Self.swiftCodeRuns.wait() }
        defer { if hostsSwiftCode { Self.swiftCodeRuns.signal() } }
        end = Instant(seconds: duration ?? defaultDuration)
        self.progress = progress
        installScenarioApps()
        timeline.removeFirst(nextEntry)
        nextEntry = 0
        for entry in scenario.timeline {
            sequence += 1
            timeline.append(Scheduled(at: Instant(seconds: entry.at), sequence: sequence, action: .timeline(entry)))
        }
        timeline.sort()
        sampleDevice()
        startDriver { $0.drive() }
        waitForTheDriver()
        return records
    }

    /// Waits for the driver to finish the run, watching it in real time: when app code holds the loop's thread
    /// for `stallLimits.realSecondsHeld` with nothing moving (busy, or blocked outside the simulator), the run
    /// stops there with a stall naming that code; its thread is left as it is.
    private func waitForTheDriver() {
        var seen = watch.progressCount
        var quietSince = DispatchTime.now().uptimeNanoseconds
        let slice = min(1.0, stallLimits.realSecondsHeld / 4)
        while finished.wait(timeout: .now() + slice) == .timedOut {
            let count = watch.progressCount
            let realNow = DispatchTime.now().uptimeNanoseconds
            if count != seen || !watch.isInAppCode {
                seen = count
                quietSince = realNow
                continue
            }
            guard Double(realNow - quietSince) / 1e9 >= stallLimits.realSecondsHeld else { continue }
            watch.stop(stallHere(.appCodeHeld(realSeconds: stallLimits.realSecondsHeld)))
            return
        }
    }

    /// A stall of `kind` now, naming the app code the loop handed work to last.
    private func stallHere(_ kind: SimulationStall.Kind) -> SimulationStall {
        let piece = watch.lastPiece
        return SimulationStall(
            kind: kind, at: now, app: piece?.app, queue: piece.map { Self.queueName($0.queue) } ?? "no queue",
            running: piece?.running ?? "no app code")
    }

    /// A libdispatch queue's name for a stall: the main queue, the system's background queue, or its label.
    private static func queueName(_ address: UInt) -> String {
        guard let queue = UnsafeMutableRawPointer(bitPattern: address) else { return "a thread its code took over" }
        if queue == QueuedWork.mainQueue { return "the main queue" }
        if queue == backgroundQueue { return "the global queue (the system's task calls)" }
        let label = String(cString: offstage_queue_label(queue))
        return label.isEmpty ? "a queue without a label" : "the queue '\(label)'"
    }

    /// Counts a piece of app work at the present instant; past `stallLimits.piecesAtOneInstant` the same
    /// instant repeats without end, and the run stops with a stall. False when the piece must not run.
    private func countPiece() -> Bool {
        if now != countedInstant {
            countedInstant = now
            piecesAtInstant = 0
        }
        piecesAtInstant += 1
        guard piecesAtInstant > stallLimits.piecesAtOneInstant else { return true }
        watch.stop(stallHere(.sameInstant(pieces: piecesAtInstant - 1)))
        return false
    }

    /// Installs the scenario's apps at the start (with their memory footprints), before any step.
    func installScenarioApps() {
        ForeignWork.installation
        for app in scenario.apps { install(app) }
    }

    /// Installs one app now: the system learns its manifest, and its memory footprint if the app gives one.
    func install(_ app: ScenarioApp) {
        let id = app.manifest.bundleIdentifier
        var manifest = app.manifest
        if app.sceneManifest != nil { manifest.usesScenes = true }
        perform(system.install(manifest, at: now))
        if let bytes = app.memoryFootprint {
            perform(system.handle(.setMemoryFootprint(id, bytes: bytes), at: now))
        }
    }

    // MARK: Stepping (a `Device`)

    /// Drives the loop to `time` on a new driver thread and waits until it pauses there, without the final tick;
    /// `including` says whether the steps due at `time` itself run. `before` runs first on the driver (app code
    /// that an install or an action starts runs on that thread). The stall watch covers it as it covers `run`:
    /// once the run has stalled, a step does nothing.
    func step(to time: Instant, including: Bool, before: (@Sendable (Simulation) -> Void)? = nil) {
        guard !watch.hasStopped else { return }
        end = max(now, time)
        pausesAtEnd = true
        includesEnd = including
        startDriver { simulation in
            before?(simulation)
            simulation.drive()
        }
        waitForTheDriver()
    }

    /// Puts `action` on the timeline at now, ahead of the work queued for now; the next step runs it.
    func inject(_ action: UserAction) {
        timeline.removeFirst(nextEntry)
        nextEntry = 0
        injected -= 1
        timeline.append(
            Scheduled(at: now, sequence: injected, action: .timeline(TimelineEntry(at: now.seconds, action: action))))
    }

    /// Ends a stepped run at now: the final tick, as a scenario's run ends (nothing more after a stall).
    func finishSteps() {
        guard !watch.hasStopped else { return }
        pausesAtEnd = false
        end = now
        startDriver { $0.drive() }
        waitForTheDriver()
    }

    /// The system as it stands at now: a copy brought up to now by a tick, whose effects are dropped (the stored
    /// system moves only at the loop's steps, so it may lag a paused device's time).
    var systemNow: BackgroundSystem {
        var probe = system
        _ = probe.handle(.tick, at: now)
        return probe
    }

    /// The loop, on the driver thread: steps until the end, makes the final tick, then signals the caller (a
    /// stepping device's run pauses at the end instead).
    private func drive() {
        if !finalTickDone {
            while !watch.hasStopped, let next = nextStepTime(), next < end || (next == end && includesEnd) {
                now = max(now, next)
                if let action = takeAction(dueBy: next) {
                    postingRefreshStatusChanges(if: action.canChangeRefreshStatus) { execute(action) }
                } else {
                    tick()
                }
                noteStep()
            }
            if pausesAtEnd {
                now = max(now, end)
                finished.signal()
                return
            }
            finalTickDone = true
            if !watch.hasStopped {
                now = end
                tick()
            }
        }
        sampleDevice()
        batteryHistory.finish()
        chargerEnergy.finish(system.energy)
        finished.signal()
    }

    /// Time passed to `now`: the system's due work runs (and may turn Low Power Mode off on the charger).
    private func tick() { postingRefreshStatusChanges(if: false) { perform(system.handle(.tick, at: now)) } }

    /// Runs one step, and tells the apps whose refresh status it changed: a step whose event can change it, and
    /// any step on the charger in Low Power Mode, which iOS turns off itself at 80 % with no event of its own.
    private func postingRefreshStatusChanges(if eventCanChangeIt: Bool, _ step: () -> Void) {
        let mayChange = eventCanChangeIt || (system.settings.lowPowerMode && system.device.isCharging)
        let settings = mayChange ? system.settings : nil
        step()
        if let settings { postRefreshStatusChanges(since: settings) }
    }

    /// When the loop's next step is: first, virtual time waits for the apps' external work under way, whose
    /// results are queued on their apps.
    private func nextStepTime() -> Instant? {
        for result in externalWork.takeResultsWhenNoneUnderWay() {
            enqueue(result.work, after: result.delay, app: result.app, generation: result.generation)
        }
        ForeignWork.waitForAppThreads()
        if ForeignWork.isWaiting { takeForeignWork() }
        return earliest(earliest(upcomingEntry?.at, queue.min?.at), systemDueTime)
    }

    /// When the loop's next step is due, as far as is known without taking the apps' outside work (a `Device`
    /// steps to it).
    var upcomingStep: Instant? { earliest(earliest(upcomingEntry?.at, queue.min?.at), systemDueTime) }

    /// The timeline's next entry, if one is left.
    private var upcomingEntry: Scheduled? { nextEntry < timeline.count ? timeline[nextEntry] : nil }

    /// Takes the first action due by `time`, the timeline's next entry or the queue's first, whichever one
    /// queue of both would give first; nil when neither is due.
    private func takeAction(dueBy time: Instant) -> Action? {
        if let entry = upcomingEntry, entry.at <= time, queue.min.map({ entry < $0 }) ?? true {
            nextEntry += 1
            return entry.action
        }
        guard let top = queue.min, top.at <= time else { return nil }
        return queue.removeMin().action
    }

    /// Queues the work that threads the apps started handed in since the last step, on the apps that started them.
    private func takeForeignWork() {
        let hosts = Dictionary(
            uniqueKeysWithValues: processes.values.map { (UnsafeMutableRawPointer($0.host.record), $0) })
        for piece in ForeignWork.take(for: Set(hosts.keys)) {
            guard let process = hosts[piece.host] else { continue }
            enqueue(piece.work, after: piece.delay, app: process.app, generation: process.generation)
        }
    }

    /// The system's next due time, read where the system lies (`inPlace`), once per step of the loop.
    private var systemDueTime: Instant? { inPlace { $0.nextDueTime } }

    /// Reads the stored system where it lies: an `inout` access borrows it, while reading a computed property of
    /// it or passing it as an argument would copy it whole first (a retain of every field).
    private func inPlace<Result>(_ body: (inout BackgroundSystem) -> Result) -> Result { body(&system) }

    /// The earlier of two optional times (the next scheduled action, the system's next due time).
    private func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
        guard let a, let b else { return a ?? b }
        return min(a, b)
    }

    /// Notes the battery and the progress after a step of the loop.
    private func noteStep() {
        watch.leftAppCode()
        sampleDevice()
        stepObserver?(system)
        let percent = Int(now.seconds / max(end.seconds, 1) * 100)
        if percent != reportedPercent, let progress {
            reportedPercent = percent
            progress(Double(percent) / 100)
        }
    }

    /// Starts a thread that drives the loop (app code runs on it, so it gets a full-size stack).
    private func startDriver(_ body: @escaping @Sendable (Simulation) -> Void) {
        runtimeOnDriver = nil
        let thread = Thread { [self] in body(self) }
        thread.name = "offstage simulation"
        thread.stackSize = 8 << 20
        // Started outside the app's context (code that parks calls this from the app's thread): the new driver is
        // the simulator's thread, not one the app started.
        let host = offstage_current_host()
        let queue = offstage_current_queue()
        offstage_leave()
        thread.start()
        if let host { offstage_enter(host, queue) }
    }

    /// Goes on with the step the previous driver was in when app code took its thread, then with the loop.
    private func takeOver(after process: SimulatedProcess) {
        releaseHeldReturns(of: process)
        runDeferred(process)
        drain()
        if !finalTickDone { noteStep() }
        drive()
    }

    /// Notes the battery and the device's conditions as the system's last entry point left them (steps that only run
    /// app code change nothing).
    private func sampleDevice() {
        if recordObserver == nil {
            inPlace { deviceHistory.observe($0) }
        }
        batteryHistory.observe(
            BatteryHistory.Sample(
                at: system.now, level: system.device.batteryLevel, isCharging: system.device.isCharging))
        chargerEnergy.observe(isCharging: system.device.isCharging, ledger: system.energy)
    }

    /// Before the timeline sets the battery's level, notes the level it jumps from: a copy of the system (a
    /// value, with no effects outside) is brought up to now and read, so the curve drops straight down.
    private func sampleBatteryBeforeJump() {
        let probe = systemNow
        batteryHistory.keep(
            BatteryHistory.Sample(at: now, level: probe.device.batteryLevel, isCharging: probe.device.isCharging))
    }

    /// The wall clock apps see: the scenario's start plus virtual time.
    var wallClockNow: Date { Date(timeIntervalSince1970: system.wallClock.epoch(at: now)) }

    // MARK: Scheduling

    /// Something the loop does at a virtual time.
    enum Action {
        case timeline(TimelineEntry)
        /// Resume an app's parked code whose deadline has come.
        case wake(BundleID, generation: Int)
        /// Run work an app scheduled with `OffstageClock.after`.
        case appWork(BundleID, generation: Int, @Sendable () -> Void)
        /// Run work an app queued with libdispatch (Dispatch, OperationQueue, Swift concurrency), kept by its
        /// process under this ticket, unless a `sync` on its queue ran it first.
        case queued(BundleID, generation: Int, ticket: Int)
    }

    struct Scheduled: Comparable {
        var at: Instant
        var sequence: Int
        var action: Action
        static func < (a: Scheduled, b: Scheduled) -> Bool { (a.at, a.sequence) < (b.at, b.sequence) }
        static func == (a: Scheduled, b: Scheduled) -> Bool { (a.at, a.sequence) == (b.at, b.sequence) }
    }

    func schedule(at time: Instant, _ action: Action) {
        sequence += 1
        queue.insert(Scheduled(at: time, sequence: sequence, action: action))
    }

    private func execute(_ action: Action) {
        switch action {
        case .timeline(let entry):
            switch entry.action {
            case .system(let event):
                if case .setBattery = event { sampleBatteryBeforeJump() }
                perform(system.handle(event, at: now))
                // A process that exits on its own gets no `terminate` effect: the host ends it itself.
                if case .processExited(let app, _) = event, system.app(app).state == .notRunning {
                    dropProcess(of: app)
                }
            case .tap(let app, let control): tap(app, control)
            }
        case .wake(let app, let generation):
            guard let process = processes[app], process.generation == generation else { return }
            resumeOverdue(process)
        case .appWork(let app, let generation, let work):
            guard let process = processes[app], process.generation == generation else { return }
            runOnApp(process, running: "work it scheduled") { work() }
        case .queued(let app, let generation, let ticket):
            guard let process = processes[app], process.generation == generation,
                let pending = process.takeQueuedWork(ticket)
            else { return }
            runOnApp(process, on: pending.queue, running: "work it queued") { pending.run() }
            releaseHeldReturns(of: process)
        }
        drain()
    }

    /// Work an app's code queued: it runs `delay` seconds from now, after the work already due then, unless the
    /// process has ended (its work is dropped with it).
    func enqueue(_ work: QueuedWork, after delay: Double, app: BundleID, generation: Int) {
        guard let process = processes[app], process.generation == generation else { return }
        let at = now + max(0, delay)
        let ticket = process.keep(work, at: at, immediate: delay <= 0)
        schedule(at: at, .queued(app, generation: generation, ticket: ticket))
    }

    /// A `sync` on `queue` from the app's code: the work queued on it that is due now runs first, in order, on
    /// the calling thread, as a serial queue would run it before the `sync` block.
    func runDueWork(of app: BundleID, on queue: UnsafeMutableRawPointer) {
        guard let process = processes[app] else { return }
        let previous = offstage_current_queue()
        for work in process.takeDueWork(on: queue, at: now) {
            process.host.enter(on: work.queue)
            work.run()
        }
        process.host.enter(on: previous)
    }

    /// Once the work the app queued to run at once has all started (and has returned or waits), tells the system
    /// of the callbacks that returned meanwhile.
    private func releaseHeldReturns(of process: SimulatedProcess) {
        guard process.immediateWork == 0, !process.heldReturns.isEmpty, isLive(process) else { return }
        let held = process.heldReturns
        process.heldReturns = []
        for call in held { enqueue(system.call(call, from: process.app, at: now).1) }
    }

    private func tap(_ app: BundleID, _ control: String) {
        guard let process = processes[app], system.foregroundApp == app else {
            keep(Record(at: now, app: app, kind: .log, reason: "tap \(control): the app is not on screen; ignored"))
            return
        }
        keep(Record(at: now, app: app, kind: .user, reason: "tap \(control)"))
        runOnApp(process, running: "the user's tap on \(control)") { process.runtime.performUserAction(control) }
    }

    // MARK: App code

    /// An app's call into the system, made on the app's thread while the loop waits. A callback's return waits
    /// until the work the app queued to run at once has run: an app that leaves the screen is suspended after
    /// the work it started for that moment, as a real process runs on for the moments before it is frozen.
    func appCall(_ call: AppCall, from app: BundleID) -> AppCallResult {
        if case .returned = call, let process = processes[app], process.immediateWork > 0 {
            process.heldReturns.append(call)
            return .ok
        }
        watch.noteProgress()
        let (result, effects) = system.call(call, from: app, at: now)
        enqueue(effects)
        return result
    }

    /// An app's account of work it did, charged as the host's resource report for it: the bytes went over
    /// the network the device is on now (with none, nothing was sent).
    func reportWork(_ work: OffstageWork, from app: BundleID) {
        let usage = ResourceUsage(
            cpuSeconds: work.cpuSeconds, gpuSeconds: work.gpuSeconds, bytes: work.bytes, on: system.device.network,
            interval: work.seconds)
        enqueue(system.handle(.resourceUsage(app, usage), at: now))
    }

    /// Runs `work` as the app's code on `queue` (the main queue unless said) now, inline or on an idle thread its
    /// parked code left, or when the app is resumed if it is suspended.
    private func runOnApp(
        _ process: SimulatedProcess, on queue: UnsafeMutableRawPointer? = QueuedWork.mainQueue,
        running: String, _ work: @escaping () -> Void
    ) {
        guard isLive(process), !watch.hasStopped else { return }
        let host = process.host
        let work = {
            host.enter(on: queue)
            work()
            host.leave()
        }
        if process.isSuspended {
            process.deferred.append((running, work))
            return
        }
        guard countPiece() else { return }
        watch.enterAppCode(
            StallWatch.Piece(app: process.app, queue: UInt(bitPattern: queue ?? QueuedWork.mainQueue), running: running)
        )
        setClocks(of: process)
        if let idle = process.idleThread {
            step(process, on: idle) { $0.run(work) }
        } else {
            runInline(process, work)
        }
        watch.leftAppCode()
        resumeOverdue(process)
    }

    /// Brings the clocks the app's code reads to now.
    private func setClocks(of process: SimulatedProcess) {
        process.host.setClocks(uptime: now, wallSeconds: system.wallClock.epoch(at: now))
    }

    /// Queues the group notifications of the app whose groups emptied.
    private func notifyEmptiedGroups(of process: SimulatedProcess) {
        for work in process.host.takeReadyNotifications() {
            enqueue(work, after: 0, app: process.app, generation: process.generation)
        }
    }

    /// Runs `work` on the driver's thread. If the code parks, this thread stays with it and returns here
    /// only when the block ends, long after: it then hands back to the driver of that time, never to the loop.
    private func runInline(_ process: SimulatedProcess, _ work: () -> Void) {
        if runtimeOnDriver !== process.runtime {
            process.runtime.bindToCurrentThread()
            runtimeOnDriver = process.runtime
        }
        let block = InlineBlock()
        process.inlineBlock = block
        work()
        if let adopted = block.adopted { adopted.finishAdoptedBlock() }
        process.inlineBlock = nil
    }

    /// The app's running code waits until `deadline` (nil: none) or until `condition` succeeds, while the
    /// simulation goes on; true when the condition succeeded. Outside the app's code it returns false at once.
    func parkAppCode(of app: BundleID, until deadline: Instant?, condition: (() -> Bool)?) -> Bool {
        guard let process = processes[app] else { return false }
        let until = deadline ?? Instant(seconds: .infinity)
        if let thread = process.currentThread {
            return thread.park(until: until, condition: condition)
        } else if let block = process.inlineBlock {
            return park(block, of: process, until: until, condition: condition)
        }
        return false
    }

    /// Inline code parks until `deadline` or `condition`: its thread becomes the app's, a new driver goes on
    /// with the loop, and the code goes on when a driver resumes it.
    private func park(
        _ block: InlineBlock, of process: SimulatedProcess, until deadline: Instant, condition: (() -> Bool)?
    ) -> Bool {
        let thread = AppThread(parkedUntil: deadline, condition: condition)
        block.adopted = thread
        process.inlineBlock = nil
        process.threads.append(thread)
        wake(process, at: deadline)
        startDriver { $0.takeOver(after: process) }
        thread.waitForResume()
        return thread.conditionMet
    }

    /// Schedules a wake-up of the process's parked code at `deadline`, unless it waits without one.
    private func wake(_ process: SimulatedProcess, at deadline: Instant) {
        guard deadline.seconds.isFinite else { return }
        schedule(at: deadline, .wake(process.app, generation: process.generation))
    }

    /// The process's inline code crashed: its thread is left blocked for good and a new driver goes on.
    func leaveDriverThread(crashedIn process: SimulatedProcess) -> Never {
        process.inlineBlock = nil
        startDriver { $0.takeOver(after: process) }
        AppThread.blockForever()
    }

    /// Runs the work that fell due while the app was suspended, oldest first, then its overdue parked code.
    /// Work is taken one item at a time, so a driver that takes over goes on where the last one stopped.
    private func runDeferred(_ process: SimulatedProcess) {
        while isLive(process), !process.isSuspended, !process.deferred.isEmpty {
            let deferred = process.deferred.removeFirst()
            runOnApp(process, running: deferred.running, deferred.work)
        }
        resumeOverdue(process)
    }

    /// Lets the app's parked code go on wherever its deadline has passed or what it waits for came, oldest
    /// thread first; then queues the notifications of groups that emptied.
    private func resumeOverdue(_ process: SimulatedProcess) {
        var index = 0
        while index < process.threads.count, isLive(process), !process.isSuspended {
            let thread = process.threads[index]
            if thread.isReady(at: now) {
                guard countPiece() else { return }
                watch.enterAppCode(
                    StallWatch.Piece(app: process.app, queue: 0, running: "its code going on after a wait"))
                step(process, on: thread) { $0.resume() }
                watch.leftAppCode()
                index = 0
            } else {
                index += 1
            }
        }
        if isLive(process) { notifyEmptiedGroups(of: process) }
    }

    /// Hands control to one of the app's threads until it hands back; parked code gets a wake-up.
    private func step(_ process: SimulatedProcess, on thread: AppThread, _ handOver: (AppThread) -> AppThread.Report) {
        setClocks(of: process)
        process.currentThread = thread
        let report = handOver(thread)
        process.currentThread = nil
        if case .parked(let until) = report { wake(process, at: until) }
    }

    /// Whether the process is the app's current one and its code has not crashed.
    private func isLive(_ process: SimulatedProcess) -> Bool { !process.crashed && processes[process.app] === process }

    // MARK: Effects

    private func perform(_ effects: [Effect]) {
        enqueue(effects)
        drain()
    }

    /// Queues effects to be carried out in order. Records are kept at once: queued effects are carried out
    /// in order, so records kept as they come are in the same order, without passing through the queue.
    private func enqueue(_ effects: [Effect]) {
        for effect in effects {
            if case .record(let record) = effect {
                keep(record)
            } else {
                pendingEffects.append(effect)
            }
        }
    }

    /// Keeps a record and notes the task run it starts or ends; in a lean run, hands it to the observer only.
    /// (The system is read where it lies, `inPlace`.)
    private func keep(_ record: Record) {
        if let recordObserver { return recordObserver(record) }
        records.append(record)
        inPlace { taskUsage.note(record, in: $0) }
    }

    /// Carries out queued effects in order, including those that app code causes meanwhile.
    private func drain() {
        while !watch.hasStopped, let effect = pendingEffects.popFirst() {
            switch effect {
            case .record:
                break  // kept when queued
            case .launch(let app, _):
                launch(app)
            case .deliver(let app, let callback, let token):
                withProcess(app) { process in
                    runOnApp(process, running: callback.rawValue) { process.runtime.deliver(callback, token: token) }
                }
            case .startTask(let app, let run):
                withProcess(app) { process in
                    runOnApp(process, on: Self.backgroundQueue, running: "its task's launch handler") {
                        process.runtime.startTask(run)
                    }
                }
            case .expireTask(let app, let taskID):
                withProcess(app) { process in
                    runOnApp(process, on: Self.backgroundQueue, running: "its task's expiration handler") {
                        process.runtime.expireTask(taskID)
                    }
                }
            case .expireBackgroundTasks(let app, let ids):
                withProcess(app) { process in
                    runOnApp(process, running: "a background task's expiration handler") {
                        process.runtime.expireBackgroundTasks(ids)
                    }
                }
            case .suspend(let app):
                processes[app]?.isSuspended = true
            case .resume(let app):
                withProcess(app) { process in
                    process.isSuspended = false
                    runDeferred(process)
                }
            case .terminate(let app, _):
                dropProcess(of: app)
            case .askUser(let app, let taskID, _):
                answerByDefault(app, taskID: taskID)
            case .setCPUPriority:
                // Simulated apps share one virtual CPU with no scheduler: priorities change nothing here.
                break
            case .deliverBackgroundEvent(let app, let event, let token):
                withProcess(app) { process in
                    runOnApp(process, running: "a background event") {
                        process.runtime.deliverBackgroundEvent(event, token: token)
                    }
                }
            case .presentNotification(let app, let presentation):
                withProcess(app) { process in
                    runOnApp(process, running: "its notification delegate") {
                        process.runtime.presentNotification(presentation)
                    }
                }
            }
        }
    }

    /// The system asked the simulated user whether a slow task should go on. If the timeline answers it
    /// later (`answer APP ID continue|stop`), that answer comes then; else the user answers `continue` now.
    private func answerByDefault(_ app: BundleID, taskID: Int) {
        guard let identifier = system.runningTasks.first(where: { $0.id == taskID })?.request.identifier else { return }
        let answered = scenario.timeline.contains { entry in
            guard entry.at >= now.seconds,
                case .system(.answerContinuedProcessingQuestion(app, identifier, _)) = entry.action
            else { return false }
            return true
        }
        guard !answered else { return }
        keep(
            Record(
                at: now, app: app, kind: .log, task: identifier,
                reason: "the timeline does not answer the question: the user answers continue (the default)"))
        perform(
            system.handle(.answerContinuedProcessingQuestion(app, identifier: identifier, answer: .proceed), at: now))
    }

    /// The queue the system's task launches and expirations arrive on when the app named none (`using: nil`).
    nonisolated(unsafe) private static let backgroundQueue = offstage_background_queue()

    /// The app's process ended: the system measured it up to its end, so work cut short is charged for its
    /// share done; then its threads are let go.
    private func dropProcess(of app: BundleID) {
        guard let process = processes.removeValue(forKey: app) else { return }
        process.runtime.endWorkInProgress()
        for thread in process.threads { thread.retire() }
    }

    private func withProcess(_ app: BundleID, _ body: (SimulatedProcess) -> Void) {
        if let process = processes[app] { body(process) }
    }

    private func launch(_ app: BundleID) {
        guard let spec = scenario.apps.first(where: { $0.manifest.bundleIdentifier == app }) else { return }
        let generation = (generations[app] ?? 0) + 1
        generations[app] = generation
        let makeDelegate: @MainActor () -> any UIApplicationDelegate
        let swiftCode = spec.code.flatMap { catalog.apps[$0] }
        if let swiftCode {
            makeDelegate = swiftCode
        } else {
            let behaviour = spec.behaviour
            makeDelegate = { [unowned self] in ScriptedApp(behaviour: behaviour, simulation: self) }
        }
        // A declarative app has no observers: posting its notifications through the process-wide
        // `OperationQueue.main` would only let simulations side by side (an evaluation's) disturb each other.
        processes[app] = SimulatedProcess(
            app: app, generation: generation, simulation: self, postsNotifications: swiftCode != nil,
            makeDelegate: makeDelegate)
        processes[app]?.runtime.sceneManifest = spec.sceneManifest
    }
}
