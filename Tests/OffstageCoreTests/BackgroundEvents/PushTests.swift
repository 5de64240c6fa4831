import Testing

@testable import OffstageCore

/// SPEC §7: background pushes: discretionary, coalesced, rate-limited, gated like refresh, never after a
/// force-quit until the user opens the app, delivered at once when the user opens it, 30 s to finish.
@Suite struct PushTests {
    let feed = Fixture.feed

    /// A harness whose feed app declares `remote-notification` (and the modes the fixture gives).
    func harness(
        modes: Set<BackgroundMode> = [.fetch, .processing, .remoteNotification], settings: UserSettings = UserSettings()
    ) -> CoreHarness {
        CoreHarness(settings: settings, apps: [Fixture.manifest(feed, modes: modes)])
    }

    /// The payloads of the pushes handed to the app, in order.
    func pushes(_ effects: [Effect]) -> [String] {
        effects.backgroundEvents.compactMap { entry in
            if case .remoteNotification(let payload) = entry.event { payload } else { nil }
        }
    }

    @Test func backgroundPushLaunchesTheAppInTheBackgroundAndCallsDidReceiveRemoteNotification() {
        var h = harness()
        let effects = h.handle(.backgroundPush(feed, payload: "p1"))
        #expect(effects.actions.first == .launch(feed, .backgroundTask))
        #expect(effects.callbacks(of: feed) == [.willFinishLaunching, .didFinishLaunching, .didEnterBackground])
        #expect(pushes(effects) == ["p1"])
        #expect(
            effects.records(.delivered).map(\.reason) == [
                "application(_:didReceiveRemoteNotification:fetchCompletionHandler:): 30 s to call its completion handler"
            ])
        #expect(effects.records(.handled).first?.reason == "completion handler called with .newData after 0.0 s")
        #expect(h.state(of: feed) == .suspended)
    }

    @Test func backgroundPushResumesASuspendedApp() {
        var h = harness()
        h.launchAndSuspend(feed)
        let effects = h.handle(.backgroundPush(feed, payload: "p1"))
        #expect(effects.actions.first == .resume(feed))
        #expect(effects.callbacks(of: feed) == [.didEnterBackground])
        #expect(pushes(effects) == ["p1"])
        #expect(h.state(of: feed) == .suspended)
    }

    @Test func pushWithoutRemoteNotificationModeIsDropped() {
        var h = harness(modes: [.fetch])
        let effects = h.handle(.backgroundPush(feed, payload: "p1"))
        #expect(effects.records(.dropped).map(\.reason) == ["UIBackgroundModes lacks 'remote-notification'"])
        #expect(effects.actions.isEmpty)
        #expect(h.system.heldPushes().isEmpty)
    }

    @Test func appHandlingAPushStaysRunningUntilTheCompletionHandlerIsCalled() {
        var h = harness()
        h.launchAndSuspend(feed)
        h.backgroundEventAnswer = nil
        h.handle(.backgroundPush(feed, payload: "p1"))
        h.advance(by: 20)
        #expect(h.state(of: feed) == .background)
        let effects = h.finishEvent(of: feed, .newData)
        #expect(effects.records(.handled).map(\.reason) == ["completion handler called with .newData after 20.0 s"])
        #expect(effects.actions == [.suspend(feed)])
    }

    @Test func pushCompletionHandlerNotCalledWithin30SecondsKillsTheApp() {
        var h = harness()
        h.launchAndSuspend(feed)
        h.backgroundEventAnswer = nil
        h.handle(.backgroundPush(feed, payload: "p1"))
        #expect(h.advance(by: 29.9).terminations.isEmpty)
        let effects = h.advance(by: 0.1)
        let method = "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"
        #expect(
            effects.terminations.map(\.1) == [.watchdog("\(method) did not call its completion handler within 30 s")])
        #expect(h.state(of: feed) == .notRunning)
    }

    @Test func onlyTheNewestHeldPushIsKept() {
        var settings = UserSettings()
        settings.backgroundAppRefresh = false
        var h = harness(settings: settings)
        h.handle(.backgroundPush(feed, payload: "old"))
        h.advance(by: 60)
        let effects = h.handle(.backgroundPush(feed, payload: "new"))
        #expect(effects.records(.dropped).first?.detail == .pushCoalesced(arrivedAt: h.now + -60, payload: "old"))
        #expect(h.system.heldPushes().map(\.payload) == ["new"])
        let delivered = h.handle(.setBackgroundAppRefresh(true))
        #expect(pushes(delivered) == ["new"])
        #expect(h.system.heldPushes().isEmpty)
    }

    @Test func pushesAreRateLimitedTo3PerHourPerApp() {
        var h = harness()
        h.launchAndSuspend(feed)
        var delivered: [String] = []
        for (index, payload) in ["a", "b", "c", "d"].enumerated() {
            h.advance(to: Instant(seconds: Double(index) * 60 + 10))
            delivered += pushes(h.handle(.backgroundPush(feed, payload: payload)))
        }
        #expect(delivered == ["a", "b", "c"])
        let held = h.system.heldPushes()
        #expect(held.map(\.blockers).first?.map(\.constraint) == ["pushRateLimit"])
        #expect(held.first?.blockers.first?.until == Instant(seconds: 3610))
        #expect(pushes(h.advance(to: Instant(seconds: 3609.9))).isEmpty)
        let later = h.advance(to: Instant(seconds: 3610))
        #expect(pushes(later) == ["d"])
    }

    @Test func pushToTheAppOnScreenIsDeliveredAtOnceOutsideTheRateLimit() {
        var h = harness()
        h.open(feed)
        var delivered: [String] = []
        for payload in ["a", "b", "c", "d", "e"] {
            delivered += pushes(h.handle(.backgroundPush(feed, payload: payload)))
        }
        #expect(delivered == ["a", "b", "c", "d", "e"])
    }

    @Test func backgroundAppRefreshOffHoldsPushesUntilTurnedOn() {
        var h = harness()
        h.launchAndSuspend(feed)
        h.handle(.setAppBackgroundAppRefresh(feed, false))
        #expect(pushes(h.handle(.backgroundPush(feed, payload: "p1"))).isEmpty)
        #expect(h.system.heldPushes().first?.blockers.map(\.constraint) == ["backgroundAppRefresh"])
        h.handle(.setAppBackgroundAppRefresh(feed, true))
        h.handle(.setBackgroundAppRefreshRestricted(true))
        h.handle(.backgroundPush(feed, payload: "p2"))
        #expect(h.system.heldPushes().first?.blockers.first?.reason == "Background App Refresh is restricted")
        #expect(pushes(h.handle(.setBackgroundAppRefreshRestricted(false))) == ["p2"])
    }

    @Test func lowPowerModeHoldsPushesWhileChargingUntil80Percent() {
        var h = harness()
        h.launchAndSuspend(feed)
        h.handle(.setLowPowerMode(true))
        #expect(pushes(h.handle(.backgroundPush(feed, payload: "p1"))).isEmpty)
        #expect(h.system.heldPushes().first?.blockers.map(\.constraint) == ["lowPowerMode"])
        #expect(pushes(h.handle(.setBattery(level: 0.5, charging: true))).isEmpty)
        #expect(pushes(h.handle(.setBattery(level: 0.8, charging: true))) == ["p1"])
    }

    @Test func pushesAfterAForceQuitAreDroppedUntilTheUserOpensTheApp() {
        var h = harness()
        h.open(feed)
        h.handle(.swipeAway(feed))
        let dropped = h.handle(.backgroundPush(feed, payload: "p1"))
        #expect(
            dropped.records(.dropped).map(\.reason) == ["the user swiped the app away: no pushes until they open it"])
        #expect(dropped.actions.isEmpty)
        h.open(feed)
        h.handle(.home)
        #expect(pushes(h.handle(.backgroundPush(feed, payload: "p2"))) == ["p2"])
    }

    @Test func heldPushIsDiscardedWhenTheAppIsForceQuitOrKilled() {
        var h = harness()
        h.launchAndSuspend(feed)
        h.handle(.setLowPowerMode(true))
        h.handle(.backgroundPush(feed, payload: "p1"))
        let effects = h.handle(.memoryPressure(bytes: 1))
        #expect(
            effects.records(.dropped).first?.detail
                == .heldPushDiscarded(payload: "p1", because: "the app was terminated (memory pressure (jetsam))"))
        #expect(h.system.heldPushes().isEmpty)
        #expect(pushes(h.handle(.setLowPowerMode(false))).isEmpty)
    }

    @Test func heldPushIsDeliveredAtOnceWhenTheUserOpensTheApp() {
        var h = harness()
        h.launchAndSuspend(feed)
        h.handle(.setBackgroundAppRefresh(false))
        h.handle(.backgroundPush(feed, payload: "p1"))
        let effects = h.handle(.open(feed))
        #expect(pushes(effects) == ["p1"])
        let delivery = effects.firstIndex { if case .deliverBackgroundEvent = $0 { true } else { false } }
        let active = effects.firstIndex {
            if case .deliver(_, .didBecomeActive, _) = $0 { true } else { false }
        }
        #expect(active != nil && delivery != nil && active! < delivery!)
    }

    @Test func pushArrivingWhileAnotherIsHandledWaitsForIt() {
        var h = harness()
        h.launchAndSuspend(feed)
        h.backgroundEventAnswer = nil
        h.handle(.backgroundPush(feed, payload: "p1"))
        h.handle(.backgroundPush(feed, payload: "p2"))
        #expect(h.system.heldPushes().first?.blockers.map(\.constraint) == ["pushInProgress"])
        #expect(pushes(h.finishEvent(of: feed, .noData)) == ["p2"])
    }

    @Test func heldPushesExplainEveryBlockerWithUntil() {
        var h = harness()
        h.launchAndSuspend(feed)
        for index in 0..<3 { h.handle(.backgroundPush(feed, payload: "\(index)")) }
        h.handle(.setLowPowerMode(true))
        h.handle(.setBackgroundAppRefresh(false))
        h.handle(.backgroundPush(feed, payload: "late"))
        let blockers = h.system.heldPushes().first?.blockers ?? []
        #expect(blockers.map(\.constraint) == ["backgroundAppRefresh", "lowPowerMode", "pushRateLimit"])
        #expect(blockers.map(\.until) == [nil, nil, h.now + 3600])
        let deferred = h.log.records(.deferred).last
        #expect(deferred?.task == "remote-notification")
        #expect(deferred?.detail == .deferred(blockers: blockers))
        #expect(blockers.last?.reason == "3 background pushes woke the app in the last 60 min (limit 3)")
    }
}
