import Testing

@testable import OffstageCore

/// One app's life cycle on its own (§2): the launch callbacks one at a time with their states and watchdogs,
/// background time started and stopped by the moves, assertions numbered from 1 per process, a polite termination,
/// and adoption.
@Suite struct AppLifecycleTests {
    let policy = Policy.iOS

    func at(_ seconds: Double) -> Instant { Instant(seconds: seconds) }

    /// Delivers every queued callback, each returning at once; the callbacks in the order delivered.
    func deliverAll(_ lifecycle: inout AppLifecycle, at time: Instant) -> [LifecycleCallback] {
        var delivered: [LifecycleCallback] = []
        var token = 1
        while lifecycle.hasCallbackToDeliver {
            let callback = lifecycle.deliverNextCallback(token: token, at: time, policy: policy)
            delivered.append(callback)
            _ = lifecycle.callbackReturned(token: token)
            token += 1
        }
        return delivered
    }

    @Test func aBackgroundLaunchDeliversTheLaunchCallbacksAndStartsTheBackgroundTime() {
        var lifecycle = AppLifecycle()
        lifecycle.launch(.backgroundTask)
        #expect(lifecycle.projectedState == .background && lifecycle.state == .notRunning)
        #expect(!lifecycle.isReadyForWork)
        let delivered = deliverAll(&lifecycle, at: at(5))
        #expect(delivered == [.willFinishLaunching, .didFinishLaunching, .didEnterBackground])
        #expect(lifecycle.state == .background && lifecycle.backgroundSince == at(5))
        #expect(lifecycle.launchCompleted && lifecycle.isReadyForWork && !lifecycle.keepsProcessRunning)
    }

    @Test func aCallbackInFlightHasItsWatchdogAndOnlyItsTokenEndsIt() {
        var lifecycle = AppLifecycle()
        lifecycle.launch(.user)
        let callback = lifecycle.deliverNextCallback(token: 7, at: at(0), policy: policy)
        #expect(callback == .willFinishLaunching && lifecycle.state == .inactive)
        #expect(lifecycle.inFlight?.deadline == policy.watchdogTimeout(for: .willFinishLaunching).map { at(0) + $0 })
        #expect(!lifecycle.hasCallbackToDeliver)
        let wrong = lifecycle.callbackReturned(token: 8)
        #expect(wrong.isEmpty && lifecycle.inFlight?.token == 7)
        let right = lifecycle.callbackReturned(token: 7)
        #expect(right.isEmpty && lifecycle.inFlight == nil)
    }

    /// An app launched in the background at 0 with one `beginBackgroundTask` assertion.
    func backgroundAppWithAnAssertion() -> AppLifecycle {
        var lifecycle = AppLifecycle()
        lifecycle.launch(.backgroundTask)
        _ = deliverAll(&lifecycle, at: at(0))
        _ = begin(&lifecycle)
        return lifecycle
    }

    @Test func comingToTheForegroundStopsTheBackgroundTimeAndSuspensionFreezesTheProcess() {
        var lifecycle = backgroundAppWithAnAssertion()
        let allowance = policy.backgroundTimeAllowance
        let nearTheEnd = at(allowance - policy.assertionExpirationWarning)
        let warned = lifecycle.fireDeadlines(
            at: nearTheEnd, allowance: allowance, timeCovered: false, policy: policy)
        #expect(warned.last == .expireAssertions([1]) && lifecycle.assertionsWarned)
        #expect(lifecycle.open(asExtension: false, at: at(10)).isEmpty)
        #expect(deliverAll(&lifecycle, at: at(10)) == [.willEnterForeground, .didBecomeActive])
        #expect(lifecycle.state == .active && lifecycle.backgroundSince == nil && !lifecycle.assertionsWarned)
        _ = lifecycle.leaveScreen()
        #expect(deliverAll(&lifecycle, at: at(20)) == [.willResignActive, .didEnterBackground])
        #expect(lifecycle.backgroundSince == at(20))
        #expect(lifecycle.suspendIfIdle(otherWork: false).isEmpty)  // its assertion keeps it running
        _ = end(&lifecycle, 1)
        #expect(lifecycle.suspendIfIdle(otherWork: true).isEmpty)  // a task or §7's work keeps it running
        #expect(lifecycle.suspendIfIdle(otherWork: false) == [.suspended])
        #expect(lifecycle.state == .suspended && lifecycle.backgroundSince == nil)
        lifecycle.resume(at: at(30), then: [.didEnterBackground])
        #expect(lifecycle.state == .background && lifecycle.backgroundSince == at(30) && lifecycle.hasCallbackToDeliver)
    }

