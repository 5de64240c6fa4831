import Testing

@testable import OffstageCore

/// §2/§7: the launch options name the event the process was launched for, and only that one.
@Suite struct LaunchOptionsTests {
    let feed = Fixture.feed

    /// Feed with background pushes, installed and never launched.
    func harness() -> CoreHarness {
        CoreHarness(apps: [Fixture.manifest(feed, modes: [.fetch, .processing, .remoteNotification])])
    }

    /// The options the app's code reads now.
    func options(_ h: inout CoreHarness) -> LaunchOptions? {
        guard case .launchOptions(let options) = h.call(.launchOptions, from: feed) else { return nil }
        return options
    }

    @Test func aPushThatArrivesWhileTheAppLaunchesForATaskIsNotInThatLaunchsOptions() {
        var h = harness()
        h.launchAndSuspend(feed)
        h.submit(Fixture.refreshRequest(feed, earliestBeginDate: 3600), from: feed)
        h.handle(.processExited(feed, reason: "test"))
        h.holds[feed] = [.didFinishLaunching]  // the app is still launching when the push arrives
        h.handle(.simulateLaunch(feed, identifier: Fixture.refresh(feed)))
        #expect(h.log.records(.started).count == 1)  // launched for the task, not yet handed it
        h.handle(.backgroundPush(feed, payload: "headline-7"))
        #expect(h.state(of: feed) == .background)
        #expect(options(&h) == LaunchOptions())
    }

    @Test func aLaunchForAPushNamesThePushEvenAfterItWasHandedOver() {
        var h = harness()
        h.handle(.backgroundPush(feed, payload: "headline-7"))
        #expect(h.log.records(.delivered).count == 1)  // handed over: the launch is over
        #expect(options(&h) == LaunchOptions(remoteNotification: "headline-7"))
    }
}
