/// One app's life cycle (§2), and the only code that changes it: the process state, why and for what it was
/// launched, the launch handlers it registered, the callbacks queued and the one in flight, its
/// `beginBackgroundTask` assertions and background time, and a termination under way. All of it dies with the process.
struct AppLifecycle: Sendable {
    private(set) var state: AppState = .notRunning
    private(set) var launchReason: LaunchReason = .user
    /// `didFinishLaunching` has returned: registering exact identifiers now crashes.
    private(set) var launchCompleted = false
    /// The §7 event the process was launched for (a push, a location event, a fetch): its launch options.
    /// Nil for the user's launch or a task's, even if an event arrives while the app is launching.
    private(set) var launchEvent: BackgroundEvent?
    /// The identifiers the app registered launch handlers for.
    private(set) var registered: Set<String> = []
    /// Callbacks waiting to be delivered, one at a time.
    private(set) var queuedCallbacks: [LifecycleCallback] = []
    /// The callback being delivered, with its token and the time by which it must return.
    private(set) var inFlight: CallbackInFlight?
    /// Outstanding `beginBackgroundTask` assertions: identifier → name.
    private(set) var assertions: [Int: String] = [:]
    private var nextAssertionID = 1
    /// When the app entered the background: the start of its background time.
    private(set) var backgroundSince: Instant?
    /// The outstanding assertions were told that the background time is running out.
    private(set) var assertionsWarned = false
    /// A termination waiting for `willTerminate` to return.
    private(set) var terminating: TerminationReason?
    /// A scene-based app's process has its window scene connected (it has been on screen since it launched).
    private(set) var sceneConnected = false

    /// A callback handed to the app's code, answered by `token`, which must return by `deadline` (nil: no watchdog).
    struct CallbackInFlight: Sendable {
        var token: Int
        var callback: LifecycleCallback
        var deadline: Instant?
    }

    // MARK: What the system asks

    /// The state the app will be in once every queued callback is delivered.
    var projectedState: AppState {
        if let last = queuedCallbacks.last, let state = last.stateDuring { return state }
        return state
    }

    /// Whether callbacks wait to be delivered and none is in flight.
    var hasCallbackToDeliver: Bool { inFlight == nil && !queuedCallbacks.isEmpty }

    /// Whether the app is ready for work handed to its code: launched, no callback in flight or queued, not ending.
    var isReadyForWork: Bool { launchCompleted && inFlight == nil && queuedCallbacks.isEmpty && terminating == nil }

    /// Whether a callback, an assertion or a termination keeps the process running.
    var keepsProcessRunning: Bool {
        inFlight != nil || !queuedCallbacks.isEmpty || !assertions.isEmpty || terminating != nil
    }

    // MARK: Launch, moves and suspension

    /// Starts the process for `reason`: the launch callbacks (an app extension's start, `beginRequest`), then
    /// active (user) or background (background task).
    mutating func launch(_ reason: LaunchReason, asExtension: Bool = false) {
        launchReason = reason
        let launch: [LifecycleCallback] = asExtension ? [.beginRequest] : [.willFinishLaunching, .didFinishLaunching]
        queuedCallbacks = launch + [reason == .user ? .didBecomeActive : .didEnterBackground]
    }

    /// Keeps the §7 event the process is being launched for: its launch options say so.
    mutating func noteLaunchEvent(_ event: BackgroundEvent) { launchEvent = event }

    /// The user opens the app at `now`: launched (an extension starts with `beginRequest`) or resumed, else brought
    /// from the background (`willEnterForeground`) or from inactive to active, with the callbacks in iOS's order.
    mutating func open(asExtension: Bool, at now: Instant) -> [LifecycleAction] {
        switch projectedState {
        case .notRunning:
            launch(.user, asExtension: asExtension)
            return [.launched(.user, purpose: "the user opened the app")]
        case .suspended:
            resume(at: now, then: [.willEnterForeground, .didBecomeActive])
            return [.resumed("the user opened the app")]
        case .background: queuedCallbacks += [.willEnterForeground, .didBecomeActive]
        case .inactive: queuedCallbacks += [.didBecomeActive]
        case .active: break
        }
        return []
    }

    /// The system needs the app's code in the background at `now` (for a task or an event, `purpose`): launched in
    /// the background, or resumed, with `didEnterBackground` first unless the device resumes with no callback
    /// (`resumeCallback`; "About the background execution sequence"); a running process is left as it is.
    mutating func wake(
        for purpose: @autoclosure () -> String, resumeCallback: ResumeCallback, asExtension: Bool, at now: Instant
    ) -> [LifecycleAction] {
        switch projectedState {
        case .notRunning:
            launch(.backgroundTask, asExtension: asExtension)
            return [.launched(.backgroundTask, purpose: purpose())]
        case .suspended:
            resume(at: now, then: resumeCallback == .didEnterBackground ? [.didEnterBackground] : [])
            return [.resumed(purpose())]
        default: return []
        }
    }