    /// Answers `beginBackgroundTask` in an app (an extension if `isExtension`) with `timeRemaining` left: the
    /// assertion's number (0 when refused) and what to carry out.
    func begin(
        _ lifecycle: inout AppLifecycle, named name: String? = nil, isExtension: Bool = false,
        timeRemaining: Double = 30
    ) -> (number: Int, actions: [LifecycleAction]) {
        let (answer, actions) = lifecycle.answerBackgroundTime(
            .beginBackgroundTask(name: name), timeRemaining: timeRemaining, isExtension: isExtension, policy: policy)
        guard case .backgroundTask(let number) = answer else { preconditionFailure("not an assertion: \(answer)") }
        return (number, actions)
    }

    /// Answers `endBackgroundTask(number)`: what to carry out.
    func end(_ lifecycle: inout AppLifecycle, _ number: Int) -> [LifecycleAction] {
        let (answer, actions) = lifecycle.answerBackgroundTime(
            .endBackgroundTask(number), timeRemaining: 30, isExtension: false, policy: policy)
        precondition(answer == .ok, "endBackgroundTask is answered .ok")
        return actions
    }

    @Test func assertionsAreNumberedFromOneInEachProcess() {
        var lifecycle = AppLifecycle()
        let first = begin(&lifecycle, named: "upload").number
        let second = begin(&lifecycle).number
        #expect((first, second) == (1, 2) && lifecycle.assertions == [1: "upload", 2: ""])
        #expect(lifecycle.keepsProcessRunning)
        let ended = end(&lifecycle, 1)
        let endedAgain = end(&lifecycle, 1)
        #expect(ended == [.fact(.assertionEnded, .assertionEnded(number: 1))])
        #expect(endedAgain.count == 1 && endedAgain.first != ended.first)  // iOS's log message, nothing ends
        lifecycle.clearProcess()
        #expect(begin(&lifecycle).number == 1)
    }

    @Test func anAssertionIsRefusedWhenTheTimeIsUpOrInAnExtensionAndTooManyCrashTheApp() {
        var lifecycle = AppLifecycle()
        lifecycle.launch(.backgroundTask)
        _ = deliverAll(&lifecycle, at: at(0))
        let late = begin(&lifecycle, named: "late", timeRemaining: 0)
        #expect(late.number == 0 && late.actions == [.fact(.assertionBegan, .assertionRefused(name: "late"))])
        let inExtension = begin(&lifecycle, isExtension: true)
        #expect(inExtension.number == 0 && lifecycle.assertions.isEmpty)
        for _ in 0..<policy.maxOutstandingAssertions { _ = begin(&lifecycle) }
        let tooMany = begin(&lifecycle)
        #expect(tooMany.number == 0 && tooMany.actions.count == 1)
        #expect(tooMany.actions.first.map { if case .crash = $0 { true } else { false } } == true)
    }

