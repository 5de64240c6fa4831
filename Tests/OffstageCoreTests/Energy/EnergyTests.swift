import Testing

@testable import OffstageCore

/// §8 Battery and §9 energy: what each thing costs, who is charged, the battery and its charging curve.
@Suite struct EnergyTests {
    let feed = Fixture.feed
    let mail = Fixture.mail

    /// A policy whose only cost is the one a test looks at (everything else draws nothing).
    static func only(_ set: (inout PowerModel) -> Void) -> Policy {
        var policy = Policy.iOS
        policy.power.baselineWatts = 0
        policy.power.screenWatts = 0
        policy.power.cpuWattsPerCore = 0
        policy.power.gpuWatts = 0
        policy.power.wifiJoulesPerByte = 0
        policy.power.cellularJoulesPerByte = 0
        policy.power.cellularTailWatts = 0
        policy.power.wakeUpJoules = 0
        set(&policy.power)
        return policy
    }

    /// A device in someone's pocket: screen off, locked.
    static var pocket: DeviceState {
        var device = DeviceState()
        device.isScreenOn = false
        device.isLocked = true
        return device
    }

    func energy(_ h: CoreHarness, _ consumer: EnergyConsumer) -> EnergySplit {
        h.system.energy.totals[consumer] ?? EnergySplit()
    }

    // MARK: The power model

    @Test func cellularCostsMoreThanWiFi() {
        var h = Fixture.harness([feed, mail], device: Self.pocket)
        h.launchAndSuspend(feed)
        h.launchAndSuspend(mail)
        let before = (energy(h, .app(feed)).total, energy(h, .app(mail)).total)
        h.handle(.resourceUsage(feed, ResourceUsage(wifiBytes: 5_000_000)))
        h.handle(.resourceUsage(mail, ResourceUsage(cellularBytes: 5_000_000)))
        h.advance(by: 60)
        let wifi = energy(h, .app(feed)).total - before.0
        let cellular = energy(h, .app(mail)).total - before.1
        #expect(abs(wifi - 5) < 1e-9)
        let tail = h.system.policy.power.cellularTailSeconds * h.system.policy.power.cellularTailWatts
        #expect(abs(cellular - (15 + tail)) < 1e-9)
        #expect(cellular > wifi)
        let power = PowerModel()
        #expect(power.joules(of: ResourceUsage(cellularBytes: 1000)) > power.joules(of: ResourceUsage(wifiBytes: 1000)))
    }

    @Test func radioTailIsChargedAfterTheLastCellularByte() {
        var h = Fixture.harness(policy: Self.only { $0.cellularTailWatts = 1 }, device: Self.pocket)
        h.launchAndSuspend(feed)
        h.handle(.resourceUsage(feed, ResourceUsage(cellularBytes: 1000)))
        h.advance(by: 4)
        #expect(energy(h, .app(feed)).background == 4)
        // Another byte 4 s in: the tail starts again from it, without charging the overlap twice.
        h.handle(.resourceUsage(feed, ResourceUsage(cellularBytes: 1000)))
        h.advance(by: 60)
        #expect(energy(h, .app(feed)).background == 4 + 10)
        // Wi-Fi bytes have no tail.
        h.handle(.resourceUsage(feed, ResourceUsage(wifiBytes: 1000)))
        h.advance(by: 60)
        #expect(energy(h, .app(feed)).background == 14)
    }

    @Test func eachAppPaysForThePartOfTheRadioTailItsBytesAdd() {
        var h = Fixture.harness([feed, mail], policy: Self.only { $0.cellularTailWatts = 1 }, device: Self.pocket)
        h.launchAndSuspend(feed)
        h.launchAndSuspend(mail)
        h.handle(.resourceUsage(feed, ResourceUsage(cellularBytes: 1000)))
        h.advance(by: 3)
        h.handle(.resourceUsage(mail, ResourceUsage(cellularBytes: 1000)))
        h.advance(by: 60)
        #expect(energy(h, .app(feed)).total == 10, "the tail its byte started")
        #expect(energy(h, .app(mail)).total == 3, "the 3 s its byte added to it")
    }

    @Test func screenEnergyGoesToTheForegroundApp() {
        var h = Fixture.harness(policy: Self.only { $0.screenWatts = 2 })
        h.open(feed)
        h.advance(by: 100)
        #expect(energy(h, .app(feed)) == EnergySplit(foreground: 200))
        // On the home screen the screen's energy is the system's.
        h.handle(.home)
        h.advance(by: 50)
        #expect(energy(h, .system) == EnergySplit(foreground: 100))
        // With the screen off, nobody is charged for it.
        h.handle(.lock)
        h.advance(by: 1000)
        #expect(h.system.energy.totalJoules == 300)
    }

    @Test func baselineIsChargedToTheSystemAlways() {
        var h = Fixture.harness(policy: Self.only { $0.baselineWatts = 0.5 }, device: Self.pocket)
        h.advance(by: 7200)
        #expect(energy(h, .system) == EnergySplit(background: 3600))
        #expect(h.system.energy.totalJoules == 3600)
    }

