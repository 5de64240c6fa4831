import Testing

@testable import OffstageCore

/// SPEC §5 coalescing with §7: a background push or a legacy fetch that the system runs while the device
/// sleeps wakes it as a task run does (a counted, charged, recorded maintenance wake), and work waiting for
/// a wake rides along with it.
@Suite struct EventWakeTests {
    let feed = Fixture.feed
    let mail = Fixture.mail

    /// Feed takes pushes; mail is an ordinary app. Both were used and left, then the device was locked.
    func lockedHarness() -> CoreHarness {
        var h = CoreHarness(apps: [
            Fixture.manifest(feed, modes: [.fetch, .processing, .remoteNotification]), Fixture.manifest(mail),
        ])
        for app in [feed, mail] {
            h.open(app)
            h.handle(.home)
        }
        return h
    }

    @Test func backgroundPushToASleepingDeviceIsAMaintenanceWake() {
        var h = lockedHarness()
        h.handle(.lock)
        h.advance(by: 60)
        let before = h.system.energy.totals[.app(feed)]?.background ?? 0
        let effects = h.handle(.backgroundPush(feed, payload: "p1"))
        #expect(h.system.wakeUps == 1)
        #expect(h.system.wakeUps(of: feed) == 1)
        #expect(effects.records(.wake).map(\.task) == ["remote-notification"])
        let after = h.system.energy.totals[.app(feed)]?.background ?? 0
        #expect(after - before >= h.system.policy.power.wakeUpJoules)
    }

    @Test func pushWhileTheDeviceIsAwakeIsNoWake() {
        var h = lockedHarness()  // the screen is on
        h.handle(.backgroundPush(feed, payload: "p1"))
        #expect(h.log.backgroundEvents.count == 1)
        #expect(h.system.wakeUps == 0)
        #expect(h.log.records(.wake).isEmpty)
    }

    @Test func legacyFetchWhileTheDeviceSleepsIsAMaintenanceWake() {
        var h = CoreHarness(apps: [AppManifest(bundleIdentifier: feed, backgroundModes: [.fetch])])
        h.open(feed)
        h.call(.setMinimumBackgroundFetchInterval(0), from: feed)
        h.handle(.home)
        h.handle(.lock)
        h.advance(by: 3600)
        let fetches = h.log.backgroundEvents.filter { $0.event == .fetch }.count
        #expect(fetches >= 1)
        #expect(h.system.wakeUps == fetches)
        #expect(h.log.records(.wake).allSatisfy { $0.task == "background-fetch" && $0.app == feed })
    }

    @Test func workWaitingForAWakeRidesAlongWithAPushWake() {
        var h = lockedHarness()
        // Due at 00:03 wall-clock: without the push it would wait for the 00:15 maintenance wake.
        h.submit(Fixture.refreshRequest(mail, earliestBeginDate: 180), from: mail)
        h.handle(.lock)
        h.advance(to: Instant(seconds: 300))
        #expect(h.log.startedTasks.isEmpty)
        #expect(h.system.explain().first { $0.app == mail }?.blockers.map(\.constraint) == ["coalescing"])
        let effects = h.handle(.backgroundPush(feed, payload: "p1"))
        #expect(effects.startedTasks.map(\.app) == [mail])
        #expect(h.system.wakeUps == 1)
        #expect(h.log.records(.wake).map(\.app) == [feed])
    }
}
