/// Everything the system tracks for one installed app: its life cycle (`AppLifecycle`), its requests and running
/// tasks (`AppScheduling`), its judgement history (`AppJudgementHistory`) and §7's state. Internal: hosts read it
/// through `BackgroundSystem`. A field of `AppFields`, of its life cycle, its scheduling, its judgement history or
/// its resources is read by name (`app.state`, `app.pending`, `app.usage`); those four change only through their
/// own methods.
///
/// The fields live in one shared box until a copy changes them: reading a record by value (as every
/// pass over an app does) costs one reference count, not one per field (there are dozens).
@dynamicMemberLookup
struct AppRecord: Sendable {
    private final class Box: @unchecked Sendable {
        @exclusivity(unchecked) var fields: AppFields
        init(_ fields: AppFields) { self.fields = fields }
    }

    private var box: Box

    init(manifest: AppManifest, installIndex: Int, memoryFootprint: Int) {
        box = Box(AppFields(manifest: manifest, installIndex: installIndex, memoryFootprint: memoryFootprint))
    }

    subscript<Value>(dynamicMember path: KeyPath<AppFields, Value>) -> Value { box.fields[keyPath: path] }

    subscript<Value>(dynamicMember path: KeyPath<AppLifecycle, Value>) -> Value { box.fields.lifecycle[keyPath: path] }

    subscript<Value>(dynamicMember path: KeyPath<AppScheduling, Value>) -> Value {
        box.fields.scheduling[keyPath: path]
    }

    subscript<Value>(dynamicMember path: KeyPath<AppJudgementHistory, Value>) -> Value {
        box.fields.judgementHistory[keyPath: path]
    }
    subscript<Value>(dynamicMember path: KeyPath<AppResources, Value>) -> Value {
        box.fields.resources[keyPath: path]
    }

    subscript<Value>(dynamicMember path: WritableKeyPath<AppFields, Value>) -> Value {
        get { box.fields[keyPath: path] }
        _modify {
            makeUnique()
            yield &box.fields[keyPath: path]
        }
    }

    // The derived facts are computed here from stored fields, read in place in the box: a method of
    // `AppFields` would be called on a copy of every field, and a field read by name is copied out.

    var id: BundleID { self.manifest.bundleIdentifier }

    /// When the user last had the app on screen (zero if never): the switcher and jetsam order by it.
    var lastUsed: Instant { box.fields.judgementHistory.usage.lastUsed ?? .zero }

    /// Whether §7 has anything of the app's to look at: events in flight, a held push or a fetch interval.
    var hasBackgroundEventWork: Bool { box.fields.backgroundEvents.hasWork }

    /// Whether the app handles a push or fetch now, for which the device stays awake.
    var isHandlingWakeEvent: Bool { box.fields.backgroundEvents.isHandlingWakeEvent }

    /// Whether the app's kept judgement of its pending requests holds (see `PendingJudgement.holds`), asked
    /// where it lies: taking the judgement out of the box to ask copied it.
    func judgementHolds(pending: [TaskRequest], now: Instant, seen: PendingJudgement.Seen, sight: AppStateSight)
        -> Bool
    {
        box.fields.scheduling.judgement?.holds(pending: pending, now: now, seen: seen, sight: sight) ?? false
    }

    /// Whether none of the app's pending requests can start at `now` whatever happens, its own state unchanged
    /// (its kept judgement's `holdsWhateverHappens`): asked before anything is worked out for a judgement.
    func judgementHoldsWhateverHappens(pending: [TaskRequest], now: Instant, sight: AppStateSight) -> Bool {
        box.fields.scheduling.judgement?.holdsWhateverHappens(
            pending: pending, now: now, appState: projectedState, appForceQuit: box.fields.forceQuit,
            runningIdentifiers: box.fields.scheduling.runningIdentifiers, sight: sight) ?? false
    }

    /// The app's usage tier at `now` (see `AppJudgementHistory.usageTier`), asked where its history lies.
    func usageTier(at now: Instant, clock: WallClock, policy: JudgementPolicy) -> UsageTier {
        box.fields.judgementHistory.usageTier(at: now, clock: clock, policy: policy)
    }

    /// The state the app will be in once every queued callback is delivered.
    var projectedState: AppState { box.fields.lifecycle.projectedState }

    /// Whether the app is ready for work handed to its code: launched, no callback in flight or queued, not ending.
    var isReadyForWork: Bool { box.fields.lifecycle.isReadyForWork }

    /// A callback watchdog, background time or a running task: deadlines `fireTimers` watches.
    var hasTimers: Bool {
        box.fields.lifecycle.inFlight != nil || !box.fields.lifecycle.assertions.isEmpty
            || box.fields.scheduling.hasRunningTasks
    }

    /// Whether the app has tasks running (delivered or not).
    var hasRunningTasks: Bool { box.fields.scheduling.hasRunningTasks }

    /// Whether a task handed to the app is running: its own time then covers the app's background time.
    var backgroundTimeCoveredByTask: Bool { box.fields.scheduling.hasDeliveredTask }

