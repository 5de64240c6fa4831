import Testing

@testable import OffstageCore

/// SPEC §5 "Resources" and §2 jetsam: the CPU monitor (over 80 % of a core averaged over 60 s, off for a
/// processing task that requires external power, never for the app on screen), the background memory
/// limit (50 MB), and jetsam's order under memory pressure.
@Suite struct ResourceLimitTests {
    let feed = Fixture.feed
    let mail = Fixture.mail
    let photos = Fixture.photos

    /// The app's host reports `share` of a core every `step` seconds for `seconds`; the effects, in order.
    /// With `progress`, the app also reports its continued task's progress at each step (so it does not stall).
    @discardableResult
    func burn(
        _ h: inout CoreHarness, _ app: BundleID, share: Double, for seconds: Double, step: Double = 10,
        progress run: TaskRun? = nil
    ) -> [Effect] {
        let start = h.log.count
        var elapsed = 0.0
        while elapsed < seconds {
            h.advance(by: step)
            elapsed += step
            h.handle(.resourceUsage(app, ResourceUsage(cpuSeconds: share * step, interval: step)))
            if let run {
                h.call(.reportProgress(taskID: run.id, completed: Int64(h.now.seconds), total: 10_000), from: app)
            }
        }
        return Array(h.log[start...])
    }

