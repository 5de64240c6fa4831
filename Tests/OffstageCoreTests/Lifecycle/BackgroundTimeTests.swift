import Testing

@testable import OffstageCore

/// SPEC §3: `beginBackgroundTask`, the app's shared background time, expiration and the watchdog.
@Suite struct BackgroundTimeTests {
    let feed = Fixture.feed

    /// Opens the feed app and begins one assertion in the foreground; returns its identifier.
    func openWithAssertion(_ h: inout CoreHarness) -> Int {
        h.open(feed)
        guard case .backgroundTask(let number) = h.call(.beginBackgroundTask(name: "upload"), from: feed) else {
            Issue.record("beginBackgroundTask did not return an identifier")
            return -1
        }
        return number
    }

    @Test func beginBackgroundTaskKeepsTheAppRunningUntilEnded() {
        var h = Fixture.harness()
        let number = openWithAssertion(&h)
        #expect(number == 1)
        #expect(h.log.records(.assertionBegan).map(\.reason) == ["background task 1 (\"upload\")"])
        let home = h.handle(.home)
        #expect(!home.actions.contains(.suspend(feed)))
        #expect(h.state(of: feed) == .background)
        let (result, effects) = h.callWithEffects(.endBackgroundTask(number), from: feed)
        #expect(result == .ok)
        #expect(effects.records(.assertionEnded).map(\.reason) == ["background task 1 ended"])
        #expect(effects.actions == [.suspend(feed)])
    }

    @Test func backgroundTimeIsSharedByAllAssertions() {
        var h = Fixture.harness()
        h.endAssertionsOnExpiration = false
        _ = openWithAssertion(&h)
        h.handle(.home)  // t+0: the 30 s start now, for the app
        h.advance(by: 10)
        #expect(h.call(.beginBackgroundTask(name: "second"), from: feed) == .backgroundTask(2))
        let warning = h.advance(by: 15)
        #expect(warning.actions == [.expireBackgroundTasks(feed, ids: [1, 2])])
        let end = h.advance(by: 5)
        #expect(end.terminations.map(\.1) == [.watchdog("background task assertion timeout")])
        #expect(end.records(.terminated).first?.at == Instant(seconds: 30))
    }

