import Testing

@testable import OffstageCore

/// Issue 16, item 8: background `URLSession` transfers are the system's once started: they go on while the app is
/// suspended or terminated, wake it for `handleEventsForBackgroundURLSession` (relaunching it only when the session
/// sends launch events), wait for Wi-Fi and power when discretionary, and the resume rate limiter doubles its delay.
@Suite struct BackgroundTransferTests {
    let feed = Fixture.feed

    func harness(network: NetworkKind = .wifi, charging: Bool = true) -> CoreHarness {
        var device = DeviceState()
        device.network = network
        device.isCharging = charging
        return CoreHarness(device: device, apps: [Fixture.manifest(feed)])
    }

    func transfer(_ task: Int, seconds: Double = 100, discretionary: Bool = false, launchEvents: Bool = true)
        -> AppCall
    {
        .startBackgroundTransfer(
            BackgroundTransferRequest(
                session: "com.example.feed.bg", task: task, url: "https://example.com/\(task)", seconds: seconds,
                bytes: 1000, isDiscretionary: discretionary, sendsLaunchEvents: launchEvents))
    }

    /// The session events handed to the app, in order.
    func sessionEvents(_ effects: [Effect]) -> [BackgroundEvent] {
        effects.backgroundEvents.map(\.event).filter { if case .urlSessionEvents = $0 { true } else { false } }
    }

    func transferWords(_ h: CoreHarness) -> [String] { h.records.filter { $0.kind == .transfer }.map(\.reason) }

