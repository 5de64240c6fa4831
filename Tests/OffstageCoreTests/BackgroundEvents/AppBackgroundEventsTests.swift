import Testing

@testable import OffstageCore

/// One app's §7 rules on their own, as transitions that return actions: a held push replaced and released
/// (counting background wakes toward the rate limit), the fetch backoff, a delivery from waking to handed over to
/// completed or overdue, location monitoring, the app's calls, and what outlives the process.
@Suite struct AppBackgroundEventsTests {
    let policy = Policy.iOS
    let app = BundleID("com.example.events")
    var manifest: AppManifest {
        AppManifest(bundleIdentifier: app, backgroundModes: [.remoteNotification, .fetch, .location, .audio])
    }

    func at(_ seconds: Double) -> Instant { Instant(seconds: seconds) }

    /// Receives a push at `time` and releases it at once as a background wake (nothing else blocks it).
    func pushAndRelease(_ events: inout AppBackgroundEvents, _ payload: String, at time: Instant) {
        _ = events.receive(.remoteNotification(payload: payload), at: time, manifest: manifest, forceQuit: false)
        let blockers = events.pushBlockers(at: time, onScreen: false, policy: policy) { [] }
        _ = events.releaseHeldPush(blockedBy: blockers, at: time, onScreen: false, processEnding: false, policy: policy)
    }