    @Test func expirationHandlersRun5SecondsBeforeTheEnd() {
        var h = Fixture.harness()
        _ = openWithAssertion(&h)
        h.handle(.home)
        #expect(h.advance(by: 24.9).actions.isEmpty)
        let effects = h.advance(by: 0.1)
        #expect(effects.actions.first == .expireBackgroundTasks(feed, ids: [1]))
        #expect(
            effects.records(.assertionExpired).map(\.reason) == [
                "background time ends in 5 s: expiration handlers for [1]"
            ])
        #expect(effects.records(.assertionExpired).first?.at == Instant(seconds: 25))
    }

    @Test func outstandingAssertionsAtZeroKillTheApp() {
        var h = Fixture.harness()
        h.endAssertionsOnExpiration = false
        _ = openWithAssertion(&h)
        h.handle(.home)
        #expect(h.advance(by: 29.9).terminations.isEmpty)
        let effects = h.advance(by: 0.1)
        #expect(effects.terminations.map(\.1) == [.watchdog("background task assertion timeout")])
        #expect(
            effects.records(.terminated).map(\.reason) == [
                "background → not running: watchdog: background task assertion timeout"
            ])
        #expect(h.state(of: feed) == .notRunning)
    }

    @Test func endingAssertionsInTheExpirationHandlerAvoidsTheKill() {
        var h = Fixture.harness()
        _ = openWithAssertion(&h)
        h.handle(.home)
        let effects = h.advance(by: 25)
        #expect(effects.actions == [.expireBackgroundTasks(feed, ids: [1]), .suspend(feed)])
        #expect(h.advance(by: 60).terminations.isEmpty)
        #expect(h.state(of: feed) == .suspended)
    }

    @Test func backgroundTimeRemainingIsGreatestFiniteMagnitudeInForeground() {
        var h = Fixture.harness()
        _ = openWithAssertion(&h)
        #expect(h.call(.backgroundTimeRemaining, from: feed) == .timeRemaining(Double.greatestFiniteMagnitude))
    }

    @Test func backgroundTimeCountsFromEnteringTheBackground() {
        var h = Fixture.harness()
        _ = openWithAssertion(&h)
        h.advance(by: 100)  // time in the foreground does not count
        h.handle(.home)
        h.advance(by: 10)
        #expect(h.call(.backgroundTimeRemaining, from: feed) == .timeRemaining(20))
    }

    /// An app kept running past its background time by something other than an assertion (here a push whose
    /// handler has 30 s, with 10 s of background time) cannot begin one: `.invalid`, and no assertion is made.
    @Test func beginBackgroundTaskWithNoBackgroundTimeLeftReturnsInvalid() {
        let feed = Fixture.feed
        var policy = Policy.iOS
        policy.backgroundTimeAllowance = 10
        var h = CoreHarness(
            policy: policy, apps: [Fixture.manifest(feed, modes: [.fetch, .processing, .remoteNotification])])
        h.backgroundEventAnswer = nil
        h.launchAndSuspend(feed)
        h.handle(.backgroundPush(feed, payload: "p1"))
        h.advance(by: 15)
        #expect(h.state(of: feed) == .background)
        #expect(h.call(.backgroundTimeRemaining, from: feed) == .timeRemaining(0))
        #expect(h.call(.beginBackgroundTask(name: "late"), from: feed) == .backgroundTask(0))
        #expect(h.log.records(.assertionBegan).last?.detail == .assertionRefused(name: "late"))
        #expect(h.log.records(.assertionBegan).last?.reason == "\"late\": no background time left: .invalid")
        #expect(h.system.app(feed).outstandingAssertions.isEmpty)
    }

    /// An app playing audio in the background has unlimited background time: its assertions are granted and
    /// never expire while it plays.
    @Test func anAppPlayingAudioHasUnlimitedBackgroundTime() {
        let player = BundleID("com.example.player")
        var h = CoreHarness(apps: [AppManifest(bundleIdentifier: player, backgroundModes: [.audio])])
        h.open(player)
        h.call(.setBackgroundActivity(.audio, active: true), from: player)
        h.handle(.home)
        h.advance(by: 31)
        #expect(h.state(of: player) == .background)
        #expect(h.call(.backgroundTimeRemaining, from: player) == .timeRemaining(.greatestFiniteMagnitude))
        #expect(h.call(.beginBackgroundTask(name: "playing"), from: player) == .backgroundTask(1))
        h.advance(by: 600)
        #expect(h.state(of: player) == .background)
        #expect(h.log.records(.assertionExpired).isEmpty)
        // Once the audio stops, the time counts from the entry to the background again (ours): the assertion
        // held past its 30 s ends the process.
        h.call(.setBackgroundActivity(.audio, active: false), from: player)
        #expect(h.state(of: player) == .notRunning)
    }

    /// While a task runs its own time covers the app: an assertion begun 2 min into a processing task is
    /// granted (Apple: `.invalid` only "if running in the background is not possible"), and the app's 30 s
    /// start when the task completes (our model: Apple gives no rule).
    @Test func beginBackgroundTaskDuringARunningTaskIsGrantedAndItsTimeStartsWhenTheTaskEnds() {
        var h = Fixture.harness()
        h.endAssertionsOnExpiration = false
        h.open(feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        h.lockUntilIdle()
        #expect(h.task(Fixture.processing(feed), of: feed) != nil)
        h.advance(by: 120)
        #expect(h.call(.backgroundTimeRemaining, from: feed) == .timeRemaining(480))
        guard case .backgroundTask(let number) = h.call(.beginBackgroundTask(name: "upload"), from: feed) else {
            Issue.record("beginBackgroundTask did not return an identifier")
            return
        }
        #expect(number != 0)
        #expect(h.advance(by: 60).terminations.isEmpty)
        h.complete(Fixture.processing(feed), of: feed)
        #expect(h.call(.backgroundTimeRemaining, from: feed) == .timeRemaining(30))
        #expect(h.advance(by: 29.9).terminations.isEmpty)
        #expect(h.advance(by: 0.1).terminations.map(\.1) == [.watchdog("background task assertion timeout")])
    }

    /// Low Power Mode reduces background time (`backgroundRefreshStatus`'s documentation): 15 s, ours.
    @Test func lowPowerModeReducesBackgroundTime() {
        var h = Fixture.harness()
        h.endAssertionsOnExpiration = false
        h.handle(.setLowPowerMode(true))
        _ = openWithAssertion(&h)
        h.handle(.home)
        #expect(h.call(.backgroundTimeRemaining, from: feed) == .timeRemaining(15))
        #expect(h.advance(by: 14.9).terminations.isEmpty)
        #expect(h.advance(by: 0.1).terminations.map(\.1) == [.watchdog("background task assertion timeout")])
    }

    @Test func the1001stAssertionCrashes() {
        var h = Fixture.harness()
        h.open(feed)
        for expected in 1...1000 {
            #expect(h.call(.beginBackgroundTask(name: nil), from: feed) == .backgroundTask(expected))
        }
        let (result, effects) = h.callWithEffects(.beginBackgroundTask(name: nil), from: feed)
        let message = "more than 1000 background task assertions (0xbada5e47)"
        #expect(result == .crash(message))
        #expect(effects.terminations.map(\.1) == [.crash(message)])
        #expect(effects.records(.crashed).map(\.reason) == ["crash: \(message)"])
        #expect(h.state(of: feed) == .notRunning)
    }

    @Test func endingUnknownIdentifierLogsAndDoesNothingElse() {
        var h = Fixture.harness()
        _ = openWithAssertion(&h)
        h.handle(.home)
        let (result, effects) = h.callWithEffects(.endBackgroundTask(42), from: feed)
        #expect(result == .ok)
        let message =
            "Can't end BackgroundTask: no background task exists with identifier 42 (0x2a), "
            + "or it may have already been ended. Break in UIApplicationEndBackgroundTaskError() to debug."
        #expect(effects == [.record(Record(at: h.now, app: feed, kind: .log, reason: message))])
        #expect(h.system.app(feed).outstandingAssertions == [1])
        #expect(h.state(of: feed) == .background)
    }

    @Test func endingAnAssertionTwiceLogsTheSecondTime() {
        var h = Fixture.harness()
        let number = openWithAssertion(&h)
        h.call(.endBackgroundTask(number), from: feed)
        let (_, effects) = h.callWithEffects(.endBackgroundTask(number), from: feed)
        #expect(effects.records(.log).count == 1)
        #expect(effects.records(.assertionEnded).isEmpty)
    }

    @Test func assertionBegunAfterTheWarningIsExpiredAtOnce() {
        var h = Fixture.harness()
        h.endAssertionsOnExpiration = false
        _ = openWithAssertion(&h)
        h.handle(.home)
        h.advance(by: 26)
        let (result, effects) = h.callWithEffects(.beginBackgroundTask(name: "late"), from: feed)
        #expect(result == .backgroundTask(2))
        #expect(effects.actions == [.expireBackgroundTasks(feed, ids: [2])])
    }

    @Test func returningToTheForegroundStartsAFreshBackgroundTime() {
        var h = Fixture.harness()
        h.endAssertionsOnExpiration = false
        _ = openWithAssertion(&h)
        h.handle(.home)
        h.advance(by: 26)  // warned
        h.open(feed)
        h.call(.endBackgroundTask(1), from: feed)
        let (result, effects) = h.callWithEffects(.beginBackgroundTask(name: "next"), from: feed)
        #expect(result == .backgroundTask(2))
        #expect(effects.actions.isEmpty, "an assertion begun in the foreground is not expired")
        h.handle(.home)
        #expect(h.advance(by: 24.9).actions.isEmpty)
        #expect(h.advance(by: 0.1).actions == [.expireBackgroundTasks(feed, ids: [2])])
    }
}