    @Test func backgroundTransferGoesOnWhileTheAppIsSuspendedAndResumesItForHandleEvents() {
        var h = harness()
        h.open(feed)
        h.call(transfer(1), from: feed)
        h.handle(.home)
        #expect(h.state(of: feed) == .suspended)
        let effects = h.advance(by: 100)
        #expect(effects.actions.first == .resume(feed))
        #expect(
            sessionEvents(effects) == [.urlSessionEvents(session: "com.example.feed.bg", tasks: [1], wakesApp: true)])
        #expect(
            effects.records(.delivered).map(\.reason) == [
                "application(_:handleEventsForBackgroundURLSession:completionHandler:): 30 s to call its completion handler"
            ])
        #expect(transferWords(h).contains("background transfer finished: 1000 bytes"))
        #expect(
            h.records.first { $0.kind == .transfer }?.detail
                == .transfer(.accepted(discretionary: false, startedInBackground: false)))
    }

    @Test func backgroundTransferRelaunchesATerminatedAppWhenItsSessionSendsLaunchEvents() {
        var h = harness()
        h.open(feed)
        h.call(transfer(1), from: feed)
        h.handle(.home)
        h.handle(.processExited(feed, reason: "jetsam"))
        #expect(h.state(of: feed) == .notRunning)
        let effects = h.advance(by: 100)
        #expect(effects.actions.first == .launch(feed, .backgroundTask))
        #expect(sessionEvents(effects).count == 1)
    }

    @Test func sessionWithoutLaunchEventsWaitsForTheAppToRunThenDeliversDirectly() {
        var h = harness()
        h.open(feed)
        h.call(transfer(1, launchEvents: false), from: feed)
        h.handle(.home)
        h.handle(.processExited(feed, reason: "jetsam"))
        let waiting = h.advance(by: 200)
        #expect(waiting.actions.isEmpty)
        #expect(
            transferWords(h).last
                == "the session's events wait until the app runs: its session sends no launch events, so the system "
                + "neither resumes nor relaunches it")
        let opened = h.handle(.open(feed))
        #expect(
            sessionEvents(opened) == [.urlSessionEvents(session: "com.example.feed.bg", tasks: [1], wakesApp: false)])
    }

    /// `sessionSendsLaunchEvents = false`: a suspended app is not resumed for the session's events either; they
    /// wait until the app next runs (Apple: the property says whether the app "should be resumed or launched in
    /// the background when transfers finish").
    @Test func aSuspendedAppIsNotResumedForASessionThatSendsNoLaunchEvents() {
        var h = harness()
        h.open(feed)
        h.call(transfer(1, launchEvents: false), from: feed)
        h.handle(.home)
        #expect(h.state(of: feed) == .suspended)
        let waiting = h.advance(by: 200)
        #expect(waiting.actions.isEmpty)
        #expect(h.state(of: feed) == .suspended)
        #expect(h.records.last { $0.kind == .transfer }?.detail == .transfer(.waitingForLaunch))
        let opened = h.handle(.open(feed))
        #expect(opened.actions.first == .resume(feed))
        #expect(
            sessionEvents(opened) == [.urlSessionEvents(session: "com.example.feed.bg", tasks: [1], wakesApp: false)])
    }

    @Test func discretionaryTransferWaitsForWiFiAndPower() {
        var h = harness(network: .cellular, charging: false)
        h.open(feed)
        h.call(transfer(1, discretionary: true), from: feed)
        h.handle(.home)
        h.advance(by: 500)
        h.handle(.setNetwork(.wifi))
        h.advance(by: 500)
        #expect(sessionEvents(h.log).isEmpty)
        h.handle(.setCharging(true))
        let effects = h.advance(by: 100)
        #expect(sessionEvents(effects).count == 1)
        #expect(
            Array(transferWords(h).prefix(4)) == [
                "background transfer taken over by the system (discretionary: it waits for Wi-Fi and power)",
                "background transfer waits for Wi-Fi, power", "background transfer waits for power",
                "background transfer running: 100.0 s on the network to go",
            ])
    }

    @Test func transferStartedInTheBackgroundIsDiscretionary() {
        var h = harness(network: .cellular, charging: true)
        h.open(feed)
        h.handle(.home)
        h.call(transfer(1), from: feed)
        #expect(
            transferWords(h) == [
                "background transfer taken over by the system (discretionary: started in the background, so it waits "
                    + "for Wi-Fi and power)", "background transfer waits for Wi-Fi",
            ])
    }

    @Test func transferUsesOnlyTheNetworkTimeItRan() {
        var h = harness()
        h.open(feed)
        h.call(transfer(1), from: feed)
        h.advance(by: 40)
        h.handle(.setNetwork(.none))
        h.advance(by: 1000)
        h.handle(.setNetwork(.cellular))
        #expect(transferWords(h).last == "background transfer running: 60.0 s on the network to go")
        let finish = h.advance(by: 60)
        #expect(finish.records(.transfer).map(\.reason) == ["background transfer finished: 1000 bytes"])
    }

    @Test func resumeRateLimiterDoublesItsDelayAtEachBackgroundWake() {
        var h = harness()
        h.open(feed)
        for (task, seconds) in [(1, 10.0), (2, 20.0), (3, 100.0)] {
            h.call(transfer(task, seconds: seconds), from: feed)
        }
        h.handle(.home)
        h.advance(by: 400)
        let wakes = h.records.filter { $0.kind == .delivered }.map(\.at.seconds)
        // Finished at 10, 20, 100 s: the first wakes at once, the second waits 60 s, the third 120 s more.
        #expect(wakes == [10, 70, 190])
        #expect(h.records.contains { $0.detail == .transfer(.wakeHeld(until: Instant(seconds: 70), wakes: 1)) })
    }

    @Test func openingTheAppResetsTheResumeRateLimiter() {
        var h = harness()
        h.open(feed)
        h.call(transfer(1, seconds: 10), from: feed)
        h.call(transfer(2, seconds: 20), from: feed)
        h.handle(.home)
        h.advance(by: 15)
        h.handle(.open(feed))
        h.handle(.home)
        h.advance(by: 100)
        #expect(h.records.filter { $0.kind == .delivered }.map(\.at.seconds) == [10, 20])
    }

    @Test func swipingTheAppAwayCancelsItsBackgroundTransfers() {
        var h = harness()
        h.open(feed)
        h.call(transfer(1), from: feed)
        h.handle(.swipeAway(feed))
        h.advance(by: 500)
        #expect(sessionEvents(h.log).isEmpty)
        #expect(transferWords(h).last == "the user swiped the app away: its background transfer is cancelled")
    }
}
