import Testing

@testable import OffstageCore

/// SPEC §7: legacy background fetch (iOS 7–12): the interval, the `fetch` mode, disabled by
/// `BGTaskSchedulerPermittedIdentifiers`, refresh's gates, 30 s, and slow or failing fetches backing off.
@Suite struct BackgroundFetchTests {
    let app: BundleID = "com.example.legacy"
    let minimum = Policy.iOS.minimumBackgroundFetchInterval

    /// A harness with one legacy app (mode `fetch`, no permitted identifiers) that asked for `interval`
    /// at launch and went home; it is suspended at t = 1 s.
    func harness(
        interval: Double? = 0, modes: Set<BackgroundMode> = [.fetch], permitted: [String] = []
    ) -> CoreHarness {
        // The interval's rules alone: opened once, the app is also little known, which spaces fetches by hours.
        var h = CoreHarness(
            policy: Fixture.knowingEveryApp,
            apps: [AppManifest(bundleIdentifier: app, backgroundModes: modes, permittedIdentifiers: permitted)])
        h.open(app)
        h.call(.setMinimumBackgroundFetchInterval(interval), from: app)
        h.advance(by: 1)
        h.handle(.home)
        return h
    }

    /// The times at which fetches were handed to the app in `effects`.
    func fetchTimes(_ h: CoreHarness, from start: Int = 0) -> [Double] {
        zip(h.log, h.times).dropFirst(start).compactMap { effect, time in
            if case .deliverBackgroundEvent(_, .fetch, _) = effect { time.seconds } else { nil }
        }
    }