    @Test func backgroundTimeEndsTheProcessUnlessATaskOrModeCoversItAndALateCallbackIsKilled() {
        var lifecycle = backgroundAppWithAnAssertion()
        let allowance = policy.backgroundTimeAllowance
        let covered = lifecycle.fireDeadlines(
            at: at(allowance), allowance: allowance, timeCovered: true, policy: policy)
        #expect(covered.isEmpty)
        var next = EarliestAfter(at(0))
        lifecycle.noteDeadlines(in: &next, allowance: allowance, timeCovered: false, policy: policy)
        #expect(next.earliest == at(allowance - policy.assertionExpirationWarning))
        let ended = lifecycle.fireDeadlines(
            at: at(allowance), allowance: allowance, timeCovered: false, policy: policy)
        #expect(ended == [.end(.watchdog("background task assertion timeout"))])
        var launching = AppLifecycle()
        launching.launch(.user)
        let callback = launching.deliverNextCallback(token: 1, at: at(0), policy: policy)
        let watchdog = policy.watchdogTimeout(for: callback) ?? 0
        let late = launching.fireDeadlines(
            at: at(watchdog), allowance: allowance, timeCovered: false, policy: policy)
        #expect(late == [.end(.watchdog("\(callback.rawValue) did not return within \(Int(watchdog)) s (0x8badf00d)"))])
    }

    @Test func aSceneBasedAppConnectsItsSceneWhenItFirstComesOnScreen() {
        var lifecycle = AppLifecycle()
        let scenes = AppManifest(bundleIdentifier: "com.example.scenes", usesScenes: true)
        #expect(lifecycle.receiver(of: .didEnterBackground, manifest: scenes) == .noScene)
        #expect(lifecycle.receiver(of: .willEnterForeground, manifest: scenes) == .sceneDelegate(connecting: true))
        #expect(lifecycle.receiver(of: .didBecomeActive, manifest: scenes) == .sceneDelegate(connecting: false))
        #expect(lifecycle.receiver(of: .didFinishLaunching, manifest: scenes) == .appDelegate)
        let widget = AppManifest(
            bundleIdentifier: "com.example.widget", extensionPoint: "com.apple.widgetkit-extension")
        #expect(lifecycle.receiver(of: .beginRequest, manifest: widget) == .appExtension)
        #expect(lifecycle.receiver(of: .didEnterBackground, manifest: widget) == nil)
    }

