import Testing

@testable import OffstageCore

/// SPEC §4: `BGTaskScheduler`'s rules: registration, submission, limits, error codes, runtimes,
/// expiration, completion and the public simulate-launch and simulate-expiration.
@Suite struct TaskSchedulerTests {
    let feed = Fixture.feed
    let mail = Fixture.mail

    /// A harness whose feed app registers nothing by itself and is held inside `didFinishLaunching`.
    func insideDidFinishLaunching() -> CoreHarness {
        var h = Fixture.harness()
        h.handlers[feed] = []
        h.holds[feed] = [.didFinishLaunching]
        h.open(feed)
        return h
    }

    // MARK: Registration

    @Test func registerInDidFinishLaunchingReturnsTrue() {
        var h = insideDidFinishLaunching()
        #expect(h.call(.register(identifier: Fixture.refresh(feed)), from: feed) == .registered(true))
        #expect(h.log.records(.register).map(\.reason) == ["launch handler registered"])
        h.release(feed)
        #expect(h.state(of: feed) == .active)
    }

    @Test func registerReturnsFalseForIdentifierNotInPlist() {
        var h = insideDidFinishLaunching()
        #expect(h.call(.register(identifier: "com.example.feed.unknown"), from: feed) == .registered(false))
        #expect(
            h.log.records(.register).map(\.reason) == [
                "not in BGTaskSchedulerPermittedIdentifiers: returns false"
            ])
        #expect(h.state(of: feed) == .inactive)
    }

    @Test func secondRegistrationCrashesWithIOSMessage() {
        var h = insideDidFinishLaunching()
        let identifier = Fixture.refresh(feed)
        h.call(.register(identifier: identifier), from: feed)
        let (result, effects) = h.callWithEffects(.register(identifier: identifier), from: feed)
        let message = "Launch handler for task with identifier \(identifier) has already been registered"
        #expect(result == .crash(message))
        #expect(effects.terminations.map(\.1) == [.crash(message)])
        #expect(h.state(of: feed) == .notRunning)
    }

    @Test func registrationAfterLaunchCrashes() {
        var h = Fixture.harness()
        h.handlers[feed] = []
        h.open(feed)
        let result = h.call(.register(identifier: Fixture.refresh(feed)), from: feed)
        #expect(result == .crash("All launch handlers must be registered before application finishes launching"))
        #expect(h.state(of: feed) == .notRunning)
    }

    @Test func continuedProcessingHandlersMayBeRegisteredAfterLaunch() {
        var h = Fixture.harness()
        h.open(feed)
        #expect(h.call(.register(identifier: Fixture.continued(feed, "A1")), from: feed) == .registered(true))
        #expect(h.state(of: feed) == .active)
    }

    @Test func wildcardPatternMayBeRegisteredAfterLaunch() {
        var h = Fixture.harness()
        h.open(feed)
        #expect(h.call(.register(identifier: "\(feed).export.*"), from: feed) == .registered(true))
        #expect(h.state(of: feed) == .active)
    }

    @Test func submitWithoutHandlerCrashes() {
        var h = Fixture.harness()
        h.handlers[feed] = []
        h.open(feed)
        let identifier = Fixture.refresh(feed)
        let result = h.submit(Fixture.refreshRequest(feed), from: feed)
        #expect(result == .crash("No launch handler registered for task with identifier \(identifier)"))
        #expect(h.system.app(feed).pendingRequests.isEmpty)
        #expect(h.state(of: feed) == .notRunning)
    }

    @Test func submitOfConcreteContinuedIdentifierWithOnlyTheWildcardRegisteredCrashes() {
        var h = Fixture.harness()
        h.open(feed)
        h.call(.register(identifier: "\(feed).export.*"), from: feed)
        let identifier = Fixture.continued(feed, "A1")
        let result = h.submit(Fixture.continuedRequest(feed, "A1"), from: feed)
        #expect(result == .crash("No launch handler registered for task with identifier \(identifier)"))
    }

    @Test func taskLaunchedWithoutHandlerCrashes() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        h.handle(.home)
        h.handle(.memoryPressure(bytes: 1))
        h.handlers[feed] = []  // the next process forgets to register
        h.handle(.lock)
        let effects = h.advance(by: 15 * 60)
        let message = "No launch handler registered for task with identifier \(Fixture.processing(feed))"
        #expect(effects.terminations.map(\.1) == [.crash(message)])
        #expect(effects.startedTasks.isEmpty)
        #expect(h.state(of: feed) == .notRunning)
    }

    // MARK: Submission

    @Test func refreshRequestNeedsFetchMode() {
        var h = CoreHarness(apps: [Fixture.manifest(feed, modes: [.processing])])
        h.open(feed)
        #expect(h.submit(Fixture.refreshRequest(feed), from: feed) == .failed(.notPermitted))
        #expect(h.log.records(.rejected).map(\.reason) == ["notPermitted: UIBackgroundModes lacks 'fetch'"])
    }

    @Test func processingRequestNeedsProcessingMode() {
        var h = CoreHarness(apps: [Fixture.manifest(feed, modes: [.fetch])])
        h.open(feed)
        #expect(h.submit(Fixture.processingRequest(feed), from: feed) == .failed(.notPermitted))
        #expect(
            h.log.records(.rejected).map(\.reason) == ["notPermitted: UIBackgroundModes lacks 'processing'"])
    }

    @Test func submittingAnIdentifierNotInPlistIsNotPermitted() {
        var h = Fixture.harness()
        h.open(feed)
        let request = TaskRequest(identifier: "com.example.feed.other", kind: .appRefresh)
        #expect(h.submit(request, from: feed) == .failed(.notPermitted))
        #expect(
            h.log.records(.rejected).map(\.reason) == [
                "notPermitted: identifier not in BGTaskSchedulerPermittedIdentifiers"
            ])
    }

    @Test func wildcardIdentifiersAreForContinuedProcessingOnly() {
        var h = Fixture.harness()
        h.open(feed)
        let request = TaskRequest(identifier: Fixture.continued(feed, "A1"), kind: .appRefresh)
        #expect(h.submit(request, from: feed) == .failed(.notPermitted))
        #expect(
            h.log.records(.rejected).map(\.reason) == [
                "notPermitted: wildcard identifiers are for continued-processing tasks only"
            ])
    }

    @Test func onePendingRefreshPerApp() {
        var h = Fixture.harness()
        h.open(feed)
        #expect(h.submit(Fixture.refreshRequest(feed), from: feed) == .ok)
        #expect(h.submit(Fixture.refreshRequest(feed, 2), from: feed) == .failed(.tooManyPendingTaskRequests))
        #expect(
            h.log.records(.rejected).map(\.reason) == ["tooManyPendingTaskRequests: 1 app refresh pending"])
        #expect(h.system.app(feed).pendingRequests.map(\.identifier) == [Fixture.refresh(feed)])
    }

    @Test func refreshLimitIsPerApp() {
        var h = Fixture.harness([feed, mail])
        h.open(mail)
        h.submit(Fixture.refreshRequest(mail), from: mail)
        h.handle(.setAppBackgroundAppRefresh(mail, false))  // mail's request stays pending
        h.open(feed)
        #expect(h.system.app(mail).pendingRequests.count == 1)
        #expect(h.submit(Fixture.refreshRequest(feed), from: feed) == .ok)
    }

    @Test func tenPendingProcessingRequests() {
        var h = Fixture.harness()
        h.open(feed)
        for number in 1...10 {
            #expect(h.submit(Fixture.processingRequest(feed, number), from: feed) == .ok)
        }
        #expect(h.submit(Fixture.processingRequest(feed, 11), from: feed) == .failed(.tooManyPendingTaskRequests))
        #expect(
            h.log.records(.rejected).map(\.reason) == ["tooManyPendingTaskRequests: 10 processing pending"])
        #expect(h.system.app(feed).pendingRequests.count == 10)
        #expect(h.submit(Fixture.refreshRequest(feed), from: feed) == .ok, "refresh has its own limit")
    }

    @Test func resubmittingReplaces() {
        var h = Fixture.harness()
        h.open(feed)
        for number in 1...10 { h.submit(Fixture.processingRequest(feed, number), from: feed) }
        let replacement = Fixture.processingRequest(feed, 3, network: true)
        #expect(h.submit(replacement, from: feed) == .ok, "a replacement does not count against the limit")
        #expect(
            h.log.records(.replaced).map(\.reason) == ["processing request replaced the pending one"])
        let pending = h.system.app(feed).pendingRequests
        #expect(pending.count == 10)
        #expect(pending.filter { $0.identifier == Fixture.processing(feed, 3) } == [replacement])
    }

    @Test func pendingRequestsAreCopies() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        guard case .pending(var copies) = h.call(.pendingRequests, from: feed) else {
            Issue.record("pendingRequests did not return requests")
            return
        }
        copies[0].requiresExternalPower = true
        copies[0].identifier = "changed"
        #expect(h.call(.pendingRequests, from: feed) == .pending([Fixture.processingRequest(feed)]))
        #expect(h.system.app(feed).pendingRequests == [Fixture.processingRequest(feed)])
    }

    @Test func cancelRemovesThePendingRequest() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.processingRequest(feed, 1), from: feed)
        h.submit(Fixture.processingRequest(feed, 2), from: feed)
        #expect(h.call(.cancel(identifier: Fixture.processing(feed, 1)), from: feed) == .ok)
        #expect(h.system.app(feed).pendingRequests.map(\.identifier) == [Fixture.processing(feed, 2)])
        #expect(h.log.records(.cancelled).map(\.task) == [Fixture.processing(feed, 1)])
    }

    @Test func cancelAllTaskRequestsRemovesEveryPendingRequest() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.processingRequest(feed, 1), from: feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        #expect(h.call(.cancelAll, from: feed) == .ok)
        #expect(h.system.app(feed).pendingRequests.isEmpty)
        #expect(h.log.records(.cancelled).count == 2)
    }

    @Test func errorCodesHaveIOSRawValues() {
        #expect(TaskSchedulerErrorCode.unavailable.rawValue == 1)
        #expect(TaskSchedulerErrorCode.tooManyPendingTaskRequests.rawValue == 2)
        #expect(TaskSchedulerErrorCode.notPermitted.rawValue == 3)
        #expect(TaskSchedulerErrorCode.immediateRunIneligible.rawValue == 4)
    }

    // MARK: Continued processing

    /// Opens the feed app and registers continued-processing handlers for these suffixes.
    func openWithContinuedHandlers(_ suffixes: [String], policy: Policy = .iOS, device: DeviceState = DeviceState())
        -> CoreHarness
    {
        var h = Fixture.harness(policy: policy, device: device)
        h.open(feed)
        for suffix in suffixes { h.call(.register(identifier: Fixture.continued(feed, suffix)), from: feed) }
        return h
    }

    @Test func continuedProcessingStartsAtOnce() {
        var h = openWithContinuedHandlers(["A"])
        let (result, effects) = h.callWithEffects(.submit(Fixture.continuedRequest(feed, "A")), from: feed)
        #expect(result == .ok)
        #expect(effects.startedTasks.map(\.request.identifier) == [Fixture.continued(feed, "A")])
        #expect(effects.startedTasks.first?.expiresAt == nil)
        #expect(
            effects.records(.submitted).map(\.reason) == ["continued-processing request submitted: starts now"])
    }

    @Test func continuedProcessingIgnoresEarliestBeginDate() {
        var h = openWithContinuedHandlers(["A"])
        var request = Fixture.continuedRequest(feed, "A")
        request.earliestBeginDate = 1_000_000
        let (_, effects) = h.callWithEffects(.submit(request), from: feed)
        #expect(effects.startedTasks.map(\.request.identifier) == [Fixture.continued(feed, "A")])
    }

    @Test func continuedProcessingIsQueuedWhenThreeRun() {
        var h = openWithContinuedHandlers(["A", "B", "C", "D"])
        for suffix in ["A", "B", "C"] { h.submit(Fixture.continuedRequest(feed, suffix), from: feed) }
        let (result, effects) = h.callWithEffects(.submit(Fixture.continuedRequest(feed, "D")), from: feed)
        #expect(result == .ok)
        #expect(effects.startedTasks.isEmpty)
        #expect(
            effects.records(.submitted).map(\.reason) == ["continued-processing request queued behind 3 running"])
        #expect(h.system.app(feed).pendingRequests.map(\.identifier) == [Fixture.continued(feed, "D")])
        #expect(h.system.explain().map(\.phase).contains(.queued(position: 1)))
        let done = h.complete(Fixture.continued(feed, "A"), of: feed)
        #expect(done.startedTasks.map(\.request.identifier) == [Fixture.continued(feed, "D")])
    }

    @Test func queuedContinuedProcessingEndsWithTheProcess() {
        var h = openWithContinuedHandlers(["A", "B", "C", "D"])
        for suffix in ["A", "B", "C", "D"] { h.submit(Fixture.continuedRequest(feed, suffix), from: feed) }
        let effects = h.handle(.processExited(feed, reason: "crashed"))
        #expect(
            effects.records(.cancelled).map(\.task) == [Fixture.continued(feed, "D")]
                && effects.records(.cancelled).map(\.reason) == ["the app's process ended"])
        #expect(h.system.app(feed).pendingRequests.isEmpty)
        #expect(effects.startedTasks.isEmpty)
    }

    @Test func continuedProcessingWithFailStrategyIsImmediateRunIneligible() {
        var h = openWithContinuedHandlers(["A", "B", "C", "D"])
        for suffix in ["A", "B", "C"] { h.submit(Fixture.continuedRequest(feed, suffix), from: feed) }
        let result = h.submit(Fixture.continuedRequest(feed, "D", strategy: .fail), from: feed)
        #expect(result == .failed(.immediateRunIneligible))
        #expect(
            h.log.records(.rejected).map(\.reason) == [
                "immediateRunIneligible: 3 continued-processing tasks running"
            ])
        #expect(h.system.app(feed).pendingRequests.isEmpty)
    }

    @Test(arguments: [(false, true), (true, false), (true, true)])
    func gpuNeedsDeviceGPUAndEntitlement(deviceHasGPU: Bool, entitled: Bool) {
        var device = DeviceState()
        device.hasBackgroundGPU = deviceHasGPU
        let manifest = Fixture.manifest(feed, entitlements: entitled ? [Entitlement.continuedProcessingGPU] : [])
        var h = CoreHarness(device: device, apps: [manifest])
        h.open(feed)
        h.call(.register(identifier: Fixture.continued(feed, "G")), from: feed)
        let result = h.submit(Fixture.continuedRequest(feed, "G", gpu: true), from: feed)
        #expect(result == (deviceHasGPU && entitled ? .ok : .failed(.notPermitted)))
    }

    // MARK: Runtimes, expiration and completion

    /// A feed app suspended with a refresh that starts as soon as it leaves the screen; returns the run.
    func runningRefresh(_ h: inout CoreHarness) -> TaskRun? {
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.home)
        return h.task(Fixture.refresh(feed), of: feed)
    }

    /// A feed app running a processing task on an idle device; returns the run.
    func runningProcessing(_ h: inout CoreHarness, _ request: TaskRequest? = nil) -> TaskRun? {
        h.open(feed)
        h.submit(request ?? Fixture.processingRequest(feed), from: feed)
        h.lockUntilIdle()
        return h.task((request ?? Fixture.processingRequest(feed)).identifier, of: feed)
    }

    @Test func refreshRuntimeIs30Seconds() throws {
        var h = Fixture.harness()
        let run = try #require(runningRefresh(&h))
        #expect(run.expiresAt == run.startedAt + 30)
        #expect(h.advance(by: 29.9).actions.isEmpty)
        let effects = h.advance(by: 0.1)
        #expect(effects.actions.first == .expireTask(feed, taskID: run.id))
        #expect(effects.records(.expired).map(\.reason) == ["its 30 s runtime is used up"])
    }

    @Test func processingRuntimeIs10Minutes() throws {
        var h = Fixture.harness()
        let run = try #require(runningProcessing(&h))
        #expect(run.expiresAt == h.now + 600)
        #expect(h.advance(by: 599.9).actions.isEmpty)
        let effects = h.advance(by: 0.1)
        #expect(effects.actions.first == .expireTask(feed, taskID: run.id))
        #expect(effects.records(.expired).map(\.reason) == ["its 600 s runtime is used up"])
    }

    @Test func wallClockJumpsDoNotMoveTaskDeadlines() throws {
        var h = Fixture.harness()
        _ = try #require(runningRefresh(&h))
        h.advance(by: 10)
        #expect(h.handle(.setWallClock(WallClock(epochAtZero: 86_400))).actions.isEmpty)
        #expect(h.advance(by: 19.9).actions.isEmpty)
        #expect(h.advance(by: 0.1).actions.first { if case .expireTask = $0 { true } else { false } } != nil)
    }

    @Test func completingTheTaskSuspendsTheApp() throws {
        var h = Fixture.harness()
        _ = try #require(runningRefresh(&h))
        h.advance(by: 2.5)
        let effects = h.complete(Fixture.refresh(feed), of: feed)
        #expect(effects.actions == [.suspend(feed)])
        #expect(effects.records(.completed).map(\.reason) == ["setTaskCompleted(success: true) after 2.5 s"])
    }

    @Test func appStaysRunningUntilAllItsWorkIsDone() throws {
        var h = Fixture.harness()
        _ = try #require(runningRefresh(&h))
        h.call(.beginBackgroundTask(name: "save"), from: feed)
        #expect(h.complete(Fixture.refresh(feed), of: feed).actions.isEmpty)
        #expect(h.state(of: feed) == .background)
        #expect(h.callWithEffects(.endBackgroundTask(1), from: feed).1.actions == [.suspend(feed)])
    }

    @Test func taskNotCompletedWithin5SecondsOfExpirationKillsApp() throws {
        var h = Fixture.harness()
        h.completeOnExpiration = false
        _ = try #require(runningRefresh(&h))
        h.advance(by: 30)
        #expect(h.advance(by: 4.9).terminations.isEmpty)
        let effects = h.advance(by: 0.1)
        #expect(
            effects.terminations.map(\.1) == [
                .watchdog("task \(Fixture.refresh(feed)) not completed within 5 s of expiration")
            ])
        #expect(effects.records(.killed).map(\.task) == [Fixture.refresh(feed)])
    }

    @Test func taskCompletedWithinTheGraceIsNotKilled() throws {
        var h = Fixture.harness()
        h.completeOnExpiration = false
        _ = try #require(runningRefresh(&h))
        h.advance(by: 34)
        #expect(h.complete(Fixture.refresh(feed), of: feed, success: false).actions == [.suspend(feed)])
        #expect(h.advance(by: 60).terminations.isEmpty)
    }

    @Test func retryingBySubmittingBeforeCompletingRunsTheNewRequestAfterwards() throws {
        var h = Fixture.harness(policy: Fixture.unspaced)
        let first = try #require(runningRefresh(&h))
        let (result, effects) = h.callWithEffects(.submit(Fixture.refreshRequest(feed)), from: feed)
        #expect(result == .ok)
        #expect(effects.startedTasks.isEmpty, "the same identifier does not run twice at once")
        #expect(h.system.app(feed).pendingRequests.map(\.identifier) == [Fixture.refresh(feed)])
        let done = h.complete(Fixture.refresh(feed), of: feed, success: false)
        #expect(done.startedTasks.map(\.request.identifier) == [Fixture.refresh(feed)])
        #expect(done.startedTasks.first?.id != first.id)
    }

    // MARK: Simulate launch and expiration

    @Test func simulateLaunchRunsBlockedTask() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        h.handle(.home)  // the device is in use: deviceIdle blocks the request
        #expect(h.system.explain().first?.blockers.map(\.constraint) == ["deviceIdle"])
        let identifier = Fixture.processing(feed)
        let effects = h.handle(.simulateLaunch(feed, identifier: identifier))
        #expect(
            effects.records(.log).map(\.reason) == ["Simulating launch for task with identifier \(identifier)"])
        #expect(effects.records(.started).map(\.reason) == ["processing task started: simulated launch"])
        #expect(effects.startedTasks.map(\.request.identifier) == [identifier])
        #expect(h.system.app(feed).pendingRequests.isEmpty)
    }

    @Test func simulateLaunchFromTheAppRunsTheTask() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        let (_, effects) = h.callWithEffects(.simulateLaunch(identifier: Fixture.refresh(feed)), from: feed)
        #expect(effects.startedTasks.map(\.request.identifier) == [Fixture.refresh(feed)])
    }

    @Test func simulateLaunchWithoutPendingRequestLogsIOSMessage() {
        var h = Fixture.harness()
        h.open(feed)
        let identifier = Fixture.refresh(feed)
        let effects = h.handle(.simulateLaunch(feed, identifier: identifier))
        #expect(
            effects.records(.log).map(\.reason) == ["No task request with identifier \(identifier) has been scheduled"])
        #expect(effects.actions.isEmpty)
    }

    @Test(arguments: TaskKind.allCases)
    func simulateExpirationCallsTheExpirationHandler(kind: TaskKind) throws {
        var h = Fixture.harness()
        h.completeOnExpiration = false
        let request: TaskRequest
        switch kind {
        case .appRefresh: request = Fixture.refreshRequest(feed)
        case .processing: request = Fixture.processingRequest(feed)
        case .continuedProcessing: request = Fixture.continuedRequest(feed, "A")
        }
        h.open(feed)
        if kind == .continuedProcessing { h.call(.register(identifier: request.identifier), from: feed) }
        h.submit(request, from: feed)
        h.handle(.simulateLaunch(feed, identifier: request.identifier))
        let run = try #require(h.task(request.identifier, of: feed))
        let effects = h.handle(.simulateExpiration(feed, identifier: request.identifier))
        #expect(effects.actions == [.expireTask(feed, taskID: run.id)])
        #expect(effects.records(.expired).map(\.reason) == ["simulated expiration"])
    }

    @Test func simulateExpirationWithoutRunningTaskLogs() {
        var h = Fixture.harness()
        h.open(feed)
        let identifier = Fixture.refresh(feed)
        let effects = h.handle(.simulateExpiration(feed, identifier: identifier))
        #expect(effects.records(.log).map(\.reason) == ["No running task with identifier \(identifier) to expire"])
        #expect(effects.actions.isEmpty)
    }
}
