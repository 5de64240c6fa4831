import Foundation
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
        #expect(system.app(Self.app).pendingRequests == [later])
        #expect(
            effects.records.contains {
                if case .submitted(_, .restored) = $0.detail { $0.kind == .submitted } else { false }
            })
        // Its app was never opened (tier never), so only the user opening it can start it: no review at its date.
        let blockers = system.explain().first { $0.request == later }?.blockers.map(\.constraint) ?? []
        #expect(blockers.starts(with: ["earliestBeginDate"]) && blockers.contains("usageTier"))
        #expect(system.nextDueTime == nil)
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
        #expect(system.app(Self.app).pendingRequests.isEmpty)
    }

    @Test func restoredSettingsApplyWithoutARecord() {
        var system = Self.installed()
        var settings = UserSettings()
        settings.lowPowerMode = true
        system.restoreSettings(settings)
        #expect(system.settings.lowPowerMode)
        #expect(system.settings.backgroundRefreshStatus(for: Self.app) == .denied)
    }

    // MARK: What the system remembers

    /// A system where the feed was used twice, ran a refresh, ignored an expiration (cooperation 80 %) and
    /// used energy; then the snapshot, taken at the end.
    static func remembered() -> (CoreHarness, SystemSnapshot) {
        let feed = Fixture.feed
        var h = Fixture.harness(policy: Fixture.unspaced)
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
        return (h, SystemSnapshot(of: h.system))
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
        #expect(SystemSnapshot(of: restarted) == snapshot)
        #expect(restarted.app(feed).cooperation.score == 0.8)
        #expect(restarted.app(feed).usageTier == h.system.app(feed).usageTier)
        #expect(restarted.energy == h.system.energy)
        // What a refresh run uses, as measured: restarted, refresh runs reserve from it, not from the policy's most.
        #expect(snapshot.refreshEnergyUse != nil)
        #expect(restarted.refreshEnergyUse == h.system.refreshEnergyUse)
    }

    @Test func appOnScreenAtTheSnapshotCountsAsHavingLeftIt() {
        var h = Fixture.harness()
        h.open(Fixture.feed)
        h.advance(by: 100)
        let history = SystemSnapshot(of: h.system).apps[Fixture.feed]
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
        #expect(SystemSnapshot(of: restarted).apps[Fixture.feed] == nil)
        #expect(restarted.app(Fixture.mail).cooperation.score == 1)
    }
}

/// What §7 holds and the user's swipe, across a restart of the host (the daemon after `kill -9`): the snapshot
/// carries the held push, the push wake-ups of the rate window, the legacy fetch schedule and backoff, location
/// monitoring and force-quit; a snapshot stored before these existed still loads, with empty defaults.
@Suite struct RestartMemoryTests {
    let feed = Fixture.feed

    /// The payloads of the pushes handed to apps in `effects`.
    func pushes(_ effects: [Effect]) -> [String] {
        effects.backgroundEvents.compactMap { entry in
            if case .remoteNotification(let payload) = entry.event { payload } else { nil }
        }
    }

    func pushHarness(device: DeviceState = DeviceState()) -> CoreHarness {
        CoreHarness(device: device, apps: [Fixture.manifest(feed, modes: [.fetch, .processing, .remoteNotification])])
    }

    @Test func heldPushSurvivesARestartAndIsDeliveredWhenItsConditionLifts() {
        var device = DeviceState()
        device.batteryLevel = 0.05
        var h = pushHarness(device: device)
        #expect(pushes(h.handle(.backgroundPush(feed, payload: "held"))).isEmpty)
        h.advance(by: 60)
        h.restart()
        #expect(h.system.heldPushes().map(\.payload) == ["held"])
        #expect(h.system.heldPushes().first?.arrivedAt == .zero)
        #expect(h.system.heldPushes().first?.blockers.map(\.constraint) == ["criticalBattery"])
        #expect(pushes(h.handle(.setBattery(level: 0.05, charging: true))) == ["held"])
    }

    @Test func pushRateWindowSurvivesARestart() {
        var h = pushHarness()
        h.launchAndSuspend(feed)
        for (index, payload) in ["a", "b", "c", "d"].enumerated() {
            h.advance(to: Instant(seconds: Double(index) * 60 + 10))
            h.handle(.backgroundPush(feed, payload: payload))
        }
        h.restart()
        let held = h.system.heldPushes()
        #expect(held.map(\.payload) == ["d"])
        #expect(held.first?.blockers.first?.until == Instant(seconds: 3610))
        #expect(pushes(h.advance(to: Instant(seconds: 3609.9))).isEmpty)
        #expect(pushes(h.advance(to: Instant(seconds: 3610))) == ["d"])
    }

    @Test func fetchScheduleAndBackoffSurviveARestart() {
        let app: BundleID = "com.example.legacy"
        var h = CoreHarness(apps: [AppManifest(bundleIdentifier: app, backgroundModes: [.fetch])])
        h.open(app)
        h.call(.setMinimumBackgroundFetchInterval(0), from: app)
        h.handle(.home)
        h.backgroundEventAnswer = .failed
        h.advance(to: Instant(seconds: Policy.iOS.minimumBackgroundFetchInterval))
        let before = h.system.backgroundFetches()
        #expect(before.first?.backoff == 2)
        h.restart()
        #expect(h.system.backgroundFetches() == before)
    }

    @Test func forceQuitAndLocationMonitoringSurviveARestart() {
        var h = CoreHarness(apps: [Fixture.manifest(feed, modes: [.fetch, .location])])
        h.open(feed)
        h.call(.setSignificantLocationMonitoring(true), from: feed)
        h.call(.setRegionMonitoring(identifier: "home", true), from: feed)
        h.handle(.swipeAway(feed))
        let snapshot = SystemSnapshot(of: h.system)
        #expect(snapshot.apps[feed]?.forceQuit == true)
        #expect(snapshot.apps[feed]?.backgroundWork.significantLocationChanges == true)
        #expect(snapshot.apps[feed]?.backgroundWork.monitoredRegions == ["home"])
        h.restart()
        #expect(h.system.app(feed).isForceQuit)
        #expect(SystemSnapshot(of: h.system).apps[feed] == snapshot.apps[feed])
    }

    @Test func snapshotStoredBeforeTheseFieldsLoadsWithEmptyDefaults() throws {
        let (_, snapshot) = PersistenceTests.remembered()
        var json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(snapshot)) as? [String: Any])
        json["nextToken"] = nil
        json["nextTaskID"] = nil
        // Apps are encoded as [bundle, history, bundle, history…] (a dictionary with non-String keys).
        let apps = try #require(json["apps"] as? [Any])
        json["apps"] = apps.map { entry in
            guard var history = entry as? [String: Any] else { return entry }
            history["forceQuit"] = nil
            history["backgroundWork"] = nil
            return history
        }
        let old = try JSONDecoder().decode(SystemSnapshot.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(old.nextToken == 1)
        #expect(old.nextTaskID == 1)
        #expect(old.apps[feed]?.forceQuit == false)
        #expect(old.apps[feed]?.backgroundWork == BackgroundWorkMemory())
        #expect(old.apps[feed]?.cooperation == snapshot.apps[feed]?.cooperation)
    }
}
