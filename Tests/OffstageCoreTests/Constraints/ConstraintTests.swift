import Testing

@testable import OffstageCore

/// SPEC §5: every constraint of `StandardConstraints.swift`, what it blocks, what interrupts a running
/// task, and `explain()`.
@Suite struct ConstraintTests {
    let feed = Fixture.feed
    let mail = Fixture.mail

    /// The feed app submits `request` on screen; `blocking` events follow; then the app leaves the screen.
    func waiting(_ request: TaskRequest, blockedBy blocking: [SystemEvent], device: DeviceState = DeviceState())
        -> CoreHarness
    {
        var h = Fixture.harness(policy: Fixture.unspaced, device: device)
        h.open(feed)
        h.submit(request, from: feed)
        for event in blocking { h.handle(event) }
        h.handle(.home)
        return h
    }

    /// The names of the constraints blocking the feed app's first pending request.
    func blockers(_ h: CoreHarness) -> [String] {
        h.system.explain().first { $0.app == feed && $0.phase == .pending }?.blockers.map(\.constraint) ?? []
    }

    /// The reasons of the records about `identifier` of this kind.
    func reasons(_ h: CoreHarness, _ kind: RecordKind, _ identifier: String) -> [String] {
        h.log.records(kind).filter { $0.task == identifier }.map(\.reason)
    }