    /// Whether the work of a continuous background mode (audio playing, a call…) keeps the app running: its
    /// background time does not run out meanwhile, as iOS gives such an app unlimited `backgroundTimeRemaining`.
    var backgroundTimeCoveredByMode: Bool { !box.fields.backgroundEvents.activeModes.isEmpty }

    /// Whether a task's or a mode's work keeps the app running, so its background time does not run out.
    var backgroundTimeCovered: Bool { backgroundTimeCoveredByTask || backgroundTimeCoveredByMode }

    /// `backgroundTimeRemaining` at `now`: unlimited on screen and while a background mode's work runs; while a task
    /// handed to the app runs, its own time covers the app (SPEC §3; our model, Apple gives no rule): the time left to
    /// the longest-running one (its grace once expired); else what is left of `allowance` since it left the screen.
    func backgroundTimeRemaining(at now: Instant, allowance: Double, expirationGrace: Double) -> Double {
        guard let since = box.fields.lifecycle.backgroundSince, !box.fields.lifecycle.state.isForeground,
            !backgroundTimeCoveredByMode
        else { return .greatestFiniteMagnitude }
        guard backgroundTimeCoveredByTask else { return max(0, since + allowance - now) }
        let ends = box.fields.scheduling.running.filter(\.delivered).map { run in
            run.expiredAt.map { $0 + expirationGrace } ?? run.expiresAt ?? .init(seconds: .greatestFiniteMagnitude)
        }
        return max(0, (ends.max() ?? now) - now)
    }

    /// Notes the process's deadlines after the bound of `next` (`AppLifecycle.noteDeadlines`), asked where the life
    /// cycle lies: its background time counts only while no task's or mode's work covers it.
    func noteProcessDeadlines(in next: inout EarliestAfter, allowance: Double, policy: Policy) {
        box.fields.lifecycle.noteDeadlines(
            in: &next, allowance: allowance,
            timeCovered: backgroundTimeCovered, policy: policy)
    }

    /// The delivered runs' deadlines at or before `now` (`AppScheduling.deadlinesDue`), asked where the runs lie.
    func runDeadlinesDue(at now: Instant, policy: Policy) -> [SchedulingAction] {
        box.fields.scheduling.deadlinesDue(at: now, policy: policy)
    }

    /// Whether a running task waits to be handed to the app's code.
    var hasUndeliveredTask: Bool { box.fields.scheduling.hasUndeliveredTask }

    /// Whether a termination waits for `willTerminate` to return.
    var isTerminating: Bool { box.fields.lifecycle.terminating != nil }

    /// Whether callbacks wait to be delivered and none is in flight: `pumpCallbacks` has one to deliver.
    var hasCallbackToDeliver: Bool { box.fields.lifecycle.hasCallbackToDeliver }

    /// Whether work beyond the app's life cycle keeps its process running: a task, a §7 delivery or a mode.
    var hasWorkBeyondLifecycle: Bool {
        box.fields.scheduling.hasRunningTasks || box.fields.backgroundEvents.keepsProcessRunning
    }

    /// Nothing is keeping the app running in the background: no callback, assertion, task or termination
    /// in flight, no §7 delivery and no active background mode.
    var hasNoBackgroundWork: Bool { !box.fields.lifecycle.keepsProcessRunning && !hasWorkBeyondLifecycle }

    /// Whether every change of the device, the settings or the screen can matter to the app, whatever its pending
    /// requests wait for: it has a live process that is not suspended, work in flight, or §7 work the system
    /// schedules.
    var concernedByEverySharedChange: Bool {
        !hasNoBackgroundWork
            || (box.fields.lifecycle.state != .suspended && box.fields.lifecycle.state != .notRunning)
            || box.fields.backgroundEvents.awaitsDelivery
    }

    /// Forgets everything that lives only as long as the process.
    mutating func clearProcess() {
        makeUnique()
        box.fields.clearProcess()
    }

    /// Gives this record its own box before a change, if another copy shares it.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
    }
}

/// The fields of an `AppRecord`, by value.
struct AppFields: Sendable {
    var manifest: AppManifest
    /// The app's place in installation order: reviews run in this order, for determinism.
    let installIndex: Int
    /// Its process: state, callbacks, assertions and background time, a termination under way (§2).
    var lifecycle = AppLifecycle()
    /// Its pending requests and running tasks, their waits and reviews, its quota starts and reservations (§4).
    var scheduling = AppScheduling()
    /// The user swiped the app away and has not opened it since. Outlives the process.
    var forceQuit = false
    /// Its memory footprint and everything its processes used, as the host reported them. Outlives processes.
    var resources: AppResources
    /// Its use, usage tier, cooperation, content age and wakes, as the judgement reads them (§5). Outlives processes.
    var judgementHistory = AppJudgementHistory()
    /// Its background pushes, legacy fetch, location monitoring and background modes (§7).
    var backgroundEvents = AppBackgroundEvents()

    init(manifest: AppManifest, installIndex: Int, memoryFootprint: Int) {
        self.manifest = manifest
        self.installIndex = installIndex
        resources = AppResources(memoryFootprint: memoryFootprint)
    }

    /// Forgets everything that lives only as long as the process.
    mutating func clearProcess() {
        lifecycle.clearProcess()
        scheduling.clearProcess()
        backgroundEvents.clearProcess()
    }
}
