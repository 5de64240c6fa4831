/// Everything §7 keeps for one app, and the only code that changes it: the held push and the pushes that woke the
/// app, the legacy fetch schedule and the location monitoring (which outlive the process), and the deliveries in
/// flight and the active background modes (which die with it). The system asks it and records what it answers.
struct AppBackgroundEvents: Sendable {
    /// The newest background push waiting until delivery is allowed.
    private(set) var heldPush: HeldPush?
    /// When background pushes woke the app, for the rate limit; only the last window is kept.
    private var pushWakes: [Instant] = []
    /// The interval from `setMinimumBackgroundFetchInterval(_:)`; nil is `backgroundFetchIntervalNever`.
    private(set) var fetchInterval: Double?
    /// When the fetch interval starts counting: when it was set, or when the last fetch ended.
    private var fetchSince: Instant = .zero
    /// The fetch interval's multiplier after slow or failed fetches.
    private(set) var fetchBackoff: Double = 1
    /// `startMonitoringSignificantLocationChanges()` is on: location changes relaunch the app.
    private var significantLocationChanges = false
    /// Regions monitored with `startMonitoring(for:)`, by identifier.
    private var monitoredRegions: Set<String> = []
    /// Events on their way to the app's code or being handled, in the order they began (process state).
    private(set) var deliveries: [BackgroundDelivery] = []
    /// Continuous background modes whose work is going on now (audio playing, a call…; process state).
    private(set) var activeModes: Set<BackgroundMode> = []
    /// The blocker names last recorded for the held push and for the next fetch, so only changes are logged.
    private var lastPushBlockers: [String] = []
    private var lastFetchBlockers: [String] = []

    /// The two §7 events that wait on blockers before the system delivers them.
    enum WaitingEvent: Hashable, Sendable {
        case heldPush
        case fetch
    }

    // MARK: What the system asks

    /// Whether §7 has anything to look at: events in flight, a held push or a fetch interval.
    var hasWork: Bool { !deliveries.isEmpty || awaitsDelivery }

    /// Whether the system holds work it will deliver by itself (a push, the next fetch): shared changes concern it.
    var awaitsDelivery: Bool { heldPush != nil || fetchInterval != nil }

    /// Whether an event being handled or a continuous mode keeps the process running in the background.
    var keepsProcessRunning: Bool { !deliveries.isEmpty || !activeModes.isEmpty }

    /// Whether the app handles a push or fetch now, for which the device stays awake.
    var isHandlingWakeEvent: Bool { deliveries.contains { $0.event.wakesDevice } }

    /// Whether a background fetch is being delivered or handled.
    var isFetching: Bool { deliveries.contains { $0.event == .fetch } }

    /// Whether a background push is being delivered or handled.
    var isHandlingPush: Bool { deliveries.contains { if case .remoteNotification = $0.event { true } else { false } } }

    /// The interval the system uses between fetches: the app's (at least `minimum`) times the backoff factor.
    func effectiveFetchInterval(minimum: Double) -> Double { max(fetchInterval ?? 0, minimum) * fetchBackoff }

    /// When the next fetch is due by its interval alone.
    func nextFetch(minimumInterval: Double) -> Instant { fetchSince + effectiveFetchInterval(minimum: minimumInterval) }

    /// The push rate limit's blocker at `now`: as many pushes woke the app within `window` as `limit` allows.
    func pushRateLimitBlocker(at now: Instant, window: Double, limit: Int) -> Blocker? {
        let recent = pushWakes.filter { now - $0 < window }.sorted()
        guard recent.count >= limit else { return nil }
        let minutes = Int((window / 60).rounded())
        return Blocker(
            constraint: "pushRateLimit",
            reason: "\(recent.count) background pushes woke the app in the last \(minutes) min (limit \(limit))",
            until: limit > 0 ? recent[recent.count - limit] + window : nil)
    }

    /// Whether the app monitors what `event` reports: significant changes (or a running location mode), or its region.
    func monitors(_ event: LocationEvent) -> Bool {
        switch event {
        case .significantChange: significantLocationChanges || activeModes.contains(.location)
        case .enteredRegion(let region), .exitedRegion(let region): monitoredRegions.contains(region)
        }
    }