    @Test func fetchRunsAfterTheMinimumIntervalInTheBackground() {
        var h = harness()
        #expect(h.state(of: app) == .suspended)
        let effects = h.advance(to: Instant(seconds: minimum))
        #expect(effects.actions.first == .resume(app))
        #expect(effects.backgroundEvents.map(\.event) == [.fetch])
        #expect(fetchTimes(h) == [minimum])
        #expect(
            effects.records(.delivered).map(\.reason) == [
                "application(_:performFetchWithCompletionHandler:): 30 s to call its completion handler"
            ])
        #expect(h.state(of: app) == .suspended)
        h.advance(to: Instant(seconds: 3 * minimum))
        #expect(fetchTimes(h) == [minimum, 2 * minimum, 3 * minimum])
    }

    @Test func intervalShorterThanThePolicyMinimumIsRaisedToIt() {
        var h = harness(interval: 60)
        h.advance(to: Instant(seconds: minimum + 1))
        #expect(fetchTimes(h) == [minimum])
    }

    @Test func longerIntervalIsKept() {
        var h = harness(interval: 3600)
        h.advance(to: Instant(seconds: 3601))
        #expect(fetchTimes(h) == [3600])
    }

    @Test func backgroundFetchIntervalNeverStopsFetches() {
        var h = harness()
        h.open(app)
        h.call(.setMinimumBackgroundFetchInterval(nil), from: app)
        h.handle(.home)
        h.advance(by: 86_400)
        #expect(fetchTimes(h).isEmpty)
        #expect(h.system.backgroundFetches().isEmpty)
    }

    @Test func settingTheSameIntervalAgainKeepsTheSchedule() {
        var h = harness()
        h.advance(to: Instant(seconds: 600))
        h.open(app)
        h.call(.setMinimumBackgroundFetchInterval(0), from: app)
        h.handle(.home)
        h.advance(to: Instant(seconds: minimum))
        #expect(fetchTimes(h) == [minimum])
    }

    @Test func fetchLaunchesAnAppThatIsNotRunningInTheBackground() {
        var h = harness()
        h.handle(.memoryPressure(bytes: 1))
        #expect(h.state(of: app) == .notRunning)
        let effects = h.advance(to: Instant(seconds: minimum))
        #expect(effects.actions.first == .launch(app, .backgroundTask))
        #expect(effects.callbacks(of: app) == [.willFinishLaunching, .didFinishLaunching, .didEnterBackground])
        #expect(effects.backgroundEvents.map(\.event) == [.fetch])
    }

    @Test func fetchNeedsTheFetchMode() {
        var h = harness(modes: [.remoteNotification])
        h.advance(by: 86_400)
        #expect(fetchTimes(h).isEmpty)
        #expect(
            h.log.records(.log).map(\.reason).contains(
                "setMinimumBackgroundFetchInterval(backgroundFetchIntervalMinimum) has no effect: "
                    + "UIBackgroundModes lacks 'fetch'"))
        #expect(h.system.backgroundFetches().first?.blockers.map(\.constraint) == ["fetchUnavailable"])
    }

    @Test func fetchIsDisabledByBGTaskSchedulerPermittedIdentifiers() {
        var h = harness(permitted: ["com.example.legacy.refresh"])
        h.advance(by: 86_400)
        #expect(fetchTimes(h).isEmpty)
        let why = "the Info.plist has BGTaskSchedulerPermittedIdentifiers, which disables legacy background fetch"
        #expect(
            h.log.records(.log).map(\.reason).contains(
                "setMinimumBackgroundFetchInterval(backgroundFetchIntervalMinimum) has no effect: \(why)"))
        #expect(h.system.backgroundFetches().first?.blockers.map(\.reason) == [why])
    }

    @Test func fetchWaitsForBackgroundAppRefreshAndLowPowerMode() {
        var h = harness()
        h.handle(.setBackgroundAppRefresh(false))
        h.handle(.setLowPowerMode(true))
        h.advance(to: Instant(seconds: minimum + 60))
        #expect(fetchTimes(h).isEmpty)
        #expect(
            h.system.backgroundFetches().first?.blockers.map(\.constraint) == ["backgroundAppRefresh", "lowPowerMode"])
        h.handle(.setBackgroundAppRefresh(true))
        #expect(fetchTimes(h).isEmpty)
        h.handle(.setLowPowerMode(false))
        #expect(fetchTimes(h) == [minimum + 60])
    }

    @Test func fetchWaitsAfterAForceQuitUntilTheUserOpensTheApp() {
        var h = harness()
        h.open(app)
        h.handle(.swipeAway(app))
        h.advance(to: Instant(seconds: 2 * minimum))
        #expect(fetchTimes(h).isEmpty)
        #expect(h.system.backgroundFetches().first?.blockers.map(\.constraint) == ["forceQuit"])
    }

    @Test func fetchWaitsWhileTheAppIsOnScreen() {
        var h = harness()
        h.advance(to: Instant(seconds: minimum - 10))
        h.open(app)
        h.advance(to: Instant(seconds: minimum + 60))
        #expect(fetchTimes(h).isEmpty)
        h.handle(.home)
        #expect(fetchTimes(h) == [minimum + 60])
    }

    @Test func fetchCompletionHandlerNotCalledWithin30SecondsKillsTheApp() {
        var h = harness()
        h.backgroundEventAnswer = nil
        h.advance(to: Instant(seconds: minimum))
        let effects = h.advance(by: 30)
        let method = "application(_:performFetchWithCompletionHandler:)"
        #expect(
            effects.terminations.map(\.1) == [.watchdog("\(method) did not call its completion handler within 30 s")])
        #expect(h.system.backgroundFetches().first?.backoff == 2)
    }

    @Test func failedFetchDoublesTheInterval() {
        var h = harness()
        h.backgroundEventAnswer = .failed
        h.advance(to: Instant(seconds: 4 * minimum))
        #expect(fetchTimes(h) == [minimum, 3 * minimum])
        #expect(
            h.log.records(.log).map(\.reason).contains(
                "fetch interval ×2 (was ×1): the fetch failed; next fetch in 1800.0 s"))
    }

    @Test func slowFetchDoublesTheInterval() {
        var h = harness()
        h.backgroundEventAnswer = nil
        h.advance(to: Instant(seconds: minimum))
        h.advance(by: 12)
        let effects = h.finishEvent(of: app, .newData)
        #expect(
            effects.records(.log).first?.reason
                == "fetch interval ×2 (was ×1): the fetch took 12.0 s (slow: over 10.0 s); next fetch in 1800.0 s")
        #expect(h.system.backgroundFetches().first?.effectiveInterval == 2 * minimum)
    }

    @Test func fetchWithNewDataRestoresTheInterval() {
        var h = harness()
        h.backgroundEventAnswer = .failed
        h.advance(to: Instant(seconds: minimum))
        #expect(h.system.backgroundFetches().first?.backoff == 2)
        h.backgroundEventAnswer = .newData
        h.advance(to: Instant(seconds: 3 * minimum))
        #expect(h.system.backgroundFetches().first?.backoff == 1)
        h.advance(to: Instant(seconds: 4 * minimum))
        #expect(fetchTimes(h) == [minimum, 3 * minimum, 4 * minimum])
    }

    @Test func noDataKeepsTheInterval() {
        var h = harness()
        h.backgroundEventAnswer = .failed
        h.advance(to: Instant(seconds: minimum))
        h.backgroundEventAnswer = .noData
        h.advance(to: Instant(seconds: 3 * minimum))
        #expect(h.system.backgroundFetches().first?.backoff == 2)
    }

    @Test func backoffStopsAtTheLimit() {
        var h = harness()
        h.backgroundEventAnswer = .failed
        h.advance(by: 40 * 86_400)
        let status = h.system.backgroundFetches().first
        #expect(status?.backoff == 16)
        #expect(status?.effectiveInterval == 16 * minimum)
        let times = fetchTimes(h)
        #expect(times.count >= 3)
        // The app is long unused by then: its usage tier's quota, which fetches count in, may space them further.
        #expect(times.suffix(2).reduce(0) { $1 - $0 } >= 16 * minimum)
    }

    @Test func backgroundFetchesExplainTheNextFetch() {
        var h = harness()
        let status = h.system.backgroundFetches().first
        #expect(status?.requestedInterval == 0)
        #expect(status?.blockers.map(\.constraint) == ["fetchInterval"])
        #expect(status?.blockers.first?.until == Instant(seconds: minimum))
        #expect(h.log.records(.deferred).last?.task == "background-fetch")
        h.backgroundEventAnswer = nil
        h.advance(to: Instant(seconds: minimum))
        #expect(h.system.backgroundFetches().first?.inProgress == true)
    }
}