    @Test func backgroundWorkIsChargedAsBackground() {
        var h = Fixture.harness(
            policy: Self.only {
                $0.cpuWattsPerCore = 2
                $0.gpuWatts = 3
            })
        h.open(feed)
        h.handle(.resourceUsage(feed, ResourceUsage(cpuSeconds: 1)))
        #expect(energy(h, .app(feed)) == EnergySplit(foreground: 2))
        h.handle(.home)
        h.handle(.resourceUsage(feed, ResourceUsage(cpuSeconds: 1.5, gpuSeconds: 1)))
        #expect(energy(h, .app(feed)) == EnergySplit(foreground: 2, background: 6))
    }

    @Test func wakeUpIsChargedToTheAppItWokeFor() {
        var h = Fixture.harness(policy: Self.only { $0.wakeUpJoules = 1.5 }, device: Self.pocket)
        h.launchAndSuspend(feed)
        var system = h.system
        system.meterEnergy(.wakeUp(for: feed))
        system.meterEnergy(.wakeUp(for: nil))
        #expect(system.energy.totals[.app(feed)] == EnergySplit(background: 1.5))
        #expect(system.energy.totals[.system] == EnergySplit(background: 1.5))
    }

    // MARK: The ledger's views

    @Test func ledgerViewsOf24HoursAnd10DaysAreExact() {
        var ledger = EnergyLedger()
        let hour = 3600.0
        ledger.charge(1, to: .app(feed), background: true, at: Instant(seconds: 0.5 * hour))
        ledger.charge(2, to: .app(feed), background: false, at: Instant(seconds: 30.5 * hour))
        ledger.charge(4, to: .app(mail), background: true, at: Instant(seconds: 226.5 * hour))
        ledger.charge(8, to: .app(mail), background: true, at: Instant(seconds: 250.5 * hour))
        let now = Instant(seconds: 250.9 * hour)
        #expect(ledger.last24Hours(at: now) == [.app(mail): EnergySplit(background: 8)])
        // 226.5 h is 24.4 h before now but in the 25th hour back: outside the last 24 hours.
        #expect(ledger.usage(lastHours: 25, at: now)[.app(mail)] == EnergySplit(background: 12))
        #expect(
            ledger.last10Days(at: now)
                == [.app(feed): EnergySplit(foreground: 2), .app(mail): EnergySplit(background: 12)])
        // The first hour left the buckets (memory stays bounded) but not the totals.
        #expect(ledger.hours.map(\.index) == [30, 226, 250])
        #expect(ledger.totals[.app(feed)] == EnergySplit(foreground: 2, background: 1))
        #expect(ledger.totalJoules == 15)
        #expect(ledger.hourlyTotals(lastHours: 3, at: now) == [0, 0, 8])
        // A view that ends on the hour ends with the hour before it, not with an empty one.
        #expect(ledger.hourlyTotals(lastHours: 1, at: Instant(seconds: 251 * hour)) == [8])
        #expect(ledger.last24Hours(at: Instant(seconds: 251 * hour)) == [.app(mail): EnergySplit(background: 8)])
    }

    @Test func steadyDrawIsSplitAtHourBoundaries() {
        var ledger = EnergyLedger()
        ledger.charge(watts: 2, from: Instant(seconds: 3000), to: Instant(seconds: 4200), to: .system, background: true)
        #expect(ledger.hours.map(\.index) == [0, 1])
        #expect(ledger.hours.map(\.total) == [1200, 1200])
    }

    @Test func ledgerKeepsAtMostTenDaysOfHours() {
        var ledger = EnergyLedger()
        for hour in 0..<1000 {
            ledger.charge(1, to: .system, background: true, at: Instant(seconds: Double(hour) * 3600))
        }
        #expect(ledger.hours.count == EnergyLedger.retainedHours)
        #expect(ledger.totalJoules == 1000)
    }

    @Test func appsThatAffectBatteryMostComeFirst() {
        let ranked = EnergyLedger.ranked([
            .app(feed): EnergySplit(foreground: 1, background: 1), .system: EnergySplit(background: 5),
            .app(mail): EnergySplit(background: 2), .app(Fixture.photos): EnergySplit(foreground: 9),
        ])
        #expect(ranked.map(\.consumer) == [.app(Fixture.photos), .system, .app(feed), .app(mail)])
    }

    // MARK: The battery

    @Test func chargingCurveIsFastTo80PercentThenTapers() {
        let battery = Battery()
        // 12 W into 12 Wh: 10 % every 6 minutes up to 80 %.
        #expect(abs(battery.level(afterCharging: 1800, from: 0.2) - 0.7) < 1e-12)
        let fast = battery.level(afterCharging: 360, from: 0.6) - 0.6
        let slow = battery.level(afterCharging: 360, from: 0.85) - 0.85
        #expect(abs(fast - 0.1) < 1e-12)
        // Above 80 % the power falls with what is left to fill: 15 % left × (1 − e^(−6/12)).
        #expect(abs(slow - 0.15 * 0.393_469_340_287_366_6) < 1e-12)
        #expect(slow < fast)
        // Through the bend: 18 min to 80 %, then 30 min of taper (time constant 12 min).
        let expected = 1 - 0.2 * 0.082_084_998_623_898_8
        #expect(abs(battery.level(afterCharging: 48 * 60, from: 0.5) - expected) < 1e-9)
        #expect(battery.level(afterCharging: 100 * 3600, from: 0.9) <= 1)
    }

    @Test func simulatedBatteryRisesByTheCurveMinusConsumptionWhileCharging() {
        var device = Self.pocket
        device.simulatesBattery = true
        device.batteryLevel = 0.5
        device.isCharging = true
        var h = Fixture.harness(policy: Self.only { $0.baselineWatts = 2 }, device: device)
        h.advance(by: 600)
        let curve = device.battery.level(afterCharging: 600, from: 0.5)
        #expect(abs(h.system.device.batteryLevel - (curve - 1200 / device.battery.capacityJoules)) < 1e-12)
        #expect(h.system.device.batteryLevel > 0.5)
    }

    @Test func simulatedBatteryDrainsByTheLedgersJoules() {
        var device = DeviceState()
        device.simulatesBattery = true
        var h = Fixture.harness([feed, mail], device: device)
        h.open(feed)
        h.advance(by: 1800)
        h.handle(.resourceUsage(feed, ResourceUsage(cpuSeconds: 30, cellularBytes: 2_000_000)))
        h.handle(.home)
        h.handle(.lock)
        h.advance(by: 7200)
        let drop = (0.8 - h.system.device.batteryLevel) * device.battery.capacityJoules
        #expect(abs(drop - h.system.energy.totalJoules) < 1e-6)
        #expect(h.system.device.batteryLevel < 0.8)
    }

    @Test func batteryReadingsSetTheLevelWhenNotSimulated() {
        var h = Fixture.harness(device: Self.pocket)
        h.advance(by: 3600)
        #expect(h.system.device.batteryLevel == 0.8)
        #expect(h.system.energy.totalJoules > 0)
        h.handle(.setBattery(level: 0.42, charging: true))
        #expect(h.system.device.batteryLevel == 0.42)
        #expect(h.system.device.isCharging)
    }

    @Test func pluggingInKeepsTheBatteryLevel() {
        var device = Self.pocket
        device.simulatesBattery = true
        var h = Fixture.harness(device: device)
        h.advance(by: 3600)
        let level = h.system.device.batteryLevel
        let records = h.handle(.setCharging(true)).records(.device)
        #expect(h.system.device.isCharging)
        #expect(h.system.device.batteryLevel == level)
        #expect(records.map(\.reason) == ["battery \(Int((level * 100).rounded()))%, plugged in"])
        h.advance(by: 3600)
        #expect(h.system.device.batteryLevel > level)
    }

    @Test func simulatedBatteryAsksToBeWokenOnlyForAFallBelowTheCriticalLevel() {
        var device = Self.pocket
        device.simulatesBattery = true
        device.batteryLevel = 0.3
        var policy = Self.only { $0.baselineWatts = 1 }
        var h = Fixture.harness(policy: policy, device: device)
        // 10 % of 12 Wh at 1 W: 4320 s.
        #expect(h.system.nextDueTime.map { abs($0.seconds - 4320) < 1e-6 } == true)
        h.handle(.setCharging(true))
        #expect(h.system.nextDueTime == nil)
        policy.criticalBatteryLevel = 0
        device.batteryLevel = 0
        h = Fixture.harness(policy: policy, device: device)
        #expect(h.system.nextDueTime == nil)
    }

    @Test func drainingBelowTheCriticalLevelBlocksDiscretionaryWork() {
        var device = DeviceState()
        device.simulatesBattery = true
        device.batteryLevel = 0.21
        // 2 % of the battery a minute.
        let policy = Self.only { $0.baselineWatts = Battery().capacityJoules * 0.02 / 60 }
        var h = Fixture.harness(policy: policy, device: device)
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed, earliestBeginDate: 120), from: feed)
        h.handle(.home)
        h.handle(.lock)
        let effects = h.advance(by: 120)
        #expect(effects.startedTasks.isEmpty)
        #expect(
            effects.records(.device).map(\.reason).contains(
                "battery 19% (below 20%): only essential work runs off the charger"))
        // Locked, the device also sleeps: coalescing would hold the work for a maintenance wake too.
        #expect(h.system.explain().first?.blockers.map(\.constraint) == ["criticalBattery", "coalescing"])
        #expect(
            effects.records(.deferred).last?.detail == .deferred(blockers: h.system.explain().first?.blockers ?? []))
    }
}
