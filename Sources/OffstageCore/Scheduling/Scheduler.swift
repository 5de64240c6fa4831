import HeapModule

/// The scheduler's system-wide state (§4; each app's is its `AppScheduling`), and the only code that changes it: apps
/// to review now and later, whom a wake or a refill reviews, running tasks, the continued-processing queue, wakes.
struct Scheduler: Sendable {
    /// A queued review of one app at a time: a deadline or a blocker that lifts by itself.
    struct Review: Comparable, Sendable {
        var at: Instant
        var app: BundleID
        var order: Int
        static func < (a: Review, b: Review) -> Bool { (a.at, a.order) < (b.at, b.order) }
        static func == (a: Review, b: Review) -> Bool { (a.at, a.order) == (b.at, b.order) }
    }

    /// Apps whose decisions may have changed since they were last reviewed (see `settle`).
    private var marked = AppSet()
    /// When each app next needs a review without any event: deadlines and blockers that lift.
    private var reviews = Heap<Review>()
    /// For each system-wide change that can lift a blocker (a bit of `BlockerLifts`: a wake, a refill, a change of
    /// the screen, the network, the charger…), the apps with a pending request it can lift: it reviews just these.
    private var appsAwaiting = [AppSet](repeating: AppSet(), count: BlockerLifts.RawValue.bitWidth)
    /// Apps every change of the device, the settings or the screen concerns (a live process, work in flight), as
    /// of their last review.
    private var appsConcernedByEverySharedChange = AppSet()
    /// Apps that have (or, until their next review, had) running tasks: `runningTasks` reads only these.
    private(set) var appsWithTasks = AppSet()
    /// Tasks running on the device, of every app and kind.
    private(set) var runningTaskCount = 0
    /// Continued-processing requests waiting for room, device-wide, oldest first.
    private(set) var continuedQueue: [(app: BundleID, request: TaskRequest)] = []
    /// Maintenance wakes: times the system woke the sleeping device to run discretionary work.
    private(set) var wakeUps = 0
    /// When the device last woke from sleep (a maintenance wake, or to show a notification): it stays awake for the
    /// policy's maintenance window.
    private var lastMaintenanceWake: Instant?

    // MARK: Apps to review now

    /// Whether some app is marked for review.
    var hasMarkedApps: Bool { !marked.isEmpty }

    /// Marks the app at `position` (in installation order) for review before the entry point returns.
    mutating func mark(_ position: Int) { marked.insert(position) }

    /// Marks the first `count` apps: all of them (the wall clock moved, the system's memory was restored).
    mutating func markEveryApp(count: Int) {
        for position in 0..<count { marked.insert(position) }
    }

    /// Marks the apps a change of shared state (the device, the settings, the screen) can concern: those it concerns
    /// whatever it is, and those with a request it can lift (`changes`).
    mutating func markAppsConcerned(by changes: BlockerLifts) {
        marked.formUnion(appsConcernedByEverySharedChange)
        markAppsAwaiting(changes)
    }

    /// Marks the apps with a pending request one of `lifts` can lift.
    private mutating func markAppsAwaiting(_ lifts: BlockerLifts) {
        Self.forEachBit(of: lifts.rawValue) { marked.formUnion(appsAwaiting[$0]) }
    }

    /// Calls `body` with the position of each bit set in `bits`, lowest first: the index of `appsAwaiting`.
    private static func forEachBit(of bits: BlockerLifts.RawValue, _ body: (Int) -> Void) {
        var bits = bits
        while bits != 0 {
            body(bits.trailingZeroBitCount)
            bits &= bits - 1
        }
    }

    /// Moves the marked apps into `batch` and unmarks them: the reviews then mark apps in storage of its own.
    mutating func takeMarkedApps(into batch: inout AppSet) {
        swap(&batch, &marked)
        marked.removeAll()
    }

    // MARK: Reviews to come

    /// The earliest queued review, if any.
    var nextReview: Review? { reviews.min }

    /// Takes the earliest queued review if it is due at `now`.
    mutating func takeReview(dueBy now: Instant) -> Review? {
        guard let top = reviews.min, top.at <= now else { return nil }
        return reviews.removeMin()
    }

    /// Queues `review`.
    mutating func queue(_ review: Review) { reviews.insert(review) }

    /// Drops the earliest queued review (one its app no longer waits for).
    mutating func dropNextReview() { reviews.removeMin() }

    // MARK: What a review found

    /// Notes what a review of the app at `position` found: whether it still has running tasks, and whether every
    /// change of the device, the settings or the screen concerns it (what its requests wait for aside).
    mutating func noteReviewed(_ position: Int, hasRunningTasks: Bool, concernedByEverySharedChange: Bool) {
        if !hasRunningTasks { appsWithTasks.remove(position) }
        if concernedByEverySharedChange {
            appsConcernedByEverySharedChange.insert(position)
        } else {
            appsConcernedByEverySharedChange.remove(position)
        }
    }