    @Test func launchHandlersRegisterOnceBeforeTheLaunchFinishesAndNotInAnExtension() {
        var lifecycle = AppLifecycle()
        let app = AppManifest(
            bundleIdentifier: "com.example.app",
            permittedIdentifiers: ["com.example.app.refresh", "com.example.app.job.*"])
        let widget = AppManifest(
            bundleIdentifier: "com.example.widget", extensionPoint: "com.apple.widgetkit-extension")
        let fromWidget = lifecycle.registerLaunchHandler("com.example.app.refresh", manifest: widget)
        #expect(!fromWidget.registered && fromWidget.actions.count == 1 && lifecycle.registered.isEmpty)
        let unlisted = lifecycle.registerLaunchHandler("com.example.app.other", manifest: app)
        let refusal = "not in BGTaskSchedulerPermittedIdentifiers: returns false"
        #expect(!unlisted.registered && unlisted.actions == [.note(.register, task: "com.example.app.other", refusal)])
        let first = lifecycle.registerLaunchHandler("com.example.app.refresh", manifest: app)
        #expect(first.registered && lifecycle.registered == ["com.example.app.refresh"])
        let twice = lifecycle.registerLaunchHandler("com.example.app.refresh", manifest: app)
        let message = "Launch handler for task with identifier com.example.app.refresh has already been registered"
        #expect(!twice.registered && twice.actions == [.crash(message)])
        lifecycle.adopt(ProcessMemory(state: .active), at: at(1))  // a process whose launch finished, none registered
        let late = lifecycle.registerLaunchHandler("com.example.app.refresh", manifest: app)
        #expect(
            late.actions == [.crash("All launch handlers must be registered before application finishes launching")])
        let wildcard = lifecycle.registerLaunchHandler("com.example.app.job.*", manifest: app)
        #expect(wildcard.registered && lifecycle.registered == ["com.example.app.job.*"])
    }

    @Test func theLaunchOptionsNameTheEventTheProcessWasLaunchedFor() {
        var lifecycle = AppLifecycle()
        #expect(lifecycle.launchOptions.isEmpty)
        lifecycle.noteLaunchEvent(.remoteNotification(payload: "p"))
        #expect(lifecycle.launchOptions == LaunchOptions(remoteNotification: "p"))
        lifecycle.noteLaunchEvent(.location(.significantChange))
        #expect(lifecycle.launchOptions == LaunchOptions(location: true))
    }

    @Test func aPoliteTerminationDeliversOnlyWillTerminate() {
        var lifecycle = AppLifecycle()
        #expect(lifecycle.terminate(.userForceQuit).isEmpty)  // no process
        lifecycle.launch(.user)
        _ = deliverAll(&lifecycle, at: at(0))
        _ = lifecycle.leaveScreen()
        #expect(lifecycle.terminate(.userForceQuit) == [.leftScreen, .terminationBegan])
        #expect(lifecycle.queuedCallbacks == [.willTerminate] && lifecycle.terminating == .userForceQuit)
        #expect(!lifecycle.isReadyForWork && lifecycle.keepsProcessRunning)
        #expect(lifecycle.terminate(.memoryPressure).isEmpty)  // one termination at a time
        let callback = lifecycle.deliverNextCallback(token: 3, at: at(0), policy: policy)
        #expect(callback == .willTerminate)
        #expect(lifecycle.callbackReturned(token: 3) == [.end(.userForceQuit)])
    }

    @Test func aFrozenProcessOrAnotherReasonEndsAtOnce() {
        var lifecycle = AppLifecycle()
        lifecycle.launch(.backgroundTask)
        _ = deliverAll(&lifecycle, at: at(0))
        #expect(lifecycle.terminate(.deviceShutdown) == [.end(.deviceShutdown)] && lifecycle.terminating == nil)
        #expect(lifecycle.suspendIfIdle(otherWork: false) == [.suspended])
        #expect(lifecycle.terminate(.memoryPressure) == [.end(.memoryPressure)])
        #expect(lifecycle.queuedCallbacks.isEmpty && lifecycle.terminating == nil)
    }

    @Test func callbacksAreDeliveredOneAtATimeWithTheirTokensAndStateChanges() {
        var lifecycle = AppLifecycle()
        let app = AppManifest(bundleIdentifier: "com.example.app")
        lifecycle.launch(.user)
        var tokens = 5
        let first = lifecycle.deliverCallbacks(tokens: &tokens, manifest: app, at: at(0), policy: policy)
        #expect(
            first == [
                .stateChanged(from: .notRunning, to: .inactive), .deliver(.willFinishLaunching, .appDelegate, token: 5),
            ])
        #expect(tokens == 6)
        #expect(lifecycle.deliverCallbacks(tokens: &tokens, manifest: app, at: at(0), policy: policy).isEmpty)
        #expect(tokens == 6)  // one in flight: the next waits for it to return
        _ = lifecycle.callbackReturned(token: 5)
        let second = lifecycle.deliverCallbacks(tokens: &tokens, manifest: app, at: at(1), policy: policy)
        #expect(second == [.deliver(.didFinishLaunching, .appDelegate, token: 6)] && tokens == 7)
    }

    @Test func anExtensionsMovesPassAtOnceAndItsEndFollowsWillTerminate() {
        var lifecycle = AppLifecycle()
        let widget = AppManifest(
            bundleIdentifier: "com.example.widget", extensionPoint: "com.apple.widgetkit-extension")
        lifecycle.launch(.user, asExtension: true)
        var tokens = 1
        let started = lifecycle.deliverCallbacks(tokens: &tokens, manifest: widget, at: at(0), policy: policy)
        #expect(
            started == [
                .stateChanged(from: .notRunning, to: .inactive), .deliver(.beginRequest, .appExtension, token: 1),
            ])
        _ = lifecycle.callbackReturned(token: 1)
        let active = lifecycle.deliverCallbacks(tokens: &tokens, manifest: widget, at: at(1), policy: policy)
        #expect(active == [.stateChanged(from: .inactive, to: .active)] && tokens == 3 && lifecycle.inFlight == nil)
        #expect(lifecycle.terminate(.userForceQuit) == [.leftScreen, .terminationBegan])
        let ended = lifecycle.deliverCallbacks(tokens: &tokens, manifest: widget, at: at(2), policy: policy)
        #expect(ended == [.end(.userForceQuit)])
    }

    @Test func onlyAnAppThatWillBeActiveResignsAndLeavingTheScreenFollowsTheQueuedMoves() {
        var lifecycle = AppLifecycle()
        let notRunning = lifecycle.resignActive()
        lifecycle.launch(.user)
        let launching = lifecycle.resignActive()
        #expect(!notRunning && launching && lifecycle.projectedState == .inactive)
        let again = lifecycle.resignActive()
        #expect(!again)
        _ = lifecycle.leaveScreen()
        #expect(lifecycle.queuedCallbacks.suffix(2) == [.willResignActive, .didEnterBackground])
        let queued = lifecycle.queuedCallbacks
        #expect(lifecycle.leaveScreen() == [.leftScreen])  // already going to the background: no callback
        #expect(lifecycle.projectedState == .background && lifecycle.queuedCallbacks == queued)
    }

    @Test func openingLaunchesOrResumesAndABackgroundWakeLeavesARunningProcessAlone() {
        var lifecycle = AppLifecycle()
        #expect(lifecycle.open(asExtension: false, at: at(0)) == [.launched(.user, purpose: "the user opened the app")])
        #expect(deliverAll(&lifecycle, at: at(0)) == [.willFinishLaunching, .didFinishLaunching, .didBecomeActive])
        #expect(lifecycle.open(asExtension: false, at: at(1)).isEmpty && lifecycle.state == .active)
        #expect(
            lifecycle.wake(for: "refresh", resumeCallback: .didEnterBackground, asExtension: false, at: at(2)).isEmpty)
        _ = lifecycle.leaveScreen()
        _ = deliverAll(&lifecycle, at: at(3))
        #expect(lifecycle.suspendIfIdle(otherWork: false) == [.suspended])
        let silent = lifecycle.wake(for: "refresh", resumeCallback: .none, asExtension: false, at: at(4))
        #expect(silent == [.resumed("refresh")] && !lifecycle.hasCallbackToDeliver)
        #expect(lifecycle.suspendIfIdle(otherWork: false) == [.suspended])
        let resumed = lifecycle.open(asExtension: false, at: at(5))
        #expect(resumed == [.resumed("the user opened the app")])
        #expect(lifecycle.queuedCallbacks == [.willEnterForeground, .didBecomeActive])
        var fresh = AppLifecycle()
        let launched = fresh.wake(for: "refresh", resumeCallback: .didEnterBackground, asExtension: false, at: at(6))
        #expect(launched == [.launched(.backgroundTask, purpose: "refresh")] && fresh.projectedState == .background)
    }

    @Test func anAdoptedBackgroundProcessGetsItsBackgroundTimeAnew() {
        var lifecycle = AppLifecycle()
        let memory = ProcessMemory(
            state: .background, launchReason: .backgroundTask, launchCompleted: true, registered: ["refresh"])
        lifecycle.adopt(memory, at: at(100))
        #expect(lifecycle.state == .background && lifecycle.backgroundSince == at(100))
        #expect(lifecycle.registered == ["refresh"] && lifecycle.launchReason == .backgroundTask)
        #expect(lifecycle.isReadyForWork && lifecycle.inFlight == nil)
    }
}
