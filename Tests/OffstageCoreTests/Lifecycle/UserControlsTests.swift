import Testing

@testable import OffstageCore

/// SPEC §8: the app switcher, Background App Refresh, Low Power Mode, Low Data Mode and the
/// per-app continued-processing switch.
@Suite struct UserControlsTests {
    let feed = Fixture.feed
    let mail = Fixture.mail
    let photos = Fixture.photos

    @Test func appSwitcherListsLiveAppsMostRecentFirst() {
        var h = Fixture.harness([feed, mail, photos])
        #expect(h.system.switcher.isEmpty)
        h.launchAndSuspend(feed)
        h.advance(by: 1)
        h.open(mail)
        _ = h.call(.beginBackgroundTask(name: "send"), from: mail)
        h.advance(by: 1)
        h.open(photos)
        #expect(h.state(of: mail) == .background && h.state(of: feed) == .suspended)
        #expect(h.system.switcher == [photos, mail, feed], "background and suspended alike, most recent first")
        h.handle(.memoryPressure(bytes: 1))
        #expect(h.state(of: feed) == .notRunning)
        #expect(h.system.switcher == [photos, mail], "a not-running app is not listed")
    }

    @Test func openingTheSwitcherMakesTheForegroundAppInactive() {
        var h = Fixture.harness()
        h.open(feed)
        let effects = h.handle(.openSwitcher)
        #expect(effects.callbacks(of: feed) == [.willResignActive])
        #expect(h.state(of: feed) == .inactive)
    }

    @Test func leavingTheSwitcherForHomeSendsTheAppToBackground() {
        var h = Fixture.harness()
        h.open(feed)
        h.handle(.openSwitcher)
        let effects = h.handle(.home)
        #expect(effects.callbacks(of: feed) == [.didEnterBackground])
        #expect(h.state(of: feed) == .suspended)
    }

    @Test func tappingAnAppInTheSwitcherBringsItToTheForeground() {
        var h = Fixture.harness([feed, mail])
        h.launchAndSuspend(feed)
        h.open(mail)
        h.handle(.openSwitcher)
        let effects = h.handle(.open(feed))
        #expect(effects.callbacks(of: mail) == [.didEnterBackground])
        #expect(effects.callbacks(of: feed) == [.willEnterForeground, .didBecomeActive])
        #expect(h.system.foregroundApp == feed)
        #expect(h.system.switcher == [feed, mail])
    }