    /// Notes which system-wide changes can lift a pending request of the app at `position` (`waits`), and no
    /// longer those it waited for before (`before`; nil: the same as `waits`, nothing to note).
    mutating func noteWaits(_ position: Int, _ waits: BlockerLifts, before: BlockerLifts?) {
        guard let before else { return }
        Self.forEachBit(of: waits.rawValue ^ before.rawValue) { bit in
            if waits.rawValue & (1 << bit) != 0 {
                appsAwaiting[bit].insert(position)
            } else {
                appsAwaiting[bit].remove(position)
            }
        }
    }

    /// A run gave back some of its reservation: the apps waiting for a budget to refill are reviewed.
    mutating func noteBudgetsRefilled() { markAppsAwaiting(.budgetRefill) }

    // MARK: Runs and wakes

    /// A task of the app at `position` started. The first of a batch on cellular brings the radio up: the apps
    /// waiting for a wake (refreshes held only by the radio's cost, `runCost`) are reviewed, to ride along.
    mutating func noteTaskStarted(_ position: Int, onCellular: Bool) {
        runningTaskCount += 1
        appsWithTasks.insert(position)
        if runningTaskCount == 1, onCellular { markAppsAwaiting(.wake) }
    }

    /// An app's cellular bytes brought the radio up: the apps waiting for a wake (refreshes held only by the radio's
    /// cost, `runCost`) are reviewed, to ride along on its tail.
    mutating func noteRadioCameUp() { markAppsAwaiting(.wake) }

    /// A task ended (its app leaves `appsWithTasks` at its next review).
    mutating func noteTaskEnded() { runningTaskCount -= 1 }

    /// The sleeping device wakes at `now` for work: the wake is counted and stays open, and the apps whose
    /// work waits for a wake are reviewed, to ride along with it. Returns the wake's number.
    mutating func noteMaintenanceWake(at now: Instant) -> Int {
        noteDeviceWoke(at: now)
        wakeUps += 1
        return wakeUps
    }

    /// The sleeping device woke at `now`, for work or to show a notification (not counted as a maintenance wake):
    /// it stays awake for the maintenance window, and the apps whose work waits for a wake are reviewed.
    mutating func noteDeviceWoke(at now: Instant) {
        lastMaintenanceWake = now
        markAppsAwaiting(.wake)
    }

    /// Whether a maintenance wake opened within `window` seconds before `now`.
    func isMaintenanceWakeOpen(at now: Instant, window: Double) -> Bool {
        lastMaintenanceWake.map { now < $0 + window } ?? false
    }

    /// The maintenance wakes counted before a restart.
    mutating func restore(wakeUps count: Int) { wakeUps = count }

    // MARK: The continued-processing queue

    /// `BGTaskScheduler.submit(_:)` of a continued-processing request of `app` (§4, §6) with `running` such tasks on
    /// the device: it starts now if there is room under `policy` and none waits; else a `.queue` request is queued.
    mutating func submitContinued(
        _ request: TaskRequest, of app: BundleID, fromForeground: Bool, running: Int, policy: Policy
    ) -> ContinuedSubmission {
        // Apple: "The app submits this request from the foreground", from a person's action.
        guard fromForeground else { return .notFromForeground }
        if running < policy.maxConcurrentContinuedProcessingTasks && continuedQueue.isEmpty { return .startsNow }
        guard request.strategy == .queue else { return .immediateRunIneligible(running: running) }
        continuedQueue.removeAll { $0.app == app && $0.request.identifier == request.identifier }
        continuedQueue.append((app, request))
        return .queued(behind: running)
    }

    /// What became of a submitted continued-processing request (`submitContinued`).
    enum ContinuedSubmission: Equatable {
        /// There is room and none waits: it starts now.
        case startsNow
        /// It waits at the back of the queue (in the place of the app's one with its identifier), `behind` running.
        case queued(behind: Int)
        /// Refused: submitted from the background, not from a person's action.
        case notFromForeground
        /// Refused: no room for a request that does not queue, with `running` such tasks running.
        case immediateRunIneligible(running: Int)
    }

    /// Takes the oldest queued request if, with `running` continued-processing tasks on the device, `policy` leaves
    /// room for one more; nil if none waits or there is no room.
    mutating func takeQueuedContinued(running: Int, policy: Policy) -> (app: BundleID, request: TaskRequest)? {
        guard running < policy.maxConcurrentContinuedProcessingTasks, !continuedQueue.isEmpty else { return nil }
        return continuedQueue.removeFirst()
    }

    /// Removes the app's queued requests that `match` and returns them, oldest first.
    mutating func removeQueuedContinued(of app: BundleID, where matches: (TaskRequest) -> Bool) -> [TaskRequest] {
        let removed = continuedQueue.filter { $0.app == app && matches($0.request) }.map(\.request)
        continuedQueue.removeAll { $0.app == app && matches($0.request) }
        return removed
    }
}