    @Test func earliestBeginDateDefersUntilTheDate() {
        var h = waiting(Fixture.refreshRequest(feed, earliestBeginDate: 3600), blockedBy: [])
        let blocker = h.system.explain().first?.blockers.first
        #expect(
            blocker
                == Blocker(
                    constraint: "earliestBeginDate", reason: "earliest begin date not reached",
                    until: Instant(seconds: 3600)))
        #expect(h.system.nextDueTime == Instant(seconds: 3600))
        #expect(h.advance(to: Instant(seconds: 3599.9)).startedTasks.isEmpty)
        let effects = h.advance(to: Instant(seconds: 3600))
        #expect(effects.startedTasks.map(\.request.identifier) == [Fixture.refresh(feed)])
    }

    @Test func startedRecordsCarryTheKindOfTaskTheyStart() {
        var h = waiting(Fixture.refreshRequest(feed, earliestBeginDate: 60), blockedBy: [])
        let started = h.advance(to: Instant(seconds: 60)).records(.started)
        #expect(started.map(\.taskKind) == [.appRefresh])
        #expect(h.records.filter { $0.kind != .started }.allSatisfy { $0.taskKind == nil })
    }

    @Test func deviceChangesLeaveAppsWaitingOnTheirOwnStateUnreviewed() {
        var h = waiting(Fixture.refreshRequest(feed, earliestBeginDate: 3600), blockedBy: [.setLowPowerMode(true)])
        let deferred = reasons(h, .deferred, Fixture.refresh(feed)).count
        #expect(blockers(h) == ["earliestBeginDate", "lowPowerMode"])
        // Low Power Mode ends: the request still waits for its date, so the app is not reviewed.
        #expect(h.handle(.setLowPowerMode(false)).startedTasks.isEmpty)
        #expect(reasons(h, .deferred, Fixture.refresh(feed)).count == deferred)
        #expect(h.system.nextDueTime == Instant(seconds: 3600))
        #expect(h.advance(to: Instant(seconds: 3600)).startedTasks.map(\.request.identifier) == [Fixture.refresh(feed)])
    }

    @Test func earliestBeginDateFollowsTheWallClock() {
        var h = waiting(Fixture.refreshRequest(feed, earliestBeginDate: 3600), blockedBy: [])
        let effects = h.handle(.setWallClock(WallClock(epochAtZero: 3600)))
        #expect(effects.startedTasks.map(\.request.identifier) == [Fixture.refresh(feed)])
    }

    @Test func backgroundAppRefreshOffBlocksRefreshAndProcessing() {
        var h = Fixture.harness(policy: Fixture.unspaced)
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        h.handle(.setBackgroundAppRefresh(false))
        h.handle(.home)
        h.lockUntilIdle()
        #expect(h.log.startedTasks.isEmpty)
        #expect(h.system.explain().allSatisfy { $0.blockers.map(\.constraint) == ["backgroundAppRefresh"] })
        #expect(
            reasons(h, .deferred, Fixture.refresh(feed)).last == "backgroundAppRefresh: Background App Refresh is off")
        let effects = h.handle(.setBackgroundAppRefresh(true))
        #expect(
            Set(effects.startedTasks.map(\.request.identifier)) == [Fixture.refresh(feed), Fixture.processing(feed)])
    }

    @Test func appBackgroundAppRefreshOffBlocksOnlyThatApp() {
        var h = Fixture.harness([feed, mail])
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.setAppBackgroundAppRefresh(feed, false))
        h.open(mail)
        h.submit(Fixture.refreshRequest(mail), from: mail)
        h.handle(.home)
        #expect(h.log.startedTasks.map(\.app) == [mail])
        #expect(blockers(h) == ["backgroundAppRefresh"])
        #expect(
            reasons(h, .deferred, Fixture.refresh(feed)).last
                == "backgroundAppRefresh: Background App Refresh is off for this app")
    }

    @Test func restrictedBackgroundAppRefreshBlocks() {
        let h = waiting(Fixture.refreshRequest(feed), blockedBy: [.setBackgroundAppRefreshRestricted(true)])
        #expect(h.log.startedTasks.isEmpty)
        #expect(
            reasons(h, .deferred, Fixture.refresh(feed)).last
                == "backgroundAppRefresh: Background App Refresh is restricted")
    }

    /// Plugging in does not lift Low Power Mode (Offstage started a held refresh at 39 % on the charger).
    @Test func lowPowerModeBlocksWhileChargingUntilIOSTurnsItOffAt80Percent() {
        var h = waiting(Fixture.refreshRequest(feed), blockedBy: [.setLowPowerMode(true)])
        #expect(blockers(h) == ["lowPowerMode"])
        #expect(reasons(h, .deferred, Fixture.refresh(feed)).last == "lowPowerMode: Low Power Mode is on")
        #expect(h.handle(.setBattery(level: 0.39, charging: true)).startedTasks.isEmpty)
        #expect(blockers(h) == ["lowPowerMode"])
        let effects = h.handle(.setBattery(level: 0.80, charging: true))
        #expect(effects.startedTasks.map(\.request.identifier) == [Fixture.refresh(feed)])
    }

    /// With a simulated battery the charger's 80 % comes with no event of its own: the system wakes for it (a
    /// held refresh waited past the end of a scenario before, Low Power Mode never turning off).
    @Test func lowPowerModeTurnsOffWhenTheChargingBatteryReaches80PercentWithNoOtherEvent() throws {
        var device = DeviceState()
        device.simulatesBattery = true
        device.batteryLevel = 0.39
        var h = waiting(Fixture.refreshRequest(feed), blockedBy: [.setLowPowerMode(true)], device: device)
        h.handle(.setCharging(true))
        let pluggedAt = h.now
        let charging = try #require(h.system.device.battery.secondsOfCharging(from: 0.39, to: 0.80))
        #expect(try #require(h.system.nextDueTime) == pluggedAt + charging)  // the earliest, as if nothing drew
        h.advance(by: 3 * 3600)
        let off = try #require(
            h.log.records(.setting).first {
                $0.reason == "Low Power Mode off: the charging battery reached 80%"
            })
        #expect(off.at - pluggedAt >= charging && off.at - pluggedAt < charging * 1.2)  // the screen draws meanwhile
        #expect(!h.system.settings.lowPowerMode)
        #expect(h.log.startedTasks.map(\.request.identifier) == [Fixture.refresh(feed)])
        #expect(h.log.records(.started).first?.at == off.at)
    }

    @Test func criticalBatteryBlocksBelow20PercentUnlessCharging() {
        var h = waiting(Fixture.refreshRequest(feed), blockedBy: [.setBattery(level: 0.19, charging: false)])
        #expect(blockers(h) == ["criticalBattery"])
        #expect(
            reasons(h, .deferred, Fixture.refresh(feed)).last
                == "criticalBattery: battery at 19% (below 20%) and not charging")
        #expect(h.handle(.setBattery(level: 0.19, charging: true)).startedTasks.count == 1)
    }

    @Test func batteryAt20PercentIsNotCritical() {
        let h = waiting(Fixture.refreshRequest(feed), blockedBy: [.setBattery(level: 0.20, charging: false)])
        #expect(h.log.startedTasks.count == 1)
    }

    @Test(arguments: [ThermalState.serious, .critical])
    func seriousOrCriticalThermalStateDefersDiscretionaryWork(state: ThermalState) {
        var h = waiting(Fixture.refreshRequest(feed), blockedBy: [.setThermalState(state)])
        #expect(blockers(h) == ["thermalState"])
        #expect(reasons(h, .deferred, Fixture.refresh(feed)).last == "thermalState: thermal state is \(state.rawValue)")
        #expect(h.handle(.setThermalState(.fair)).startedTasks.count == 1)
    }

    @Test func criticalThermalExpiresRunningWork() throws {
        var h = waiting(Fixture.refreshRequest(feed), blockedBy: [])
        let run = try #require(h.task(Fixture.refresh(feed), of: feed))
        #expect(h.handle(.setThermalState(.serious)).actions.isEmpty, "serious defers but does not expire")
        let effects = h.handle(.setThermalState(.critical))
        #expect(effects.actions.first == .expireTask(feed, taskID: run.id))
        #expect(reasons(h, .expired, Fixture.refresh(feed)) == ["thermal state is critical"])
    }

    @Test func networkRequiredWaitsForAConnection() {
        var h = waiting(Fixture.processingRequest(feed, network: true), blockedBy: [.setNetwork(.none)])
        h.lockUntilIdle()
        #expect(blockers(h) == ["network"])
        #expect(reasons(h, .deferred, Fixture.processing(feed)).last == "network: no network connection")
        #expect(h.handle(.setNetwork(.cellular)).startedTasks.count == 1)
    }

    @Test func lowDataModeDefersNetworkTasksOnly() {
        var h = Fixture.harness(policy: Fixture.unspaced)
        h.open(feed)
        h.submit(Fixture.processingRequest(feed, 1, network: true), from: feed)
        h.submit(Fixture.processingRequest(feed, 2), from: feed)
        h.handle(.setLowDataMode(true))
        h.lockUntilIdle()
        #expect(h.log.startedTasks.map(\.request.identifier) == [Fixture.processing(feed, 2)])
        #expect(blockers(h) == ["network"])
        #expect(reasons(h, .deferred, Fixture.processing(feed, 1)).last == "network: Low Data Mode is on")
    }

    @Test func losingTheNetworkExpiresANetworkTask() throws {
        var h = waiting(Fixture.processingRequest(feed, network: true), blockedBy: [])
        h.lockUntilIdle()
        let run = try #require(h.task(Fixture.processing(feed), of: feed))
        #expect(h.handle(.setNetwork(.none)).actions.first == .expireTask(feed, taskID: run.id))
        #expect(reasons(h, .expired, Fixture.processing(feed)) == ["the network connection was lost"])
    }

    @Test func externalPowerRequiredWaitsForTheCharger() {
        var h = waiting(Fixture.processingRequest(feed, power: true), blockedBy: [])
        h.lockUntilIdle()
        #expect(blockers(h) == ["externalPower"])
        #expect(reasons(h, .deferred, Fixture.processing(feed)).last == "externalPower: not on external power")
        #expect(h.handle(.setBattery(level: 0.5, charging: true)).startedTasks.count == 1)
    }

    @Test func unpluggingExpiresAPoweredTask() throws {
        var h = waiting(
            Fixture.processingRequest(feed, power: true), blockedBy: [.setBattery(level: 0.5, charging: true)])
        h.lockUntilIdle()
        let run = try #require(h.task(Fixture.processing(feed), of: feed))
        #expect(h.handle(.setBattery(level: 0.5, charging: false)).actions.first == .expireTask(feed, taskID: run.id))
        #expect(reasons(h, .expired, Fixture.processing(feed)) == ["the device was unplugged"])
    }

    @Test func theDeviceStartsInUseNotIdle() {
        var h = waiting(Fixture.processingRequest(feed), blockedBy: [])
        h.advance(by: 3600)
        #expect(h.log.startedTasks.isEmpty)
        #expect(
            h.system.explain().first?.blockers == [
                Blocker(constraint: "deviceIdle", reason: "the device is in use", until: nil)
            ])
    }

    @Test func processingWaitsFor15MinutesOfIdle() {
        var h = waiting(Fixture.processingRequest(feed), blockedBy: [])
        h.advance(by: 60)
        h.handle(.lock)
        let lockedAt = h.now
        #expect(
            h.system.explain().first?.blockers.first
                == Blocker(
                    constraint: "deviceIdle", reason: "the device has not been idle for 15 min", until: lockedAt + 900))
        #expect(h.advance(by: 899.9).startedTasks.isEmpty)
        // Idle from lockedAt + 900; the device sleeps, so the task starts at the next maintenance wake.
        let wake = Instant(seconds: 1800)
        #expect(h.advance(to: wake + (-0.1)).startedTasks.isEmpty)
        let effects = h.advance(to: wake)
        #expect(effects.startedTasks.map(\.request.identifier) == [Fixture.processing(feed)])
        #expect(effects.records(.started).first?.at == wake)
    }

    @Test func processingExpiresWhenUserUnlocks() throws {
        var h = waiting(Fixture.processingRequest(feed), blockedBy: [])
        h.lockUntilIdle()
        let run = try #require(h.task(Fixture.processing(feed), of: feed))
        let effects = h.handle(.unlock)
        #expect(effects.actions.contains(.expireTask(feed, taskID: run.id)))
        #expect(reasons(h, .expired, Fixture.processing(feed)) == ["the user started using the device"])
    }

    @Test func refreshDoesNotNeedAnIdleDevice() {
        let h = waiting(Fixture.refreshRequest(feed), blockedBy: [])
        #expect(h.log.startedTasks.map(\.request.identifier) == [Fixture.refresh(feed)])
    }

    @Test func refreshWaitsWhileTheAppIsInTheForeground() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        #expect(blockers(h) == ["foreground"])
        #expect(reasons(h, .deferred, Fixture.refresh(feed)) == ["foreground: the app is in the foreground"])
        #expect(h.handle(.home).startedTasks.count == 1)
    }

    @Test func refreshDoesNotStartForAnAppTheUserIsOpening() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.openSwitcher)
        h.handle(.swipeAway(feed))
        #expect(blockers(h) == ["forceQuit"])
        let effects = h.handle(.open(feed))  // lifts forceQuit while the app comes on screen
        #expect(effects.startedTasks.isEmpty)
        #expect(effects.records(.started).isEmpty)
        #expect(blockers(h) == ["foreground"])
    }

    @Test func forceQuitBlocksRefreshButNotProcessing() {
        var policy = Fixture.unspaced
        policy.judgement.energyBudgetCapacity = 500  // the processing run does not drain the budget
        var h = Fixture.harness(policy: policy)
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        h.handle(.openSwitcher)
        h.handle(.swipeAway(feed))
        h.lockUntilIdle()
        #expect(h.log.startedTasks.map(\.request.identifier) == [Fixture.processing(feed)])
        #expect(blockers(h) == ["forceQuit"])
        #expect(
            reasons(h, .deferred, Fixture.refresh(feed)).last
                == "forceQuit: the user swiped the app away; waits until they open it")
    }

    @Test func aTaskDoesNotStartWhileOneWithItsIdentifierRuns() throws {
        var h = waiting(Fixture.refreshRequest(feed), blockedBy: [])
        _ = try #require(h.task(Fixture.refresh(feed), of: feed))
        h.submit(Fixture.refreshRequest(feed), from: feed)
        #expect(blockers(h) == ["alreadyRunning"])
        #expect(
            reasons(h, .deferred, Fixture.refresh(feed)).last
                == "alreadyRunning: a task with this identifier is running")
    }

    @Test func continuedProcessingIgnoresTheSchedulersConstraints() {
        var h = Fixture.harness()
        h.open(feed)
        for event: SystemEvent in [
            .setLowPowerMode(true), .setThermalState(.critical), .setBattery(level: 0.05, charging: false),
            .setNetwork(.none), .setBackgroundAppRefresh(false),
        ] { h.handle(event) }
        let identifier = Fixture.continued(feed, "A")
        h.call(.register(identifier: identifier), from: feed)
        #expect(h.submit(Fixture.continuedRequest(feed, "A"), from: feed) == .ok)
        #expect(h.task(identifier, of: feed) != nil)
    }

    @Test func explainListsEveryBlockerWithUntil() {
        var h = Fixture.harness()
        h.open(feed)
        let processing = TaskRequest(
            identifier: Fixture.processing(feed), kind: .processing, earliestBeginDate: 7200,
            requiresNetworkConnectivity: true, requiresExternalPower: true)
        h.submit(processing, from: feed)
        h.submit(Fixture.refreshRequest(feed, earliestBeginDate: 3600), from: feed)
        for event: SystemEvent in [
            .setBackgroundAppRefresh(false), .setLowPowerMode(true), .setBattery(level: 0.1, charging: false),
            .setThermalState(.serious), .setNetwork(.none),
        ] { h.handle(event) }
        h.handle(.openSwitcher)
        h.handle(.swipeAway(feed))
        h.handle(.lock)
        let lockedAt = h.now
        let statuses = h.system.explain()
        #expect(statuses.map(\.request.identifier) == [Fixture.processing(feed), Fixture.refresh(feed)])
        #expect(statuses.allSatisfy { $0.phase == .pending })
        #expect(
            statuses[0].blockers == [
                Blocker(
                    constraint: "earliestBeginDate", reason: "earliest begin date not reached",
                    until: Instant(seconds: 7200)),
                Blocker(constraint: "backgroundAppRefresh", reason: "Background App Refresh is off", until: nil),
                Blocker(constraint: "lowPowerMode", reason: "Low Power Mode is on", until: nil),
                Blocker(
                    constraint: "criticalBattery", reason: "battery at 10% (below 20%) and not charging", until: nil),
                Blocker(constraint: "thermalState", reason: "thermal state is serious", until: nil),
                Blocker(constraint: "network", reason: "no network connection", until: nil),
                Blocker(constraint: "externalPower", reason: "not on external power", until: nil),
                Blocker(
                    constraint: "deviceIdle", reason: "the device has not been idle for 15 min", until: lockedAt + 900),
            ])
        #expect(
            statuses[1].blockers.map(\.constraint) == [
                "earliestBeginDate", "backgroundAppRefresh", "lowPowerMode", "criticalBattery", "thermalState",
                "forceQuit",
            ])
        #expect(statuses[1].blockers.first?.until == Instant(seconds: 3600))
        // The refresh waits for the user to open the app (only that lifts `forceQuit`), so its date asks for no
        // review; the processing request is judged again at its date, when the blockers only time lifts are gone.
        #expect(h.system.nextDueTime == Instant(seconds: 7200))
    }

    @Test func explainShowsRunningTasks() throws {
        let h = waiting(Fixture.refreshRequest(feed), blockedBy: [])
        let run = try #require(h.task(Fixture.refresh(feed), of: feed))
        #expect(h.system.explain().map(\.phase) == [.running(run)])
        #expect(h.system.explain().first?.blockers == [])
    }

    @Test func deferralIsRecordedOnlyWhenTheBlockersChange() {
        var h = waiting(Fixture.processingRequest(feed), blockedBy: [])
        h.advance(by: 60)
        h.handle(.setThermalState(.serious))  // the wait does not read the heat: not judged again, nothing recorded
        h.handle(.lock)  // judged again: heat, a device idle for too short a time and asleep hold it
        h.handle(.setThermalState(.critical))  // judged again (heat holds it): the same blockers, nothing recorded
        #expect(
            reasons(h, .deferred, Fixture.processing(feed)) == [
                "deviceIdle: the device is in use",
                "thermalState: thermal state is serious; deviceIdle: the device has not been idle for 15 min (until 1970-01-01 00:16:00Z); coalescing: the device is asleep; waits for the next maintenance wake (until 1970-01-01 00:15:00Z)",
            ])
    }
}