    /// Notes the deadlines of the deliveries handed over (completion handlers, location windows).
    func noteDeliveryDeadlines(in next: inout EarliestAfter) {
        for delivery in deliveries { next.note(delivery.deadline) }
    }

    // MARK: Pushes

    /// Holds `push` for delivery; returns the older held push it replaces, if any.
    mutating func hold(_ push: HeldPush) -> HeldPush? {
        let older = heldPush
        heldPush = push
        return older
    }

    /// Takes the held push out for delivery; a push that wakes the app in the background (`wakeAt` not nil: the
    /// app is not on screen) counts toward the rate limit, whose `window` is all that is kept of past wakes.
    mutating func releaseHeldPush(countingWakeAt wakeAt: Instant?, window: Double) -> HeldPush? {
        guard let held = heldPush else { return nil }
        heldPush = nil
        if let wakeAt {
            pushWakes.removeAll { wakeAt - $0 >= window }
            pushWakes.append(wakeAt)
        }
        return held
    }

    /// Throws the held push away (the process ended); the next push's wait is recorded anew.
    mutating func discardHeldPush() -> HeldPush? {
        guard let held = heldPush else { return nil }
        heldPush = nil
        lastPushBlockers = []
        return held
    }

    // MARK: Legacy fetch

    /// Sets the fetch interval at `now` (nil: no fetches), restarting its count; false if it is the one it has.
    mutating func setFetchInterval(_ interval: Double?, at now: Instant) -> Bool {
        guard fetchInterval != interval else { return false }
        fetchInterval = interval
        fetchSince = now
        lastFetchBlockers = []
        return true
    }

    /// Judges a fetch that ended at `now` after `took` seconds (`result` nil: the handler was never called):
    /// failed, slow or unfinished fetches double the backoff, up to the policy's limit; new data restores it.
    /// The interval counts again from now. Returns the change of the backoff, if it changed.
    mutating func fetchEnded(
        result: BackgroundFetchResult?, took: Double, at now: Instant, policy: Policy
    ) -> FetchBackoffChange? {
        let before = fetchBackoff
        let why: String
        var slowOrFailed = true
        switch result {
        case nil: why = "the completion handler was not called"
        case .failed?: why = "the fetch failed"
        case _ where took > policy.slowBackgroundFetch:
            why = "the fetch took \(oneDecimal(took)) s (slow: over \(oneDecimal(policy.slowBackgroundFetch)) s)"
        case .newData?:
            why = "the fetch brought new data"
            slowOrFailed = false
        case .noData?:
            why = "no new data"
            slowOrFailed = false
        }
        if slowOrFailed {
            fetchBackoff = min(before * 2, Double(policy.maxBackgroundFetchBackoff))
        } else if result == .newData {
            fetchBackoff = 1
        }
        fetchSince = now
        return fetchBackoff == before ? nil : FetchBackoffChange(before: before, after: fetchBackoff, why: why)
    }

    /// How a fetch's end changed the backoff factor, and why.
    struct FetchBackoffChange: Sendable {
        var before: Double
        var after: Double
        var why: String
    }

    // MARK: Location and background modes

    /// Turns significant-location-change monitoring on or off; false if it already was.
    mutating func setSignificantLocationMonitoring(_ on: Bool) -> Bool {
        guard significantLocationChanges != on else { return false }
        significantLocationChanges = on
        return true
    }

    /// Starts or stops monitoring `region`; false if it already was.
    mutating func setRegionMonitoring(_ region: String, _ on: Bool) -> Bool {
        on ? monitoredRegions.insert(region).inserted : monitoredRegions.remove(region) != nil
    }

    /// Notes that the work of `mode` started or stopped; false if it already had.
    mutating func setActive(_ mode: BackgroundMode, _ active: Bool) -> Bool {
        active ? activeModes.insert(mode).inserted : activeModes.remove(mode) != nil
    }

    /// Takes over the modes an adopted process (after a host's restart) had active.
    mutating func adoptActiveModes(_ modes: Set<BackgroundMode>) { activeModes = modes }

    // MARK: Deliveries

    /// Starts delivering `event`, answered by `token`: it waits until the app is ready for it.
    mutating func beginDelivery(_ event: BackgroundEvent, token: Int) {
        deliveries.append(BackgroundDelivery(token: token, event: event))
    }