    /// The app leaves the screen: `willResignActive` (if it will be active) then `didEnterBackground`, after the
    /// callbacks already queued; an app already off screen stays as it is. Its time on screen ends (`.leftScreen`).
    mutating func leaveScreen() -> [LifecycleAction] {
        switch projectedState {
        case .active: queuedCallbacks += [.willResignActive, .didEnterBackground]
        case .inactive: queuedCallbacks += [.didEnterBackground]
        default: break
        }
        return [.leftScreen]
    }

    /// An interruption or the app switcher covers the app on screen: it resigns active (`willResignActive`) if it
    /// will be active. Returns whether it does.
    mutating func resignActive() -> Bool {
        guard projectedState == .active else { return false }
        queuedCallbacks += [.willResignActive]
        return true
    }

    /// Thaws a suspended process at `now`, which then receives `callbacks`; its background time starts anew.
    mutating func resume(at now: Instant, then callbacks: [LifecycleCallback]) {
        state = .background
        startBackgroundTime(at: now)
        queuedCallbacks += callbacks
    }

    /// Freezes the process if it is in the background and nothing keeps it running (its own callbacks, assertions
    /// or termination, nor `otherWork`: tasks, §7's deliveries and modes): iOS's default off screen. Its background
    /// time stops. Returns `.suspended` when it freezes.
    mutating func suspendIfIdle(otherWork: Bool) -> [LifecycleAction] {
        guard state == .background, !keepsProcessRunning, !otherWork else { return [] }
        state = .suspended
        backgroundSince = nil
        return [.suspended]
    }

    /// Takes over a live process a previous run of the host started, as `memory` remembers it, at `now`.
    mutating func adopt(_ memory: ProcessMemory, at now: Instant) {
        state = memory.state
        launchReason = memory.launchReason
        launchCompleted = memory.launchCompleted
        registered = memory.registered
        if memory.state == .background { startBackgroundTime(at: now) }
    }

    /// Forgets everything: the process ended.
    mutating func clearProcess() { self = AppLifecycle() }

    // MARK: Callbacks

    /// Delivers the queued callbacks at `now`, one at a time, to the process of an app with `manifest`: each may
    /// change the state (`.stateChanged`) and goes to its receiver (`.deliver`, answered by the next of `tokens`),
    /// after which delivery waits for it to return. An app extension's moves, which no code hears, pass at once.
    mutating func deliverCallbacks(tokens: inout Int, manifest: AppManifest, at now: Instant, policy: Policy)
        -> [LifecycleAction]
    {
        var actions: [LifecycleAction] = []
        while hasCallbackToDeliver {
            let (before, token) = (state, tokens)
            tokens += 1
            let callback = deliverNextCallback(token: token, at: now, policy: policy)
            if before != state { actions.append(.stateChanged(from: before, to: state)) }
            guard let receiver = receiver(of: callback, manifest: manifest) else {
                let ended = callbackReturned(token: token)
                if !ended.isEmpty { return actions + ended }  // its `willTerminate` passed: the process ends
                continue
            }
            actions.append(.deliver(callback, receiver, token: token))
            return actions
        }
        return actions
    }

    /// Hands the next queued callback to the app at `now`, answered by `token`, to return within the policy's
    /// watchdog: the state becomes the one the callback is delivered in. Call only when `hasCallbackToDeliver`.
    mutating func deliverNextCallback(token: Int, at now: Instant, policy: Policy) -> LifecycleCallback {
        let callback = queuedCallbacks.removeFirst()
        switch callback {
        case .willFinishLaunching, .beginRequest:
            state = launchReason == .user ? .inactive : .background
            if state == .background { startBackgroundTime(at: now) }
        case .didEnterBackground:
            state = .background
            startBackgroundTime(at: now)
        case .willEnterForeground:
            state = .inactive
            backgroundSince = nil
            assertionsWarned = false
        default:
            if let state = callback.stateDuring { self.state = state }
        }
        inFlight = CallbackInFlight(
            token: token, callback: callback, deadline: policy.watchdogTimeout(for: callback).map { now + $0 })
        return callback
    }

