/// Everything §7 keeps for one app, and its rules: the held push and the pushes that woke the app, the legacy fetch
/// schedule and the location monitoring (which outlive the process), the deliveries in flight and the active
/// background modes (which die with it). Each transition takes `now` and what it reads of the app and the system,
/// and returns what the system must do (`BackgroundEventAction`); it never sees `BackgroundSystem`.
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

    /// The labels records of pushes, fetches and location events carry in their task column.
    static let pushLabel = BackgroundEvent.remoteNotification(payload: "").label
    static let fetchLabel = BackgroundEvent.fetch.label
    static let locationLabel = BackgroundEvent.location(.significantChange).label

    /// The reason of the `NSInternalInconsistencyException` `-[CLLocationManager setAllowsBackgroundLocationUpdates:]`
    /// raises when the Info.plist lacks the `location` background mode.
    static let backgroundLocationCrash =
        "Invalid parameter not satisfying: !stayUp || CLClientIsBackgroundable(internal->fClient) || _CFMZEnabled()"

    /// The two §7 events that wait on blockers before the system delivers them.
    enum WaitingEvent: Hashable, Sendable {
        case heldPush
        case fetch

        /// The label of the event's records.
        var label: String { self == .heldPush ? AppBackgroundEvents.pushLabel : AppBackgroundEvents.fetchLabel }
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
    private var isFetching: Bool { deliveries.contains { $0.event == .fetch } }

    /// Whether a background push is being delivered or handled.
    private var isHandlingPush: Bool {
        deliveries.contains { if case .remoteNotification = $0.event { true } else { false } }
    }

    /// The interval the system uses between fetches: the app's (at least `minimum`) times the backoff factor.
    private func effectiveFetchInterval(minimum: Double) -> Double { max(fetchInterval ?? 0, minimum) * fetchBackoff }

    /// Notes the deadlines of the deliveries handed over (completion handlers, location windows).
    func noteDeliveryDeadlines(in next: inout EarliestAfter) {
        for delivery in deliveries { next.note(delivery.deadline) }
    }

    /// Everything that holds the held push back at `now` (empty when it may go, or when none is held, or when the
    /// app is on screen): the constraints `FactorTable` applies to pushes (`constraintBlockers`, asked only then),
    /// a push still being handled, and the pushes' own rate limit.
    func pushBlockers(at now: Instant, onScreen: Bool, policy: Policy, constraintBlockers: () -> [Blocker])
        -> [Blocker]
    {
        guard heldPush != nil, !onScreen else { return [] }
        var blockers = constraintBlockers()
        if isHandlingPush {
            blockers.append(
                Blocker(constraint: "pushInProgress", reason: "the app is still handling a background push", until: nil)
            )
        }
        if FactorTable.standard.holds(.rateLimiting, .backgroundPush),
            let rateLimit = pushRateLimitBlocker(
                at: now, window: policy.backgroundPushRateWindow, limit: policy.backgroundPushRateLimit)
        {
            blockers.append(rateLimit)
        }
        return blockers
    }

    /// The push rate limit's blocker at `now`: as many pushes woke the app within `window` as `limit` allows.
    private func pushRateLimitBlocker(at now: Instant, window: Double, limit: Int) -> Blocker? {
        let recent = pushWakes.filter { now - $0 < window }.sorted()
        guard recent.count >= limit else { return nil }
        let minutes = Int((window / 60).rounded())
        return Blocker(
            constraint: "pushRateLimit",
            reason: "\(recent.count) background pushes woke the app in the last \(minutes) min (limit \(limit))",
            until: limit > 0 ? recent[recent.count - limit] + window : nil)
    }

    /// Everything that holds the next fetch back at `now` (empty when it is due and allowed, or when the app
    /// asked for no fetches). Besides the interval, the refresh constraints judge it (`constraintBlockers`, asked
    /// only when the app may fetch at all and no fetch is under way).
    func fetchBlockers(at now: Instant, manifest: AppManifest, policy: Policy, constraintBlockers: () -> [Blocker])
        -> [Blocker]
    {
        guard fetchInterval != nil else { return [] }
        if let problem = Self.fetchProblem(manifest) {
            return [Blocker(constraint: "fetchUnavailable", reason: problem, until: nil)]
        }
        if isFetching {
            return [Blocker(constraint: "fetchInProgress", reason: "a background fetch is being handled", until: nil)]
        }
        var blockers: [Blocker] = []
        let interval = effectiveFetchInterval(minimum: policy.minimumBackgroundFetchInterval)
        let due = fetchSince + interval
        if now < due {
            let factor = fetchBackoff == 1 ? "" : ", ×\(factorText(fetchBackoff)) after slow or failed fetches"
            blockers.append(
                Blocker(
                    constraint: "fetchInterval",
                    reason: "the next fetch is \(oneDecimal(interval)) s after the last\(factor)", until: due))
        }
        return blockers + constraintBlockers()
    }

    /// Why an app with `manifest` cannot use legacy background fetch at all, or nil.
    private static func fetchProblem(_ manifest: AppManifest) -> String? {
        if !manifest.backgroundModes.contains(.fetch) { return "UIBackgroundModes lacks 'fetch'" }
        if !manifest.permittedIdentifiers.isEmpty {
            return "the Info.plist has BGTaskSchedulerPermittedIdentifiers, which disables legacy background fetch"
        }
        return nil
    }

    /// The app's fetch schedule and the reasons its next fetch waits (`blockers`); nil if it asked for no fetches.
    func fetchStatus(of app: BundleID, blockers: [Blocker], policy: Policy) -> BackgroundFetchStatus? {
        guard let fetchInterval else { return nil }
        return BackgroundFetchStatus(
            app: app, requestedInterval: fetchInterval,
            effectiveInterval: effectiveFetchInterval(minimum: policy.minimumBackgroundFetchInterval),
            backoff: fetchBackoff, inProgress: isFetching, blockers: blockers)
    }

    // MARK: Events arriving

    /// A background push or a location event arrived for the app: a push is held (replacing an older held one)
    /// unless the app cannot take it; a location event is delivered if the app monitors it, else dropped.
    mutating func receive(_ event: BackgroundEvent, at now: Instant, manifest: AppManifest, forceQuit: Bool)
        -> [BackgroundEventAction]
    {
        switch event {
        case .remoteNotification(let payload):
            let label = Self.pushLabel
            var actions: [BackgroundEventAction] = [
                .note(.push, task: label, "background push arrived (payload \"\(payload)\")")
            ]
            if !manifest.backgroundModes.contains(.remoteNotification) {
                return actions + [.fact(.dropped, task: label, .pushDropped(.modeMissing))]
            }
            if forceQuit, FactorTable.standard.holds(.appSwitcher, .backgroundPush) {
                return actions + [.fact(.dropped, task: label, .pushDropped(.swipedAway))]
            }
            if let older = heldPush {
                actions.append(
                    .fact(.dropped, task: label, .pushCoalesced(arrivedAt: older.arrivedAt, payload: older.payload)))
            }
            heldPush = HeldPush(payload: payload, arrivedAt: now)
            return actions
        case .location(let location):
            let label = Self.locationLabel
            let arrived = BackgroundEventAction.note(.location, task: label, location.description)
            guard monitors(location) else {
                let what = location.region.map { "the region \($0)" } ?? "location changes"
                return [arrived, .note(.dropped, task: label, "the app does not monitor \(what)")]
            }
            return [arrived, .deliver(event, why: "for a \(location)")]
        case .fetch, .urlSessionEvents:
            preconditionFailure("\(event.label) is the system's own event: it does not arrive from outside")
        }
    }

    /// Whether the app monitors what `event` reports: significant changes (or a running location mode), or its region.
    private func monitors(_ event: LocationEvent) -> Bool {
        switch event {
        case .significantChange: significantLocationChanges || activeModes.contains(.location)
        case .enteredRegion(let region), .exitedRegion(let region): monitoredRegions.contains(region)
        }
    }

    // MARK: The settle pass

    /// Ends deliveries whose time is up at `now`: a location window simply closes; a push or fetch whose
    /// completion handler was not called gets the app killed (the last action), unless it is on screen, where it is
    /// only forgotten. A fetch that ends so is judged as unfinished.
    mutating func endOverdueDeliveries(at now: Instant, onScreen: Bool, policy: Policy) -> [BackgroundEventAction] {
        var actions: [BackgroundEventAction] = []
        for delivery in deliveries where delivery.deadline.map({ $0 <= now }) ?? false {
            let seconds = Int(policy.allowance(for: delivery.event))
            if delivery.event == .fetch {
                actions += fetchEnded(result: nil, took: Double(seconds), at: now, policy: policy)
            }
            guard delivery.event.killsWhenLate, !onScreen else {
                deliveries.removeAll { $0.token == delivery.token }
                let why =
                    !delivery.event.hasCompletionHandler
                    ? "the \(seconds) s the location event gives the app are over"
                    : delivery.event.killsWhenLate
                        ? "completion handler not called within \(seconds) s; the app is on screen, so it is not killed"
                        : "completion handler not called within \(seconds) s: the system goes on without it"
                actions.append(.note(.handled, task: delivery.event.label, why))
                continue
            }
            actions.append(.kill("\(delivery.event.method) did not call its completion handler within \(seconds) s"))
            break
        }
        return actions
    }

    /// Delivers the held push at `now` if nothing blocks it (`blockers`, from `pushBlockers`) and the process is
    /// not ending; the app on screen takes it at once, outside the rate limit, and a push that wakes the app in the
    /// background counts toward it. Otherwise records why it waits, when that changes.
    mutating func releaseHeldPush(
        blockedBy blockers: [Blocker], at now: Instant, onScreen: Bool, processEnding: Bool, policy: Policy
    ) -> [BackgroundEventAction] {
        guard let held = heldPush, !processEnding else { return [] }
        let deferral = deferral(of: .heldPush, blockers)
        guard blockers.isEmpty else { return deferral }
        heldPush = nil
        if !onScreen {
            let window = policy.backgroundPushRateWindow
            pushWakes.removeAll { now - $0 >= window }
            pushWakes.append(now)
        }
        let why = onScreen ? "the app is on screen" : "no constraint holds the push back"
        return deferral + [
            .deliver(.remoteNotification(payload: held.payload), why: "to deliver a background push: \(why)")
        ]
    }

    /// Starts a fetch if one is due and nothing blocks it (`blockers`, from `fetchBlockers`): a discretionary
    /// launch, as a refresh is. Otherwise records why it waits, when that changes.
    mutating func startFetchIfDue(blockedBy blockers: [Blocker], processEnding: Bool) -> [BackgroundEventAction] {
        guard fetchInterval != nil, !processEnding, !isFetching else { return [] }
        let deferral = deferral(of: .fetch, blockers)
        guard blockers.isEmpty else { return deferral }
        return deferral + [.countDiscretionaryLaunch, .deliver(.fetch, why: "to perform a background fetch")]
    }

    /// A record of the blockers of `event` when their names change since the last one, so only changes are logged.
    private mutating func deferral(of event: WaitingEvent, _ blockers: [Blocker]) -> [BackgroundEventAction] {
        let names = blockers.map(\.constraint)
        switch event {
        case .heldPush:
            guard lastPushBlockers != names else { return [] }
            lastPushBlockers = names
        case .fetch:
            guard lastFetchBlockers != names else { return [] }
            lastFetchBlockers = names
        }
        return blockers.isEmpty ? [] : [.fact(.deferred, task: event.label, .deferred(blockers: blockers))]
    }

    /// Starts delivering `event`, answered by `token`: it waits until the app is ready for it.
    mutating func beginDelivery(_ event: BackgroundEvent, token: Int) {
        deliveries.append(BackgroundDelivery(token: token, event: event))
    }

    /// Hands every waiting delivery to the app's code at `now` (the app is ready for work), each with the time the
    /// policy allows it from then, in the order they began.
    mutating func handOverWaiting(at now: Instant, policy: Policy) -> [BackgroundEventAction] {
        var actions: [BackgroundEventAction] = []
        for index in deliveries.indices where deliveries[index].stage == .waking {
            let event = deliveries[index].event
            let allowance = policy.allowance(for: event)
            deliveries[index].stage = .handedOver(at: now, deadline: now + allowance)
            let limit = event.hasCompletionHandler ? "to call its completion handler" : "in the background"
            actions.append(.note(.delivered, task: event.label, "\(event.method): \(Int(allowance)) s \(limit)"))
            actions.append(.handOver(event, token: deliveries[index].token))
        }
        return actions
    }

    // MARK: The app's calls

    /// Answers one of §7's app calls at `now`: a completion handler, the fetch interval, a background mode's work,
    /// location monitoring, `allowsBackgroundLocationUpdates`. `manifest` is the app's Info.plist.
    mutating func answer(_ call: AppCall, at now: Instant, manifest: AppManifest, policy: Policy)
        -> [BackgroundEventAction]
    {
        switch call {
        case .backgroundEventCompleted(let token, let result):
            return completeDelivery(token: token, result: result, at: now, policy: policy)
        case .setMinimumBackgroundFetchInterval(let interval):
            return setFetchInterval(interval, at: now, manifest: manifest, policy: policy)
        case .setBackgroundActivity(let mode, let active):
            return setActivity(of: mode, active, manifest: manifest)
        case .setSignificantLocationMonitoring(let on):
            guard significantLocationChanges != on else { return [] }
            significantLocationChanges = on
            let what = on ? "monitored: they relaunch the app" : "no longer monitored"
            return [.note(.log, task: Self.locationLabel, "significant location changes \(what)")]
        case .setRegionMonitoring(let region, let on):
            guard on ? monitoredRegions.insert(region).inserted : monitoredRegions.remove(region) != nil else {
                return []
            }
            let what = on ? "monitored: crossing it relaunches the app" : "no longer monitored"
            return [.note(.log, task: Self.locationLabel, "region \(region) \(what)")]
        case .allowBackgroundLocationUpdates:
            // Without `location` in `UIBackgroundModes` it is a programmer error: Core Location's assertion crashes.
            return manifest.backgroundModes.contains(.location) ? [] : [.crash(Self.backgroundLocationCrash)]
        default:
            preconditionFailure("not a call of §7: \(call)")
        }
    }

    /// The app called a push's or fetch's completion handler: the delivery ends, and a fetch is judged. A second
    /// call, or one for an event not handed over, is ignored with a record.
    private mutating func completeDelivery(token: Int, result: BackgroundFetchResult, at now: Instant, policy: Policy)
        -> [BackgroundEventAction]
    {
        guard let index = deliveries.firstIndex(where: { $0.token == token && $0.event.hasCompletionHandler }),
            case .handedOver(let deliveredAt, _) = deliveries[index].stage
        else { return [.note(.log, task: nil, "completion handler called again or for no current event: ignored")] }
        let event = deliveries[index].event
        deliveries.removeAll { $0.token == token }
        let took = now - deliveredAt
        let handled = BackgroundEventAction.fact(
            .handled, task: event.label, .handlerCalled(result: result, seconds: took))
        guard event == .fetch else { return [handled] }
        return [handled] + fetchEnded(result: result, took: took, at: now, policy: policy)
    }

    /// `setMinimumBackgroundFetchInterval(_:)` at `now`: nil (`backgroundFetchIntervalNever`) stops fetches. Setting
    /// the interval it already has keeps the schedule (apps set it at every launch); a new one counts from now.
    private mutating func setFetchInterval(_ interval: Double?, at now: Instant, manifest: AppManifest, policy: Policy)
        -> [BackgroundEventAction]
    {
        guard fetchInterval != interval else { return [] }
        fetchInterval = interval
        fetchSince = now
        lastFetchBlockers = []
        let call = "setMinimumBackgroundFetchInterval"
        guard let interval else {
            return [.note(.log, task: Self.fetchLabel, "\(call)(backgroundFetchIntervalNever): no background fetches")]
        }
        let asked = interval <= 0 ? "backgroundFetchIntervalMinimum" : "\(oneDecimal(interval)) s"
        if let problem = Self.fetchProblem(manifest) {
            return [.note(.log, task: Self.fetchLabel, "\(call)(\(asked)) has no effect: \(problem)")]
        }
        let effective = effectiveFetchInterval(minimum: policy.minimumBackgroundFetchInterval)
        return [
            .note(.log, task: Self.fetchLabel, "\(call)(\(asked)): fetches at most every \(oneDecimal(effective)) s")
        ]
    }

    /// Judges a fetch that ended at `now` after `took` seconds (`result` nil: the handler was never called):
    /// failed, slow or unfinished fetches double the backoff, up to the policy's limit; new data restores it.
    /// The interval counts again from now. A change of the backoff is recorded with the next fetch's interval.
    private mutating func fetchEnded(result: BackgroundFetchResult?, took: Double, at now: Instant, policy: Policy)
        -> [BackgroundEventAction]
    {
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
        guard fetchBackoff != before else { return [] }
        let interval = effectiveFetchInterval(minimum: policy.minimumBackgroundFetchInterval)
        return [
            .note(
                .log, task: Self.fetchLabel,
                "fetch interval ×\(factorText(fetchBackoff)) (was ×\(factorText(before))): \(why); "
                    + "next fetch in \(oneDecimal(interval)) s")
        ]
    }

    /// The app started or stopped the work of `mode`. Without the mode in its manifest nothing changes (iOS simply
    /// suspends it in the background); modes that are not continuous are ignored.
    private mutating func setActivity(of mode: BackgroundMode, _ active: Bool, manifest: AppManifest)
        -> [BackgroundEventAction]
    {
        let name = mode.rawValue
        guard BackgroundMode.continuous.contains(mode) else {
            return [.note(.log, task: nil, "'\(name)' is not a mode that keeps an app running: ignored")]
        }
        guard manifest.backgroundModes.contains(mode) else {
            return [
                .note(
                    .log, task: nil,
                    "\(name) \(active ? "started" : "stopped") without '\(name)' in UIBackgroundModes: no effect, "
                        + "the app is suspended in the background as usual")
            ]
        }
        guard active ? activeModes.insert(mode).inserted : activeModes.remove(mode) != nil else { return [] }
        let what =
            active ? "\(name) started: the app keeps running in the background while it lasts" : "\(name) stopped"
        return [.note(.backgroundMode, task: nil, what)]
    }

    /// Takes over the modes an adopted process (after a host's restart) had active.
    mutating func adoptActiveModes(_ modes: Set<BackgroundMode>) { activeModes = modes }

    // MARK: Process and memory

    /// Throws the held push away because the process ended (`why`); the next push's wait is recorded anew.
    mutating func discardHeldPush(because why: String) -> [BackgroundEventAction] {
        guard let held = heldPush else { return [] }
        heldPush = nil
        lastPushBlockers = []
        return [.fact(.dropped, task: Self.pushLabel, .heldPushDiscarded(payload: held.payload, because: why))]
    }

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

/// A backoff factor as records show it: "2", or "1.5" when not whole.
func factorText(_ factor: Double) -> String {
    factor == factor.rounded() ? "\(Int(factor))" : oneDecimal(factor)
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
