import Testing

@testable import OffstageCore

/// §9 with §2: a simulated battery that runs empty off the charger shuts the device down, as an iPhone powers
/// off; every app's process ends, nothing runs until the charger is connected, then background work resumes.
@Suite struct EmptyBatteryTests {
    let feed = Fixture.feed
    let mail = Fixture.mail

    /// A 1 Wh battery at 1 % (36 J), off the charger, modelled by the system: with the screen on (1.04 W) it
    /// runs empty about 34.6 s in. Mail is suspended, feed on screen.
    func harness() -> CoreHarness {
        var device = DeviceState()
        device.simulatesBattery = true
        device.battery = Battery(capacityWattHours: 1)
        device.batteryLevel = 0.01
        var h = Fixture.harness([feed, mail], device: device)
        h.open(mail)
        h.handle(.home)
        h.open(feed)
        return h
    }

    @Test func emptyBatteryShutsTheDeviceDownAndEndsEveryApp() {
        var h = harness()
        let effects = h.advance(by: 60)
        let shutdown = effects.records(.device).filter {
            $0.reason == "battery empty: the device shuts down until the charger is connected"
        }
        #expect(shutdown.count == 1)
        let power = h.system.policy.power
        let empty = 36 / (power.baselineWatts + power.screenWatts)
        #expect(abs((shutdown.first?.at.seconds ?? 0) - empty) < 0.01)
        #expect(h.system.device.isShutDown)
        #expect(h.state(of: feed) == .notRunning && h.state(of: mail) == .notRunning)
        #expect(
            effects.records(.terminated).map(\.reason).sorted() == [
                "active → not running: the battery is empty: the device shut down",
                "suspended → not running: the battery is empty: the device shut down",
            ])
        #expect(effects.callbacks(of: feed).isEmpty)
        #expect(effects.actions.contains(.terminate(feed, .deviceShutdown)))
        #expect(h.system.device.batteryLevel == 0)
    }

    @Test func nothingRunsWhileTheDeviceIsOffUntilTheChargerIsConnected() {
        var h = harness()
        h.submit(Fixture.refreshRequest(mail, earliestBeginDate: 40), from: mail)
        h.advance(to: Instant(seconds: 200))
        #expect(h.system.device.isShutDown)
        let opened = h.handle(.open(feed))
        #expect(
            opened.records(.log).map(\.reason) == [
                "ignored: the device is off (its battery is empty) until the charger is connected"
            ])
        #expect(h.state(of: feed) == .notRunning)
        h.advance(to: Instant(seconds: 300))
        #expect(h.log.startedTasks.isEmpty)
        let plugged = h.handle(.setCharging(true))
        #expect(
            plugged.records(.device).map(\.reason).last == "the charger is connected: the device starts up (locked)")
        #expect(!h.system.device.isShutDown && h.system.device.isLocked && !h.system.device.isScreenOn)
        h.advance(by: 1)
        #expect(h.log.startedTasks.map(\.request.identifier) == [Fixture.refresh(mail)])
        #expect(h.state(of: mail) == .background)
    }

    @Test func nothingIsChargedWhileTheDeviceIsOff() {
        var h = harness()
        h.advance(by: 60)
        let joules = h.system.energy.totalJoules
        h.advance(by: 3600)
        #expect(h.system.energy.totalJoules == joules)
        #expect(h.system.device.batteryLevel == 0)
        #expect(h.system.nextDueTime == nil)
    }

    @Test func noTaskStartsWhileTheDeviceIsOffEvenWithACriticalLevelOfZero() {
        var device = DeviceState()
        device.simulatesBattery = true
        device.battery = Battery(capacityWattHours: 1)
        device.batteryLevel = 0.01
        var policy = Policy.iOS
        policy.criticalBatteryLevel = 0
        var h = Fixture.harness([feed, mail], policy: policy, device: device)
        h.open(mail)
        h.handle(.home)
        h.submit(Fixture.refreshRequest(mail, earliestBeginDate: 3600), from: mail)
        h.advance(to: Instant(seconds: 3000))
        #expect(h.system.device.isShutDown)
        h.advance(to: Instant(seconds: 3 * 86_400))  // long past the earliest begin date, still off
        #expect(h.log.startedTasks.isEmpty)
        #expect(
            h.system.explain().first?.blockers.map(\.reason).contains("the device is off: its battery is empty") == true
        )
    }
}