    /// The callback with `token` returned (nothing changes if another is in flight): a returning `willTerminate`
    /// ends the termination under way.
    mutating func callbackReturned(token: Int) -> [LifecycleAction] {
        guard let returned = inFlight, returned.token == token else { return [] }
        inFlight = nil
        if returned.callback == .didFinishLaunching || returned.callback == .beginRequest { launchCompleted = true }
        guard returned.callback == .willTerminate, let terminating else { return [] }
        return [.end(terminating)]
    }

    /// Who hears `callback` in the process of an app with `manifest` (noting the scene it connects); nil for an app
    /// extension's moves, which nothing hears: an extension has no app delegate, only its start (`beginRequest`).
    mutating func receiver(of callback: LifecycleCallback, manifest: AppManifest) -> CallbackReceiver? {
        if manifest.isExtension { return callback == .beginRequest ? .appExtension : nil }
        guard manifest.usesScenes else { return .appDelegate }
        switch callback {
        case .willFinishLaunching, .didFinishLaunching, .beginRequest: return .appDelegate
        case .willEnterForeground, .didBecomeActive:
            let connecting = !sceneConnected
            sceneConnected = true
            return .sceneDelegate(connecting: connecting)
        case .willResignActive, .didEnterBackground, .willTerminate:
            return sceneConnected ? .sceneDelegate(connecting: false) : .noScene
        }
    }

    /// Ends the process for `reason`: a process not frozen that the user swipes away or jetsam picks is ended
    /// politely (it leaves the screen, `.leftScreen`, and `.terminationBegan`: only `willTerminate` is delivered
    /// from now on), any other at once (`.end`).
    /// Nothing happens without a process or while a termination is under way.
    mutating func terminate(_ reason: TerminationReason) -> [LifecycleAction] {
        guard state.hasProcess, terminating == nil else { return [] }
        guard reason == .userForceQuit || reason == .memoryPressure, state != .suspended else { return [.end(reason)] }
        terminating = reason
        queuedCallbacks = [.willTerminate]
        return [.leftScreen, .terminationBegan]
    }

    // MARK: Registration, assertions and background time

    /// `BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:)` in the process of an app with
    /// `manifest`: refused (false) in an app extension, where only the host app may register (ours: on iOS it does
    /// not compile), and for an identifier the Info.plist does not permit; registering one twice, or an exact one
    /// after the launch finished, crashes the app. Returns whether the handler is registered.
    mutating func registerLaunchHandler(_ identifier: String, manifest: AppManifest)
        -> (registered: Bool, actions: [LifecycleAction])
    {
        if manifest.isExtension {
            let words = "returns false: only the host application may register launch handlers (an app extension)"
            return (false, [.note(.register, task: identifier, words)])
        }
        let permission = manifest.permission(for: identifier)
        if permission == .notPermitted {
            return (
                false, [.note(.register, task: identifier, "not in BGTaskSchedulerPermittedIdentifiers: returns false")]
            )
        }
        if registered.contains(identifier) {
            return (
                false, [.crash("Launch handler for task with identifier \(identifier) has already been registered")]
            )
        }
        if launchCompleted, permission == .exact, !AppManifest.isWildcard(identifier) {
            return (false, [.crash("All launch handlers must be registered before application finishes launching")])
        }
        registered.insert(identifier)
        return (true, [.note(.register, task: identifier, "launch handler registered")])
    }

    /// Starts the app's background time (for `beginBackgroundTask` assertions) at `time`.
    mutating func startBackgroundTime(at time: Instant) {
        backgroundSince = time
        assertionsWarned = false
    }

    /// Answers the app's background-time `call` with `timeRemaining` its `backgroundTimeRemaining` now:
    /// `beginBackgroundTask` (or `performExpiringActivity`), `endBackgroundTask` and `backgroundTimeRemaining`.
    /// Returns the answer and what to carry out (a crash among them replaces the answer).
    mutating func answerBackgroundTime(_ call: AppCall, timeRemaining: Double, isExtension: Bool, policy: Policy)
        -> (AppCallResult, [LifecycleAction])
    {
        let (name, asExpiringActivity): (String?, Bool)
        switch call {
        case .backgroundTimeRemaining: return (.timeRemaining(timeRemaining), [])
        case .endBackgroundTask(let number): return (.ok, endBackgroundTask(number))
        case .beginBackgroundTask(let taskName): (name, asExpiringActivity) = (taskName, false)
        case .beginExpiringActivity(let reason): (name, asExpiringActivity) = (reason, true)
        default: preconditionFailure("not a background-time call: \(call)")
        }
        let (number, actions) = beginBackgroundTask(
            named: name, asExpiringActivity: asExpiringActivity, isExtension: isExtension,
            timeRemaining: timeRemaining, policy: policy)
        return (.backgroundTask(number), actions)
    }