    @Test func swipeAwayMarksForceQuitAndBlocksRefreshUntilOpened() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.openSwitcher)
        let swipe = h.handle(.swipeAway(feed))
        #expect(swipe.terminations.map(\.1) == [.userForceQuit])
        #expect(h.system.app(feed).isForceQuit)
        #expect(h.state(of: feed) == .notRunning)
        #expect(h.advance(by: 24 * 3600).startedTasks.isEmpty)
        #expect(h.system.app(feed).pendingRequests.count == 1, "the request survives the force-quit")
        h.open(feed)
        #expect(!h.system.app(feed).isForceQuit)
        #expect(h.handle(.home).startedTasks.map(\.request.identifier) == [Fixture.refresh(feed)])
    }

    @Test func swipeAwayCancelsQueuedContinuedTasksAndKillsRunningOnesWithoutCallback() {
        var h = Fixture.harness()
        h.open(feed)
        let suffixes = ["A", "B", "C", "D"]
        for suffix in suffixes {
            h.call(.register(identifier: Fixture.continued(feed, suffix)), from: feed)
            h.submit(Fixture.continuedRequest(feed, suffix), from: feed)
        }
        h.handle(.openSwitcher)
        let effects = h.handle(.swipeAway(feed))
        #expect(effects.records(.cancelled).map(\.task) == [Fixture.continued(feed, "D")])
        #expect(effects.records(.killed).compactMap(\.task) == ["A", "B", "C"].map { Fixture.continued(feed, $0) })
        #expect(!effects.actions.contains { if case .expireTask = $0 { true } else { false } })
        #expect(h.system.app(feed).pendingRequests.isEmpty)
        #expect(h.system.runningTasks.isEmpty)
    }

    @Test func swipingAnAppNotInTheSwitcherOnlyLogs() {
        var h = Fixture.harness()
        let effects = h.handle(.swipeAway(feed))
        #expect(
            effects == [
                .record(Record(at: h.now, app: feed, kind: .log, reason: "swipe: the app is not in the app switcher"))
            ])
        #expect(!h.system.app(feed).isForceQuit)
    }

    @Test func backgroundRefreshStatusIsAvailableDeniedOrRestricted() {
        var h = Fixture.harness([feed, mail])
        h.open(mail)
        h.open(feed)
        #expect(h.call(.backgroundRefreshStatus, from: feed) == .refreshStatus(.available))
        h.handle(.setAppBackgroundAppRefresh(feed, false))
        #expect(h.call(.backgroundRefreshStatus, from: feed) == .refreshStatus(.denied))
        #expect(h.call(.backgroundRefreshStatus, from: mail) == .refreshStatus(.available))
        h.handle(.setAppBackgroundAppRefresh(feed, true))
        h.handle(.setBackgroundAppRefresh(false))
        #expect(h.call(.backgroundRefreshStatus, from: feed) == .refreshStatus(.denied))
        h.handle(.setBackgroundAppRefreshRestricted(true))
        #expect(h.call(.backgroundRefreshStatus, from: feed) == .refreshStatus(.restricted))
        #expect(
            [BackgroundRefreshStatus.restricted, .denied, .available].map(\.rawValue) == [0, 1, 2])
    }

    /// Low Power Mode denies refresh, and charging does not lift it: iOS turns it off itself at 80 % on the charger.
    @Test func lowPowerModeDeniesRefreshStatusWhileChargingUntil80Percent() {
        var h = Fixture.harness()
        h.open(feed)
        h.handle(.setLowPowerMode(true))
        #expect(h.call(.backgroundRefreshStatus, from: feed) == .refreshStatus(.denied))
        h.handle(.setBattery(level: 0.39, charging: true))
        #expect(h.call(.backgroundRefreshStatus, from: feed) == .refreshStatus(.denied), "still on while charging")
        #expect(h.submit(Fixture.refreshRequest(feed), from: feed) == .failed(.unavailable))
        let effects = h.handle(.setBattery(level: 0.80, charging: true))
        #expect(effects.records(.setting).map(\.reason) == ["Low Power Mode off: the charging battery reached 80%"])
        #expect(!h.system.settings.lowPowerMode)
        #expect(h.call(.backgroundRefreshStatus, from: feed) == .refreshStatus(.available))
    }

    @Test(arguments: [
        SystemEvent.setBackgroundAppRefresh(false), .setAppBackgroundAppRefresh(Fixture.feed, false),
        .setBackgroundAppRefreshRestricted(true), .setLowPowerMode(true),
    ])
    func backgroundAppRefreshOffMakesSubmitUnavailable(setting: SystemEvent) {
        var h = Fixture.harness()
        h.open(feed)
        h.handle(setting)
        #expect(h.submit(Fixture.refreshRequest(feed), from: feed) == .failed(.unavailable))
        #expect(h.submit(Fixture.processingRequest(feed), from: feed) == .failed(.unavailable))
        #expect(
            h.log.records(.rejected).map(\.reason)
                == Array(
                    repeating: "unavailable: Background App Refresh is off", count: 2))
        let identifier = Fixture.continued(feed, "A")
        h.call(.register(identifier: identifier), from: feed)
        #expect(h.submit(Fixture.continuedRequest(feed, "A"), from: feed) == .ok, "continued processing is not refresh")
    }

    @Test func continuedProcessingSwitchOffIsNotPermitted() {
        var h = Fixture.harness()
        h.open(feed)
        h.handle(.setContinuedProcessing(feed, false))
        h.call(.register(identifier: Fixture.continued(feed, "A")), from: feed)
        #expect(h.submit(Fixture.continuedRequest(feed, "A"), from: feed) == .failed(.notPermitted))
        #expect(
            h.log.records(.rejected).map(\.reason) == [
                "notPermitted: the user turned continued processing off for this app"
            ])
        h.handle(.setContinuedProcessing(feed, true))
        #expect(h.submit(Fixture.continuedRequest(feed, "A"), from: feed) == .ok)
    }

    @Test func openingAnAppWhileLockedUnlocksTheDevice() {
        var h = Fixture.harness([feed, mail])
        h.open(mail)
        h.submit(Fixture.processingRequest(mail), from: mail)
        h.handle(.lock)
        h.advance(by: 60)
        let effects = h.handle(.open(feed))
        #expect(effects.records(.user).map(\.reason) == ["open", "unlock"])
        #expect(!h.system.device.isLocked)
        #expect(h.system.device.idleSince == nil)
        #expect(h.state(of: mail) == .suspended, "the app under the lock is not brought back")
        #expect(h.advance(by: 3600).startedTasks.isEmpty, "the device is in use: no processing")
    }
}

@Suite struct LockedScreenTests {
    let feed = Fixture.feed

    @Test func aGlanceAtTheLockedScreenEndsIdlenessUntilTheScreenGoesDarkAgain() {
        var h = Fixture.harness([feed])
        h.handle(.lock)
        h.advance(by: 60)
        h.handle(.screenOn)
        #expect(h.system.device.isLocked, "a glance does not unlock")
        #expect(h.system.device.isScreenOn)
        #expect(h.system.device.idleSince == nil, "the device is not idle while its screen is lit")
        h.advance(by: 5)
        h.handle(.lock)
        #expect(!h.system.device.isScreenOn)
        #expect(h.system.device.idleSince == h.system.now, "idle again from the moment the screen went dark")
    }

    @Test func aNotificationOfAnAppIsRecordedForThatAppWithoutOpeningIt() {
        var h = Fixture.harness([feed])
        h.handle(.lock)
        let effects = h.handle(.notificationShown(feed))
        #expect(effects.records(.notification).map(\.app) == [feed])
        #expect(h.state(of: feed) == .notRunning)
        #expect(h.system.device.isLocked)
    }
}