    @Test func aNewerPushReplacesTheHeldOneAndOnlyBackgroundWakesCountTowardTheRateLimit() throws {
        var events = AppBackgroundEvents()
        _ = events.receive(.remoteNotification(payload: "a"), at: at(0), manifest: manifest, forceQuit: false)
        let second = events.receive(.remoteNotification(payload: "b"), at: at(1), manifest: manifest, forceQuit: false)
        #expect(
            second.last == .fact(.dropped, task: "remote-notification", .pushCoalesced(arrivedAt: at(0), payload: "a")))
        let onScreen = events.releaseHeldPush(
            blockedBy: [], at: at(2), onScreen: true, processEnding: false, policy: policy)
        #expect(
            onScreen == [
                .deliver(.remoteNotification(payload: "b"), why: "to deliver a background push: the app is on screen")
            ])
        #expect(
            events.releaseHeldPush(blockedBy: [], at: at(3), onScreen: false, processEnding: false, policy: policy)
                .isEmpty)
        let limit = policy.backgroundPushRateLimit
        for second in 0..<limit { pushAndRelease(&events, "p\(second)", at: at(Double(10 + second))) }
        _ = events.receive(.remoteNotification(payload: "late"), at: at(20), manifest: manifest, forceQuit: false)
        let window = policy.backgroundPushRateWindow
        let blockers = events.pushBlockers(at: at(20), onScreen: false, policy: policy) { [] }
        #expect(blockers.map(\.constraint) == ["pushRateLimit"])
        #expect(blockers.first?.until == at(10) + window)
        #expect(events.pushBlockers(at: at(10) + window, onScreen: false, policy: policy) { [] }.isEmpty)
        #expect(events.pushBlockers(at: at(20), onScreen: true, policy: policy) { [] }.isEmpty)
    }

    @Test func aHeldPushWaitsWithOneRecordPerChangeOfItsBlockersAndNotWhileTheProcessEnds() {
        var events = AppBackgroundEvents()
        _ = events.receive(.remoteNotification(payload: "p"), at: at(0), manifest: manifest, forceQuit: false)
        let lowPower = Blocker(constraint: "lowPowerMode", reason: "Low Power Mode is on", until: nil)
        let first = events.releaseHeldPush(
            blockedBy: [lowPower], at: at(1), onScreen: false, processEnding: false, policy: policy)
        let again = events.releaseHeldPush(
            blockedBy: [lowPower], at: at(2), onScreen: false, processEnding: false, policy: policy)
        #expect(first == [.fact(.deferred, task: "remote-notification", .deferred(blockers: [lowPower]))])
        #expect(again.isEmpty)
        #expect(
            events.releaseHeldPush(blockedBy: [], at: at(3), onScreen: false, processEnding: true, policy: policy).isEmpty
        )
        let discarded = events.discardHeldPush(because: "the app was terminated")
        #expect(
            discarded == [
                .fact(
                    .dropped, task: "remote-notification",
                    .heldPushDiscarded(payload: "p", because: "the app was terminated"))
            ])
        #expect(events.heldPush == nil && events.discardHeldPush(because: "again").isEmpty)
    }

    @Test func aPushForAnAppWithoutTheModeOrSwipedAwayIsDropped() {
        var events = AppBackgroundEvents()
        let bare = AppManifest(bundleIdentifier: app)
        let noMode = events.receive(.remoteNotification(payload: "p"), at: at(0), manifest: bare, forceQuit: false)
        let swiped = events.receive(.remoteNotification(payload: "p"), at: at(0), manifest: manifest, forceQuit: true)
        #expect(noMode.last == .fact(.dropped, task: "remote-notification", .pushDropped(.modeMissing)))
        #expect(swiped.last == .fact(.dropped, task: "remote-notification", .pushDropped(.swipedAway)))
        #expect(events.heldPush == nil)
    }

    @Test func slowOrFailedFetchesDoubleTheBackoffUpToTheLimitAndNewDataRestoresIt() throws {
        var events = AppBackgroundEvents()
        let set = events.answer(.setMinimumBackgroundFetchInterval(0), at: at(0), manifest: manifest, policy: policy)
        let setAgain = events.answer(
            .setMinimumBackgroundFetchInterval(0), at: at(5), manifest: manifest, policy: policy)
        #expect(set.count == 1 && setAgain.isEmpty)
        let minimum = policy.minimumBackgroundFetchInterval
        let waiting = events.fetchBlockers(at: at(1), manifest: manifest, policy: policy) { [] }
        #expect(waiting.map(\.constraint) == ["fetchInterval"] && waiting.first?.until == at(0) + minimum)
        let failed = fetch(&events, at: at(100), result: .failed)
        #expect(failed.count == 2 && events.fetchBackoff == 2)
        #expect(
            events.fetchBlockers(at: at(101), manifest: manifest, policy: policy) { [] }.first?.until == at(100) + 2
                * minimum)
        #expect(fetch(&events, at: at(200), result: .noData).count == 1)  // only the handler's record: no change
        for _ in 0..<10 { _ = fetch(&events, at: at(300), result: .failed) }
        #expect(events.fetchBackoff == Double(policy.maxBackgroundFetchBackoff))
        _ = fetch(&events, at: at(400), result: .newData)
        #expect(events.fetchBackoff == 1)
    }

    /// Delivers a fetch at `time`, hands it over and calls its handler with `result` at once; the call's actions.
    func fetch(_ events: inout AppBackgroundEvents, at time: Instant, result: BackgroundFetchResult)
        -> [BackgroundEventAction]
    {
        events.beginDelivery(.fetch, token: 9)
        _ = events.handOverWaiting(at: time, policy: policy)
        return events.answer(
            .backgroundEventCompleted(token: 9, result: result), at: time, manifest: manifest, policy: policy)
    }

    @Test func aDueFetchIsADiscretionaryLaunchAndWaitsWhileOneIsHandled() {
        var events = AppBackgroundEvents()
        _ = events.answer(.setMinimumBackgroundFetchInterval(0), at: at(0), manifest: manifest, policy: policy)
        let due = events.startFetchIfDue(blockedBy: [], processEnding: false)
        #expect(due == [.countDiscretionaryLaunch, .deliver(.fetch, why: "to perform a background fetch")])
        events.beginDelivery(.fetch, token: 1)
        #expect(events.startFetchIfDue(blockedBy: [], processEnding: false).isEmpty)
        let blockers = events.fetchBlockers(at: at(1), manifest: manifest, policy: policy) { [] }
        #expect(blockers.map(\.constraint) == ["fetchInProgress"])
        let withTasks = AppManifest(bundleIdentifier: app, backgroundModes: [.fetch], permittedIdentifiers: ["x"])
        #expect(
            events.fetchBlockers(at: at(1), manifest: withTasks, policy: policy) { [] }.map(\.constraint) == [
                "fetchUnavailable"
            ])
    }

    @Test func aDeliveryGetsItsDeadlineWhenHandedOverAndEndsWhenItsHandlerIsCalled() throws {
        var events = AppBackgroundEvents()
        events.beginDelivery(.fetch, token: 7)
        #expect(events.isHandlingWakeEvent)
        let early = events.answer(
            .backgroundEventCompleted(token: 7, result: .newData), at: at(5), manifest: manifest, policy: policy)
        #expect(early == [.note(.log, task: nil, "completion handler called again or for no current event: ignored")])
        #expect(events.endOverdueDeliveries(at: at(1000), onScreen: false, policy: policy).isEmpty)
        let handed = events.handOverWaiting(at: at(10), policy: policy)
        #expect(handed.last == .handOver(.fetch, token: 7))
        #expect(events.handOverWaiting(at: at(11), policy: policy).isEmpty)
        var next = EarliestAfter(at(10))
        events.noteDeliveryDeadlines(in: &next)
        #expect(next.earliest == at(10) + policy.backgroundFetchRuntime)
        let answered = events.answer(
            .backgroundEventCompleted(token: 7, result: .newData), at: at(12), manifest: manifest, policy: policy)
        #expect(answered == [.fact(.handled, task: "background-fetch", .handlerCalled(result: .newData, seconds: 2))])
        #expect(!events.hasWork && !events.keepsProcessRunning)
    }

    @Test func aLateHandlerKillsTheAppInTheBackgroundButOnScreenIsOnlyForgotten() {
        var background = AppBackgroundEvents()
        background.beginDelivery(.remoteNotification(payload: "p"), token: 1)
        _ = background.handOverWaiting(at: at(0), policy: policy)
        let seconds = Int(policy.backgroundPushRuntime)
        let late = background.endOverdueDeliveries(at: at(Double(seconds)), onScreen: false, policy: policy)
        #expect(
            late == [
                .kill(
                    "application(_:didReceiveRemoteNotification:fetchCompletionHandler:) did not call its completion handler within \(seconds) s"
                )
            ])
        var onScreen = AppBackgroundEvents()
        onScreen.beginDelivery(.remoteNotification(payload: "p"), token: 1)
        _ = onScreen.handOverWaiting(at: at(0), policy: policy)
        let forgotten = onScreen.endOverdueDeliveries(at: at(Double(seconds)), onScreen: true, policy: policy)
        #expect(forgotten.count == 1 && onScreen.deliveries.isEmpty)
    }

    @Test func aLocationEventIsDeliveredOnlyWhenMonitoredAndHasNoCompletionHandler() {
        var events = AppBackgroundEvents()
        let unmonitored = events.receive(.location(.significantChange), at: at(0), manifest: manifest, forceQuit: false)
        #expect(unmonitored.last == .note(.dropped, task: "location", "the app does not monitor location changes"))
        _ = events.answer(.setSignificantLocationMonitoring(true), at: at(0), manifest: manifest, policy: policy)
        let monitored = events.receive(.location(.significantChange), at: at(1), manifest: manifest, forceQuit: false)
        #expect(monitored.last == .deliver(.location(.significantChange), why: "for a significant location change"))
        events.beginDelivery(.location(.significantChange), token: 1)
        _ = events.handOverWaiting(at: at(1), policy: policy)
        let completed = events.answer(
            .backgroundEventCompleted(token: 1, result: .noData), at: at(2), manifest: manifest, policy: policy)
        #expect(!events.isHandlingWakeEvent && completed.count == 1)  // ignored: a location event has no handler
    }

    @Test func monitoringAndTheScheduleOutliveTheProcessButDeliveriesAndModesDoNot() {
        var events = AppBackgroundEvents()
        let monitored = events.answer(
            .setRegionMonitoring(identifier: "home", true), at: at(0), manifest: manifest, policy: policy)
        let monitoredAgain = events.answer(
            .setRegionMonitoring(identifier: "home", true), at: at(0), manifest: manifest, policy: policy)
        #expect(monitored.count == 1 && monitoredAgain.isEmpty)
        let started = events.answer(
            .setBackgroundActivity(.audio, active: true), at: at(0), manifest: manifest, policy: policy)
        #expect(started.first.map { if case .note(.backgroundMode, _, _) = $0 { true } else { false } } == true)
        _ = events.answer(.setMinimumBackgroundFetchInterval(60), at: at(0), manifest: manifest, policy: policy)
        events.beginDelivery(.fetch, token: 1)
        events.clearProcess()
        #expect(events.deliveries.isEmpty && events.activeModes.isEmpty)
        var restored = AppBackgroundEvents()
        restored.remember(events.memory)
        #expect(restored.memory == events.memory)
        #expect(restored.fetchInterval == 60)
        let entered = restored.receive(
            .location(.enteredRegion("home")), at: at(1), manifest: manifest, forceQuit: false)
        #expect(entered.last == .deliver(.location(.enteredRegion("home")), why: "for a entered region home"))
    }

    @Test func backgroundLocationUpdatesWithoutTheModeCrashTheApp() {
        var events = AppBackgroundEvents()
        let bare = AppManifest(bundleIdentifier: app)
        let crash = events.answer(.allowBackgroundLocationUpdates, at: at(0), manifest: bare, policy: policy)
        #expect(crash == [.crash(AppBackgroundEvents.backgroundLocationCrash)])
        #expect(events.answer(.allowBackgroundLocationUpdates, at: at(0), manifest: manifest, policy: policy).isEmpty)
    }
}