    /// `beginBackgroundTask(withName:expirationHandler:)` (or `performExpiringActivity`, `asExpiringActivity`): an
    /// assertion numbered from 1 in each process, refused (0) once the background time is up (`timeRemaining`),
    /// expired at once if the outstanding ones were already warned; more than the policy's limit crashes the app.
    /// An app extension has no `beginBackgroundTask` (`NS_EXTENSION_UNAVAILABLE_IOS`): refused. Returns the number.
    private mutating func beginBackgroundTask(
        named name: String?, asExpiringActivity: Bool, isExtension: Bool, timeRemaining: Double, policy: Policy
    ) -> (number: Int, actions: [LifecycleAction]) {
        if isExtension && !asExpiringActivity {
            return (0, [.fact(.assertionBegan, .assertionUnavailableInExtension(name: name))])
        }
        if assertions.count >= policy.maxOutstandingAssertions {
            return (0, [.crash("more than \(policy.maxOutstandingAssertions) background task assertions (0xbada5e47)")])
        }
        if backgroundSince != nil, timeRemaining <= 0 {
            return (0, [.fact(.assertionBegan, .assertionRefused(name: name))])
        }
        let number = nextAssertionID
        nextAssertionID += 1
        assertions[number] = name ?? ""
        let began = LifecycleAction.fact(.assertionBegan, .assertionBegan(number: number, name: name))
        guard assertionsWarned else { return (number, [began]) }
        return (
            number, [began, .fact(.assertionExpired, .assertionBegunLate(number: number)), .expireAssertions([number])]
        )
    }

    /// `endBackgroundTask(_:)`: the assertion `number` ends; an unknown number is only logged, with iOS's message.
    private mutating func endBackgroundTask(_ number: Int) -> [LifecycleAction] {
        guard assertions.removeValue(forKey: number) != nil else {
            let hex = String(number, radix: 16)
            return [
                .note(
                    .log, task: nil,
                    "Can't end BackgroundTask: no background task exists with identifier \(number) (0x\(hex)), "
                        + "or it may have already been ended. Break in UIApplicationEndBackgroundTaskError() to debug.")
            ]
        }
        return [.fact(.assertionEnded, .assertionEnded(number: number))]
    }

    // MARK: Deadlines

    /// When the outstanding assertions' background time ends (`allowance` after the app entered the background);
    /// nil without assertions or background time, or while a task's or a mode's work covers it (`timeCovered`).
    private func backgroundTimeEnd(allowance: Double, timeCovered: Bool) -> Instant? {
        guard let backgroundSince, !assertions.isEmpty, !timeCovered else { return nil }
        return backgroundSince + allowance
    }

    /// Fires the callback watchdog and the background time's deadlines at or before `now`: a late callback or
    /// used-up background time ends the process (an `.end`, the only action then); a near end warns the
    /// outstanding assertions once. A `willTerminate` that runs out ends the termination under way.
    mutating func fireDeadlines(at now: Instant, allowance: Double, timeCovered: Bool, policy: Policy)
        -> [LifecycleAction]
    {
        if let inFlight, let deadline = inFlight.deadline, deadline <= now {
            if inFlight.callback == .willTerminate, let terminating { return [.end(terminating)] }
            let limit = Int(policy.watchdogTimeout(for: inFlight.callback) ?? 0)
            return [.end(.watchdog("\(inFlight.callback.rawValue) did not return within \(limit) s (0x8badf00d)"))]
        }
        guard let end = backgroundTimeEnd(allowance: allowance, timeCovered: timeCovered) else { return [] }
        if now >= end { return [.end(.watchdog("background task assertion timeout"))] }
        guard !assertionsWarned, now >= end + (-policy.assertionExpirationWarning) else { return [] }
        assertionsWarned = true
        let numbers = assertions.keys.sorted()
        return [
            .fact(.assertionExpired, .assertionsExpiring(numbers: numbers, secondsLeft: Int(end - now))),
            .expireAssertions(numbers),
        ]
    }

    /// Notes the process's deadlines in `next`: its callback's watchdog, and its background time's warning or end.
    func noteDeadlines(in next: inout EarliestAfter, allowance: Double, timeCovered: Bool, policy: Policy) {
        next.note(inFlight?.deadline)
        guard let end = backgroundTimeEnd(allowance: allowance, timeCovered: timeCovered) else { return }
        next.note(assertionsWarned ? end : end + (-policy.assertionExpirationWarning))
    }
}
