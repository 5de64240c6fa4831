import OffstageCore
import Testing

/// What a restarted host puts back (the daemon after a crash): settings, pending requests, and what the
/// system remembers (usage, cooperation, budgets, the energy ledger).
@Suite struct PersistenceTests {
    static let app = BundleID("com.example.app")

    static func installed() -> BackgroundSystem {
        var system = BackgroundSystem()
        let manifest = AppManifest(
            bundleIdentifier: app, backgroundModes: [.fetch, .processing],
            permittedIdentifiers: ["com.example.app.refresh", "com.example.app.export.*"])
        _ = system.install(manifest, at: .zero)
        return system
    }

    @Test func restoredPendingRequestWaitsForItsConstraintsAsBefore() {
        var system = Self.installed()
        let later = TaskRequest(identifier: "com.example.app.refresh", kind: .appRefresh, earliestBeginDate: 3600)
        let effects = system.restorePending([later], for: Self.app, at: Instant(seconds: 10))
        #expect(system.pendingRequests(of: Self.app) == [later])
        #expect(effects.records.contains { $0.kind == .submitted && $0.reason.contains("restored") })
        #expect(system.nextDueTime == Instant(seconds: 3600))
        #expect(!effects.contains { if case .launch = $0 { true } else { false } })
    }

    @Test func restoredEligibleRequestLaunchesTheAppInTheBackground() {
        var system = Self.installed()
        // Used a moment ago (its usage tier lets it refresh), and no longer running.
        _ = system.handle(.open(Self.app), at: .zero)
        _ = system.handle(.home, at: Instant(seconds: 1))
        _ = system.handle(.processExited(Self.app, reason: "the host restarted"), at: Instant(seconds: 2))
        let now = TaskRequest(identifier: "com.example.app.refresh", kind: .appRefresh)
        let effects = system.restorePending([now, now], for: Self.app, at: Instant(seconds: 10))
        #expect(effects.contains(.launch(Self.app, .backgroundTask)))
        #expect(system.runningTasks.count == 1)
    }

    @Test func continuedProcessingRequestsAreNotRestored() {
        var system = Self.installed()
        let export = TaskRequest(identifier: "com.example.app.export.1", kind: .continuedProcessing)
        _ = system.restorePending([export], for: Self.app, at: .zero)
        #expect(system.pendingRequests(of: Self.app).isEmpty)
    }

    @Test func restoredSettingsApplyWithoutARecord() {
        var system = Self.installed()
        var settings = UserSettings()
        settings.lowPowerMode = true
        system.restoreSettings(settings)
        #expect(system.settings.lowPowerMode)
        #expect(system.backgroundRefreshStatus(for: Self.app) == .denied)
    }

    // MARK: What the system remembers

    /// A system where the feed was used twice, ran a refresh, ignored an expiration (cooperation 80 %) and
    /// used energy; then the snapshot, taken at the end.
    static func remembered() -> (CoreHarness, SystemSnapshot) {
        let feed = Fixture.feed
        var h = Fixture.harness()
        h.open(feed)
        h.handle(.home)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        h.complete(Fixture.refresh(feed), of: feed)
        h.completeOnExpiration = false
        h.handle(.open(feed))
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.home)
        h.advance(by: 40)
        h.handle(.resourceUsage(feed, ResourceUsage(cpuSeconds: 3, cellularBytes: 1_000_000, interval: 10)))
        return (h, h.system.snapshot())
    }

    @Test func snapshotRestoresUsageCooperationBudgetsAndEnergy() {
        let (h, snapshot) = Self.remembered()
        let feed = Fixture.feed
        #expect(snapshot.apps[feed]?.cooperation == 0.8)
        #expect(snapshot.apps[feed]?.launches.count == 2)
        #expect(snapshot.apps[feed]?.runStarts.count == 2)
        #expect(snapshot.energy.totalJoules > 0)
        #expect(snapshot.energyBudgetBalance == h.system.energyBudget.balance(at: h.now))

        // A new system (a restarted host) at the same instant, with the app installed again.
        var restarted = BackgroundSystem()
        _ = restarted.install(Fixture.manifest(feed), at: snapshot.takenAt)
        restarted.restore(snapshot)
        #expect(restarted.snapshot() == snapshot)
        #expect(restarted.usage(of: feed)?.cooperation.score == 0.8)
        #expect(restarted.usageTier(of: feed) == h.system.usageTier(of: feed))
        #expect(restarted.energy == h.system.energy)
    }

    @Test func appOnScreenAtTheSnapshotCountsAsHavingLeftIt() {
        var h = Fixture.harness()
        h.open(Fixture.feed)
        h.advance(by: 100)
        let history = h.system.snapshot().apps[Fixture.feed]
        #expect(history?.foregroundSeconds == 100)
        #expect(history?.lastUsed == h.now)
    }

    @Test func budgetsRefillFromTheirRestoredBalances() {
        let (h, snapshot) = Self.remembered()
        var restarted = BackgroundSystem()
        let later = snapshot.takenAt + 600
        _ = restarted.install(Fixture.manifest(Fixture.feed), at: later)
        restarted.restore(snapshot)
        let perSecond = h.system.policy.judgement.energyBudgetPerDay / 86_400
        let expected = min(
            h.system.policy.judgement.energyBudgetCapacity, snapshot.energyBudgetBalance + 600 * perSecond)
        #expect(abs(restarted.energyBudget.balance(at: later) - expected) < 1e-6)
    }

    @Test func timeTheHostWasDownIsNotCharged() {
        let (_, snapshot) = Self.remembered()
        var restarted = BackgroundSystem()
        _ = restarted.install(Fixture.manifest(Fixture.feed), at: snapshot.takenAt + 86_400)
        restarted.restore(snapshot)
        #expect(restarted.energy == snapshot.energy)
        _ = restarted.handle(.tick, at: snapshot.takenAt + 86_400 + 10)
        let power = restarted.policy.power
        let tenSeconds = (power.baselineWatts + power.screenWatts) * 10  // the screen is on
        #expect(abs(restarted.energy.totalJoules - snapshot.energy.totalJoules - tenSeconds) < 1e-6)
    }

    @Test func historyOfAnAppNoLongerInstalledIsNotRestored() {
        let (_, snapshot) = Self.remembered()
        var restarted = BackgroundSystem()
        _ = restarted.install(Fixture.manifest(Fixture.mail), at: snapshot.takenAt)
        restarted.restore(snapshot)
        #expect(restarted.snapshot().apps[Fixture.feed] == nil)
        #expect(restarted.usage(of: Fixture.mail)?.cooperation.score == 1)
    }
}
