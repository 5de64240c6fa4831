import Testing

@testable import OffstageCore

/// SPEC §2: the life cycle, its callbacks in iOS's order, their deadlines, suspension, termination, jetsam.
@Suite struct LifecycleTests {
    let feed = Fixture.feed
    let mail = Fixture.mail
    let photos = Fixture.photos

    @Test func coldLaunchCallbackOrder() {
        var h = Fixture.harness()
        let effects = h.handle(.open(feed))
        #expect(
            effects.actions == [
                .launch(feed, .user),
                .deliver(feed, .willFinishLaunching, token: 1),
                .deliver(feed, .didFinishLaunching, token: 2),
                .deliver(feed, .didBecomeActive, token: 3),
            ])
        #expect(effects.records(.state).map(\.reason) == ["not running → inactive", "inactive → active"])
        #expect(effects.records(.launched).map(\.reason) == ["the user opened the app"])
        #expect(h.state(of: feed) == .active)
        #expect(h.system.foregroundApp == feed)
    }

    @Test func launchCallbacksRunWhileInactive() {
        var h = Fixture.harness()
        h.holds[feed] = [.didFinishLaunching]
        h.open(feed)
        #expect(h.state(of: feed) == .inactive)
        #expect(h.call(.applicationState, from: feed) == .state(.inactive))
        h.release(feed)
        #expect(h.state(of: feed) == .active)
    }

    @Test func interruptionMakesTheAppInactive() {
        var h = Fixture.harness()
        h.open(feed)
        let effects = h.handle(.interruptionBegan)
        #expect(effects.actions == [.deliver(feed, .willResignActive, token: 4)])
        #expect(h.state(of: feed) == .inactive)
    }

    @Test func interruptionDeclinedReturnsToActive() {
        var h = Fixture.harness()
        h.open(feed)
        h.handle(.interruptionBegan)
        let effects = h.handle(.interruptionEnded(accepted: false))
        #expect(effects.callbacks(of: feed) == [.didBecomeActive])
        #expect(effects.actions.count == 1)
        #expect(h.state(of: feed) == .active)
        #expect(h.system.foregroundApp == feed)
    }

    @Test func interruptionTakenSendsAppToBackground() {
        var h = Fixture.harness()
        h.open(feed)
        h.handle(.interruptionBegan)
        let effects = h.handle(.interruptionEnded(accepted: true))
        #expect(effects.callbacks(of: feed) == [.didEnterBackground])
        #expect(effects.actions.last == .suspend(feed))
        #expect(h.state(of: feed) == .suspended)
        #expect(h.system.foregroundApp == nil)
    }

    @Test func goingHomeResignsActiveThenEntersBackgroundThenSuspends() {
        var h = Fixture.harness()
        h.open(feed)
        let effects = h.handle(.home)
        #expect(
            effects.actions == [
                .deliver(feed, .willResignActive, token: 4),
                .deliver(feed, .didEnterBackground, token: 5),
                .suspend(feed),
            ])
        #expect(
            effects.records(.state).map(\.reason) == ["active → inactive", "inactive → background"])
        #expect(
            effects.records(.suspended).map(\.reason) == [
                "background → suspended: no outstanding background work"
            ])
        #expect(h.state(of: feed) == .suspended)
    }

    @Test func lockingSendsTheAppToBackgroundAndUnlockingBringsItBack() {
        var h = Fixture.harness()
        h.open(feed)
        let locked = h.handle(.lock)
        #expect(locked.callbacks(of: feed) == [.willResignActive, .didEnterBackground])
        #expect(h.state(of: feed) == .suspended)
        let unlocked = h.handle(.unlock)
        #expect(
            unlocked.actions == [
                .resume(feed),
                .deliver(feed, .willEnterForeground, token: 6),
                .deliver(feed, .didBecomeActive, token: 7),
            ])
        #expect(h.state(of: feed) == .active)
    }

    @Test func switchingAppsSendsThePreviousAppToBackground() {
        var h = Fixture.harness([feed, mail])
        h.open(feed)
        let effects = h.handle(.open(mail))
        #expect(effects.callbacks(of: feed) == [.willResignActive, .didEnterBackground])
        #expect(effects.callbacks(of: mail) == [.willFinishLaunching, .didFinishLaunching, .didBecomeActive])
        #expect(h.state(of: feed) == .suspended)
        #expect(h.state(of: mail) == .active)
    }

    @Test func backToForegroundCallbackOrder() {
        var h = Fixture.harness()
        h.launchAndSuspend(feed)
        let effects = h.handle(.open(feed))
        #expect(
            effects.actions == [
                .resume(feed), .deliver(feed, .willEnterForeground, token: 6),
                .deliver(feed, .didBecomeActive, token: 7),
            ])
        #expect(effects.records(.state).map(\.reason) == ["background → inactive", "inactive → active"])
        #expect(effects.records(.resumed).map(\.reason) == ["the user opened the app"])
    }

    @Test func didEnterBackgroundOverrunning5SecondsIsKilled() {
        var h = Fixture.harness()
        h.holds[feed] = [.didEnterBackground]
        h.open(feed)
        h.handle(.home)
        #expect(h.advance(by: 4.9).terminations.isEmpty)
        #expect(h.state(of: feed) == .background)
        let effects = h.advance(by: 0.1)
        #expect(
            effects.terminations.map(\.1) == [
                .watchdog("applicationDidEnterBackground(_:) did not return within 5 s (0x8badf00d)")
            ])
        #expect(effects.records(.terminated).first?.at == Instant(seconds: 5))
        #expect(h.state(of: feed) == .notRunning)
    }

    /// The watchdog at launch (`0x8badf00d`, about 20 s: WWDC20 "Why is my app getting killed?"; the 20 s is ours).
    @Test func didFinishLaunchingBlockingFor20SecondsIsKilledByTheWatchdog() {
        var h = Fixture.harness()
        h.holds[feed] = [.didFinishLaunching]
        h.open(feed)
        #expect(h.advance(by: 19.9).terminations.isEmpty)
        let effects = h.advance(by: 0.1)
        #expect(
            effects.terminations.map(\.1) == [
                .watchdog("application(_:didFinishLaunchingWithOptions:) did not return within 20 s (0x8badf00d)")
            ])
        #expect(h.state(of: feed) == .notRunning)
    }

    /// The watchdog when entering the foreground: `applicationWillEnterForeground` blocking 20 s is killed.
    @Test func willEnterForegroundBlockingFor20SecondsIsKilledByTheWatchdog() {
        var h = Fixture.harness()
        h.holds[feed] = [.willEnterForeground]
        h.open(feed)
        h.handle(.home)
        h.advance(by: 60)
        h.open(feed)
        #expect(h.advance(by: 19.9).terminations.isEmpty)
        let effects = h.advance(by: 0.1)
        #expect(
            effects.terminations.map(\.1) == [
                .watchdog("applicationWillEnterForeground(_:) did not return within 20 s (0x8badf00d)")
            ])
    }

    @Test func didEnterBackgroundReturningWithin5SecondsIsSuspended() {
        var h = Fixture.harness()
        h.holds[feed] = [.didEnterBackground]
        h.open(feed)
        h.handle(.home)
        h.advance(by: 4.9)
        let effects = h.release(feed)
        #expect(effects.actions == [.suspend(feed)])
        #expect(h.advance(by: 60).terminations.isEmpty)
        #expect(h.state(of: feed) == .suspended)
    }

    @Test func backgroundLaunchForTaskSequence() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        h.handle(.home)
        h.handle(.memoryPressure(bytes: 1))
        #expect(h.state(of: feed) == .notRunning)
        h.handle(.lock)
        let effects = h.advance(by: 15 * 60)
        let actions = effects.actions
        #expect(actions.first == .launch(feed, .backgroundTask))
        #expect(effects.callbacks(of: feed) == [.willFinishLaunching, .didFinishLaunching, .didEnterBackground])
        let handed = effects.startedTasks
        #expect(handed.map(\.request.identifier) == [Fixture.processing(feed)])
        let lastCallback = actions.lastIndex { if case .deliver = $0 { true } else { false } }!
        let start = actions.firstIndex { if case .startTask = $0 { true } else { false } }!
        #expect(lastCallback < start, "the task is delivered after didEnterBackground returns")
        #expect(effects.records(.state).map(\.reason) == ["not running → background"])
        #expect(h.state(of: feed) == .background)
        let done = h.complete(Fixture.processing(feed), of: feed)
        #expect(done.actions == [.suspend(feed)])
    }

    /// Resumed, not relaunched: `didEnterBackground`, then the task ("About the background execution sequence").
    @Test func resumedForATaskGetsDidEnterBackgroundBeforeTheTask() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        h.handle(.lock)
        #expect(h.state(of: feed) == .suspended)
        let effects = h.advance(by: 15 * 60)
        let actions = effects.actions
        #expect(actions.first == .resume(feed))
        #expect(!actions.contains { if case .launch = $0 { true } else { false } })
        #expect(effects.callbacks(of: feed) == [.didEnterBackground])
        let callback = actions.firstIndex { if case .deliver = $0 { true } else { false } }!
        let start = actions.firstIndex { if case .startTask = $0 { true } else { false } }!
        #expect(callback < start, "the task is delivered after didEnterBackground returns")
        #expect(effects.startedTasks.map(\.request.identifier) == [Fixture.processing(feed)])
        #expect(h.complete(Fixture.processing(feed), of: feed).actions == [.suspend(feed)])
    }

    @Test func suspendedAppKilledGetsNoCallback() {
        var h = Fixture.harness()
        h.launchAndSuspend(feed)
        let effects = h.handle(.memoryPressure(bytes: 1))
        #expect(effects.callbacks(of: feed).isEmpty)
        #expect(effects.actions == [.terminate(feed, .memoryPressure)])
        #expect(effects.records(.terminated).map(\.reason) == ["suspended → not running: memory pressure (jetsam)"])
    }

    @Test func willTerminateOnlyForRunningBackgroundApps() {
        var h = Fixture.harness([feed, mail, photos])
        h.launchAndSuspend(mail)
        h.open(feed)
        _ = h.call(.beginBackgroundTask(name: "upload"), from: feed)
        h.open(photos)
        #expect(h.state(of: feed) == .background)
        #expect(h.state(of: mail) == .suspended)

        let running = h.handle(.swipeAway(feed))
        #expect(running.callbacks(of: feed) == [.willTerminate])
        #expect(running.terminations.map(\.0) == [feed])
        let suspended = h.handle(.swipeAway(mail))
        #expect(suspended.callbacks(of: mail).isEmpty)
        #expect(suspended.terminations.map(\.0) == [mail])
    }

    @Test func jetsamOfARunningBackgroundAppCallsWillTerminate() {
        var h = Fixture.harness([feed, photos])
        h.open(feed)
        _ = h.call(.beginBackgroundTask(name: "upload"), from: feed)
        h.open(photos)
        let effects = h.handle(.memoryPressure(bytes: 1))
        #expect(effects.callbacks(of: feed) == [.willTerminate])
        #expect(effects.terminations.map(\.1) == [.memoryPressure])
    }

    @Test func willTerminateOverrunning5SecondsEndsTheProcess() {
        var h = Fixture.harness([feed, photos])
        h.holds[feed] = [.willTerminate]
        h.open(feed)
        _ = h.call(.beginBackgroundTask(name: "upload"), from: feed)
        h.open(photos)
        h.handle(.swipeAway(feed))
        #expect(h.state(of: feed) == .background)
        #expect(h.advance(by: 4.9).terminations.isEmpty)
        #expect(h.advance(by: 0.1).terminations.map(\.1) == [.userForceQuit])
        #expect(h.state(of: feed) == .notRunning)
    }

    @Test func suspendedAppsStayAliveUntilMemoryIsNeeded() {
        var h = Fixture.harness()
        h.launchAndSuspend(feed)
        let week = h.advance(by: 7 * 24 * 3600)
        #expect(week.terminations.isEmpty)
        #expect(h.state(of: feed) == .suspended)
    }

    @Test func jetsamKillsSuspendedLRUFirstThenBackgroundNeverForeground() {
        let notes: BundleID = "com.example.notes"
        var h = Fixture.harness([feed, mail, photos, notes])
        h.launchAndSuspend(mail)  // least recently used
        h.advance(by: 1)
        h.launchAndSuspend(feed)
        h.advance(by: 1)
        h.open(photos)
        _ = h.call(.beginBackgroundTask(name: "save"), from: photos)
        h.advance(by: 1)
        h.open(notes)
        #expect(h.state(of: photos) == .background)

        let effects = h.handle(.memoryPressure(bytes: 1_000_000_000))
        #expect(effects.records(.terminated).compactMap(\.app) == [mail, feed, photos])
        #expect(effects.callbacks(of: photos) == [.willTerminate])
        #expect(effects.callbacks(of: mail).isEmpty && effects.callbacks(of: feed).isEmpty)
        #expect(h.state(of: notes) == .active)
        #expect(
            effects.records(.log).map(\.reason) == [
                "memory pressure: freed 150000000 of 1000000000 bytes; the foreground app is never killed"
            ])
    }

    @Test func jetsamStopsOnceEnoughMemoryIsFreed() {
        var h = Fixture.harness([feed, mail])
        h.launchAndSuspend(mail)
        h.advance(by: 1)
        h.launchAndSuspend(feed)
        let effects = h.handle(.memoryPressure(bytes: 50_000_000))
        #expect(effects.terminations.map(\.0) == [mail])
        #expect(h.state(of: feed) == .suspended)
    }

    /// Ours: one app whose footprint alone frees what is needed goes instead of several, least recently used first.
    @Test func jetsamKillsTheOneAppThatFreesEnoughNotASmallerOneBesideIt() {
        var h = Fixture.harness([feed, mail, photos])
        h.launchAndSuspend(mail)  // least recently used, 20 MB
        h.advance(by: 1)
        h.launchAndSuspend(feed)  // 300 MB
        h.advance(by: 1)
        h.launchAndSuspend(photos)  // most recently used, 400 MB
        h.handle(.setMemoryFootprint(mail, bytes: 20_000_000))
        h.handle(.setMemoryFootprint(feed, bytes: 300_000_000))
        h.handle(.setMemoryFootprint(photos, bytes: 400_000_000))
        let effects = h.handle(.memoryPressure(bytes: 250_000_000))
        #expect(effects.terminations.map(\.0) == [feed])
        #expect(h.state(of: mail) == .suspended && h.state(of: photos) == .suspended)
        // When no single app frees enough, the least recently used go first until enough is freed.
        let more = h.handle(.memoryPressure(bytes: 410_000_000))
        #expect(more.terminations.map(\.0) == [mail, photos])
    }

    @Test func jetsamAmongEquallyRecentAppsKillsTheLargestFirst() {
        var h = Fixture.harness([feed, mail])
        h.open(feed)
        h.open(mail)
        h.handle(.home)  // both left the screen at t+0
        h.handle(.setMemoryFootprint(feed, bytes: 10_000_000))
        h.handle(.setMemoryFootprint(mail, bytes: 90_000_000))
        let effects = h.handle(.memoryPressure(bytes: 1))
        #expect(effects.terminations.map(\.0) == [mail])
    }
}
