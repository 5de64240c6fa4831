import Testing

@testable import OffstageCore

/// The scheduler skips judging an app's pending requests again when nothing they read has changed
/// (`PendingJudgement`): these prove the skip never hides a change of verdict.
@Suite struct JudgementCacheTests {
    let feed = Fixture.feed

    /// The blockers named by the app's latest `deferred` record.
    func lastWait(_ h: CoreHarness, _ app: BundleID) -> String? {
        h.log.records(.deferred).last { $0.app == app }?.reason
    }

    @Test func aWaitIsExplainedAgainWhenAMaintenanceWindowClosesWithNothingElseChanged() {
        var h = Fixture.harness()
        h.launchAndSuspend(feed)
        h.handle(.lock)
        // Inside the 00:15 maintenance wake's 60 s window: only the earliest begin date (00:16:40) holds it.
        h.advance(to: Instant(seconds: 910))
        h.submit(Fixture.refreshRequest(feed, earliestBeginDate: 1000), from: feed)
        #expect(lastWait(h, feed)?.hasPrefix("earliestBeginDate") == true)
        #expect(lastWait(h, feed)?.contains("coalescing") == false)
        // The window closed at 00:16; a call that changes nothing the constraints read reviews the app.
        h.advance(to: Instant(seconds: 970))
        h.call(.pendingRequests, from: feed)
        #expect(lastWait(h, feed)?.contains("coalescing") == true)
    }

    @Test func aReplacedRequestHasItsWaitRecordedAgainEvenWhenIdentical() {
        var h = Fixture.harness()
        h.launchAndSuspend(feed)
        let request = Fixture.refreshRequest(feed, earliestBeginDate: 3600)
        h.submit(request, from: feed)
        h.submit(request, from: feed)
        let waits = h.log.records(.deferred).filter { $0.app == feed && $0.task == request.identifier }
        #expect(h.log.records(.replaced).count == 1)
        #expect(waits.count == 2)
    }
}
