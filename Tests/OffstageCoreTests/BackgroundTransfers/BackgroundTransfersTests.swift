import Testing

@testable import OffstageCore

/// The background transfers on their own: `take` is handed an app's start or cancel, or time passing, with what
/// it reads of the system (the device, the app on screen, each app's state), and returns the facts to record and
/// the session events to deliver.
@Suite struct BackgroundTransfersTests {
    let app: BundleID = "com.example.podcasts"
    let wakeDelay = 60.0

    func at(_ seconds: Double) -> Instant { Instant(seconds: seconds) }

    func request(_ task: Int, seconds: Double = 30, discretionary: Bool = false, launchEvents: Bool = true)
        -> BackgroundTransferRequest
    {
        BackgroundTransferRequest(
            session: "episodes", task: task, url: "https://example.com/\(task)", seconds: seconds, bytes: 1000,
            isDiscretionary: discretionary, sendsLaunchEvents: launchEvents)
    }

    func device(_ network: NetworkKind, charging: Bool = false) -> DeviceState {
        var device = DeviceState()
        device.network = network
        device.isCharging = charging
        return device
    }

    /// Hands `input` to the transfers at `seconds`, with the app `state` and on screen or not.
    func take(
        _ input: TransferInput, _ transfers: inout BackgroundTransfers, at seconds: Double,
        on device: DeviceState = DeviceState(), state: AppState = .suspended, onScreen: Bool = false
    ) -> [BackgroundTransfers.Action] {
        transfers.take(
            input, now: at(seconds), device: device, onScreen: onScreen ? app : nil, installed: [app],
            wakeDelay: wakeDelay, isForceQuit: { _ in false }, state: { _ in state })
    }

    func note(_ task: Int, _ fact: TransferFact) -> BackgroundTransfers.Action {
        .note(BackgroundTransfers.Fact(app: app, task: "episodes#\(task)", fact: fact))
    }

    @Test func aTransferStartedInTheBackgroundWaitsForWiFiAndPowerThenWakesTheSuspendedApp() {
        var transfers = BackgroundTransfers()
        let accepted = take(.start(request(1), from: app), &transfers, at: 0)
        #expect(accepted == [note(1, .accepted(discretionary: true, startedInBackground: true))])
        let waiting = take(.timePassed, &transfers, at: 0, on: device(.cellular))
        #expect(waiting == [note(1, .waiting(for: ["Wi-Fi", "power"]))])
        #expect(take(.timePassed, &transfers, at: 5, on: device(.cellular)).isEmpty)  // a wait is recorded once
        let running = take(.timePassed, &transfers, at: 10, on: device(.wifi, charging: true))
        #expect(running == [note(1, .running(secondsLeft: 30))])
        #expect(transfers.dueTimes == [at(40)])
        let ended = take(.timePassed, &transfers, at: 40, on: device(.wifi, charging: true))
        let events = BackgroundEvent.urlSessionEvents(session: "episodes", tasks: [1], wakesApp: true)
        #expect(
            ended == [
                note(1, .finished(bytes: 1000)),
                .deliver(app, events, why: "background URLSession events for episodes"),
            ])
        #expect(transfers.isIdle == false && transfers.dueTimes.isEmpty)  // the rate limiter remembers the wake
    }

    @Test func theResumeRateLimiterHoldsTheNextWakeAndARunningAppGetsItsEventsAtOnce() {
        var transfers = BackgroundTransfers()
        _ = take(.start(request(1, seconds: 0), from: app), &transfers, at: 0, onScreen: true)
        _ = take(.timePassed, &transfers, at: 0)  // handed over at once: the first wake is free
        _ = take(.start(request(2, seconds: 10), from: app), &transfers, at: 5, onScreen: true)
        #expect(take(.timePassed, &transfers, at: 5) == [note(2, .running(secondsLeft: 10))])
        let held = take(.timePassed, &transfers, at: 15)
        #expect(
            held == [
                note(2, .finished(bytes: 1000)),
                .note(BackgroundTransfers.Fact(app: app, task: "episodes", fact: .wakeHeld(until: at(60), wakes: 1))),
            ])
        #expect(take(.timePassed, &transfers, at: 20).isEmpty)
        let atOnce = take(.timePassed, &transfers, at: 30, state: .background)
        let events = BackgroundEvent.urlSessionEvents(session: "episodes", tasks: [2], wakesApp: false)
        #expect(atOnce == [.deliver(app, events, why: "its background session's transfers ended")])
    }

    @Test func aSessionWithoutLaunchEventsWaitsForTheAppAndACancelledTransferEndsQuietly() {
        var transfers = BackgroundTransfers()
        _ = take(.start(request(1, seconds: 0, launchEvents: false), from: app), &transfers, at: 0, onScreen: true)
        let waits = take(.timePassed, &transfers, at: 0, state: .notRunning)
        #expect(
            waits == [
                note(1, .running(secondsLeft: 0)), note(1, .finished(bytes: 1000)),
                .note(BackgroundTransfers.Fact(app: app, task: "episodes", fact: .waitingForLaunch)),
            ])
        _ = take(.start(request(2), from: app), &transfers, at: 1, onScreen: true)
        let unknown = take(.cancel(session: "episodes", task: 9, from: app), &transfers, at: 2)
        #expect(unknown.isEmpty)
        let cancelled = take(.cancel(session: "episodes", task: 2, from: app), &transfers, at: 2)
        #expect(cancelled == [note(2, .cancelled(byUser: false))])
    }
}