    /// Hands every waiting delivery to the app's code at `now`, each with the time the policy allows it from
    /// then; returns them, in the order they began.
    mutating func handOverWaiting(at now: Instant, policy: Policy) -> [BackgroundDelivery] {
        var handed: [BackgroundDelivery] = []
        for index in deliveries.indices where deliveries[index].stage == .waking {
            let deadline = now + policy.allowance(for: deliveries[index].event)
            deliveries[index].stage = .handedOver(at: now, deadline: deadline)
            handed.append(deliveries[index])
        }
        return handed
    }

    /// Deliveries whose deadline has come by `now`, in the order they began.
    func overdueDeliveries(at now: Instant) -> [BackgroundDelivery] {
        deliveries.filter { $0.deadline.map { $0 <= now } ?? false }
    }

    /// Ends the handed-over delivery of `token` whose completion handler the app called; nil (and nothing
    /// changes) if there is none, or it has no completion handler or has not reached the app's code yet.
    mutating func completeDelivery(token: Int) -> (event: BackgroundEvent, deliveredAt: Instant)? {
        guard let index = deliveries.firstIndex(where: { $0.token == token && $0.event.hasCompletionHandler }),
            case .handedOver(let deliveredAt, _) = deliveries[index].stage
        else { return nil }
        let event = deliveries[index].event
        deliveries.removeAll { $0.token == token }
        return (event, deliveredAt)
    }

    /// Forgets the delivery of `token` (its time is over).
    mutating func endDelivery(token: Int) { deliveries.removeAll { $0.token == token } }

    // MARK: Records of waits

    /// Keeps `names` as the blockers last recorded for `event`; false if they are the ones kept already.
    mutating func noteBlockers(_ names: [String], of event: WaitingEvent) -> Bool {
        switch event {
        case .heldPush:
            guard lastPushBlockers != names else { return false }
            lastPushBlockers = names
        case .fetch:
            guard lastFetchBlockers != names else { return false }
            lastFetchBlockers = names
        }
        return true
    }

    // MARK: Process and memory

    /// Forgets what lives only as long as the process: deliveries in flight die with it, modes stop.
    mutating func clearProcess() {
        deliveries = []
        activeModes = []
    }

    /// What outlives the process, as plain values (`BackgroundWorkMemory`).
    var memory: BackgroundWorkMemory {
        var memory = BackgroundWorkMemory()
        memory.heldPush = heldPush
        memory.pushWakes = pushWakes
        memory.fetchInterval = fetchInterval
        memory.fetchSince = fetchSince
        memory.fetchBackoff = fetchBackoff
        memory.significantLocationChanges = significantLocationChanges
        memory.monitoredRegions = monitoredRegions.sorted()
        return memory
    }

    /// Puts back what outlives the process; what lives with it (deliveries, active modes) is left as it is.
    mutating func remember(_ memory: BackgroundWorkMemory) {
        heldPush = memory.heldPush
        pushWakes = memory.pushWakes
        fetchInterval = memory.fetchInterval
        fetchSince = memory.fetchSince
        fetchBackoff = memory.fetchBackoff
        significantLocationChanges = memory.significantLocationChanges
        monitoredRegions = Set(memory.monitoredRegions)
        lastPushBlockers = []
        lastFetchBlockers = []
    }
}

/// One background event on its way to the app or being handled: created when the system decides to deliver it
/// (waking the app), handed over once the app is ready, ended by its handler or its deadline.
struct BackgroundDelivery: Hashable, Sendable {
    /// The token the app's completion handler answers with.
    let token: Int
    let event: BackgroundEvent
    fileprivate(set) var stage: Stage = .waking

    /// Where a delivery stands: a deadline exists exactly when the event has reached the app's code.
    enum Stage: Hashable, Sendable {
        /// The app is still being woken (launched or resumed) for the event.
        case waking
        /// Handed to the app's code at `at`; the completion handler must be called (push, fetch), or the window
        /// ends (location), by `deadline`.
        case handedOver(at: Instant, deadline: Instant)
    }

    /// When the completion handler must have been called or the window ends; nil while the app is being woken.
    var deadline: Instant? {
        if case .handedOver(_, let deadline) = stage { deadline } else { nil }
    }
}