    /// The feed app running a processing task in the background on an idle device.
    func feedRunningProcessing(power: Bool = false) -> CoreHarness {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.processingRequest(feed, power: power), from: feed)
        if power { h.handle(.setBattery(level: 0.5, charging: true)) }
        h.lockUntilIdle()
        return h
    }

    // MARK: CPU monitor

    @Test func backgroundAppOver80PercentOfACoreFor60SecondsIsKilled() throws {
        var h = feedRunningProcessing()
        _ = try #require(h.task(Fixture.processing(feed), of: feed))
        #expect(burn(&h, feed, share: 0.9, for: 50).terminations.isEmpty)
        let effects = burn(&h, feed, share: 0.9, for: 10)
        #expect(effects.terminations.map(\.1) == [.resourceLimit("cpu resource limit exceeded")])
        #expect(
            effects.records(.resourceLimit).map(\.reason) == [
                "cpu usage: 54.0 seconds cpu time over 60 seconds (90% cpu average), "
                    + "exceeding limit of 80% cpu over 60 seconds"
            ])
        #expect(effects.records(.killed).map(\.task) == [Fixture.processing(feed)])
        #expect(h.state(of: feed) == .notRunning)
    }

    /// Finding 4 of issue 26: a 4-minute task using a full core is stopped when the limit is crossed (a whole
    /// window into the background, 60 s), not when its work ends and reports what it used.
    @Test func theCPUMonitorSeesACPUBoundTaskWhileItRuns() throws {
        var h = feedRunningProcessing()
        _ = try #require(h.task(Fixture.processing(feed), of: feed))
        let start = h.now
        h.call(.workBegan(number: 1, cpuSeconds: 240, seconds: 240), from: feed)
        #expect(h.advance(by: 59).terminations.isEmpty)
        let effects = h.advance(by: 181)
        #expect(effects.terminations.map(\.1) == [.resourceLimit("cpu resource limit exceeded")])
        let killed = try #require(effects.records(.resourceLimit).first)
        #expect(killed.at == start + 60)
        #expect(
            killed.reason
                == "cpu usage: 60.0 seconds cpu time over 60 seconds (100% cpu average), "
                + "exceeding limit of 80% cpu over 60 seconds")
    }

    /// Work in progress at the limit, or ended before it could cross it, is not killed; its report counts as before.
    @Test func workInProgressAtTheLimitOrEndedInTimeIsNotKilled() {
        var h = feedRunningProcessing()
        h.call(.workBegan(number: 1, cpuSeconds: 0.8 * 240, seconds: 240), from: feed)
        #expect(h.advance(by: 240).terminations.isEmpty)
        h.call(.workEnded(number: 1), from: feed)
        h.call(.workBegan(number: 2, cpuSeconds: 30, seconds: 30), from: feed)
        h.advance(by: 30)
        h.call(.workEnded(number: 2), from: feed)
        h.handle(.resourceUsage(feed, ResourceUsage(cpuSeconds: 30, interval: 30)))
        #expect(h.advance(by: 300).terminations.isEmpty)
        #expect(h.state(of: feed) == .background)
    }

    @Test func backgroundAppAt80PercentIsNotKilled() {
        var h = feedRunningProcessing()
        #expect(burn(&h, feed, share: 0.8, for: 300).terminations.isEmpty)
        #expect(h.state(of: feed) == .background)
    }

    @Test func cpuMonitorAveragesOverASlidingWindow() {
        var h = feedRunningProcessing()
        burn(&h, feed, share: 0.5, for: 120)
        #expect(burn(&h, feed, share: 1, for: 30).terminations.isEmpty, "(30 × 0.5 + 30 × 1) / 60 = 75 %")
        #expect(burn(&h, feed, share: 1, for: 10).terminations.map(\.0) == [feed], "(20 × 0.5 + 40) / 60 = 83 %")
    }

    @Test func cpuBurstShorterThanTheWindowIsNotKilled() {
        var h = feedRunningProcessing()
        #expect(burn(&h, feed, share: 1, for: 30).terminations.isEmpty, "the monitor has not watched 60 s yet")
        #expect(burn(&h, feed, share: 0, for: 300).terminations.isEmpty)
    }

    @Test func processingTaskRequiringExternalPowerTurnsTheCPUMonitorOff() throws {
        var h = feedRunningProcessing(power: true)
        _ = try #require(h.task(Fixture.processing(feed), of: feed))
        #expect(burn(&h, feed, share: 1, for: 300).terminations.isEmpty)
        #expect(h.state(of: feed) == .background)
    }

    @Test func appOnScreenIsNeverJudgedByTheCPUMonitor() {
        var h = Fixture.harness()
        h.open(feed)
        #expect(burn(&h, feed, share: 1, for: 600).terminations.isEmpty)
        #expect(h.state(of: feed) == .active)
    }

    @Test func cpuMonitorStartsAfreshWhenTheAppLeavesTheScreen() throws {
        var h = Fixture.harness()
        h.open(feed)
        h.call(.register(identifier: Fixture.continued(feed, "A")), from: feed)
        h.submit(Fixture.continuedRequest(feed, "A"), from: feed)
        let run = try #require(h.task(Fixture.continued(feed, "A"), of: feed))
        burn(&h, feed, share: 1, for: 50, progress: run)
        h.handle(.home)
        #expect(h.state(of: feed) == .background)
        #expect(burn(&h, feed, share: 1, for: 50, progress: run).terminations.isEmpty)
        #expect(burn(&h, feed, share: 1, for: 10, progress: run).terminations.map(\.0) == [feed])
    }

    // MARK: Background memory limit

    @Test func backgroundAppOverTheMemoryLimitIsKilled() {
        var h = Fixture.harness([feed, mail])
        h.open(feed)
        h.call(.beginBackgroundTask(name: "upload"), from: feed)
        h.open(mail)
        #expect(h.handle(.setMemoryFootprint(feed, bytes: 50_000_000)).terminations.isEmpty, "at the limit")
        let effects = h.handle(.setMemoryFootprint(feed, bytes: 60_000_000))
        #expect(effects.terminations.map(\.1) == [.resourceLimit("memory resource limit exceeded")])
        #expect(
            effects.records(.resourceLimit).map(\.reason) == [
                "memory: 60.0 MB in the background, exceeding limit of 50.0 MB"
            ])
        #expect(effects.callbacks(of: feed).isEmpty, "killed at once, without willTerminate")
    }

    @Test func appOverTheMemoryLimitIsKilledWhenItRunsInTheBackground() {
        var h = Fixture.harness()
        h.open(feed)
        h.handle(.setMemoryFootprint(feed, bytes: 120_000_000))
        h.call(.beginBackgroundTask(name: "upload"), from: feed)
        #expect(h.state(of: feed) == .active, "the app on screen is never judged")
        let effects = h.handle(.home)
        #expect(effects.terminations.map(\.1) == [.resourceLimit("memory resource limit exceeded")])
    }

    @Test func suspendedAppsAreLeftToJetsamNotToTheMemoryLimit() {
        var h = Fixture.harness()
        h.open(feed)
        h.handle(.setMemoryFootprint(feed, bytes: 200_000_000))
        #expect(h.handle(.home).terminations.isEmpty)
        #expect(h.state(of: feed) == .suspended)
        #expect(h.advance(by: 3600).terminations.isEmpty)
    }

    @Test func killingAnAppForMemoryStartsTheNextQueuedContinuedTask() {
        var h = Fixture.harness([feed, mail])
        h.open(feed)
        for suffix in ["A", "B", "C"] {
            h.call(.register(identifier: Fixture.continued(feed, suffix)), from: feed)
            h.submit(Fixture.continuedRequest(feed, suffix), from: feed)
        }
        h.open(mail)
        h.call(.register(identifier: Fixture.continued(mail, "M")), from: mail)
        h.submit(Fixture.continuedRequest(mail, "M"), from: mail)
        #expect(h.system.app(mail).pendingRequests.count == 1)
        let effects = h.handle(.setMemoryFootprint(feed, bytes: 80_000_000))
        #expect(effects.terminations.map(\.0) == [feed])
        #expect(effects.startedTasks.map(\.request.identifier) == [Fixture.continued(mail, "M")])
    }

    // MARK: Jetsam, in iOS's order

    @Test func jetsamKillsBackgroundAppsOnlyAfterSuspendedOnesLeastRecentlyUsedFirst() {
        let notes: BundleID = "com.example.notes"
        var h = Fixture.harness([feed, mail, photos, notes])
        h.open(feed)
        h.call(.beginBackgroundTask(name: "a"), from: feed)  // background, used first
        h.advance(by: 1)
        h.open(mail)
        h.call(.beginBackgroundTask(name: "b"), from: mail)  // background, used later
        h.advance(by: 1)
        h.launchAndSuspend(photos)  // suspended, used last
        h.open(notes)
        let effects = h.handle(.memoryPressure(bytes: 120_000_000))
        #expect(effects.records(.terminated).compactMap(\.app) == [photos, feed, mail])
        #expect(h.state(of: notes) == .active)
    }

    @Test func jetsamNeverKillsTheForegroundApp() {
        var h = Fixture.harness()
        h.open(feed)
        let effects = h.handle(.memoryPressure(bytes: 1))
        #expect(effects.terminations.isEmpty)
        #expect(h.state(of: feed) == .active)
        #expect(
            effects.records(.log).map(\.reason) == [
                "memory pressure: freed 0 of 1 bytes; the foreground app is never killed"
            ])
    }
}
