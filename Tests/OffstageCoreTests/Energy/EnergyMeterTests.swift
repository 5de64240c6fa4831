import Testing

@testable import OffstageCore

/// The energy meter on its own (§9): steady draws integrated over time, a host's report and the cellular
/// radio's tail it starts, wake-ups, a device that draws nothing, and a meter restored from a snapshot.
@Suite struct EnergyMeterTests {
    let power = PowerModel()
    let app = BundleID("com.example.feed")

    func at(_ seconds: Double) -> Instant { Instant(seconds: seconds) }

    @Test func steadyDrawsAreChargedToTheSystemAndToTheAppOnScreen() throws {
        var meter = EnergyMeter()
        let integrated = meter.integrate(to: at(100), power: power, screen: .app(app), drawing: true)
        let drawn = try #require(integrated)
        #expect(drawn.seconds == 100)
        #expect(abs(drawn.joules - 100 * (power.baselineWatts + power.screenWatts)) < 1e-9)
        #expect(meter.ledger.totals[.app(app)]?.foreground == 100 * power.screenWatts)
        #expect(meter.ledger.totals[.system]?.background == 100 * power.baselineWatts)
        let again = meter.integrate(to: at(100), power: power, screen: nil, drawing: true)
        #expect(again == nil)
    }

    @Test func cellularBytesStartTheRadioTailChargedToTheirAppUntilItEnds() throws {
        var meter = EnergyMeter()
        let usage = ResourceUsage(cellularBytes: 1_000_000, interval: 1)
        let joules = meter.charge(usage, of: app, background: true, at: .zero, power: power)
        #expect(joules == power.joules(of: usage))
        #expect(
            meter.steadyWatts(at: at(5), power: power, screenOn: false) == power.baselineWatts + power.cellularTailWatts
        )
        let integrated = meter.integrate(to: at(60), power: power, screen: nil, drawing: true)
        let drawn = try #require(integrated)
        let tail = power.cellularTailSeconds * power.cellularTailWatts
        #expect(abs(drawn.joules - (60 * power.baselineWatts + tail)) < 1e-9)
        #expect(abs((meter.ledger.totals[.app(app)]?.background ?? 0) - (joules + tail)) < 1e-9)
        #expect(meter.steadyWatts(at: at(60), power: power, screenOn: true) == power.baselineWatts + power.screenWatts)
    }

    @Test func eachAppPaysOnlyForThePartOfTheRadioTailItsBytesAdd() throws {
        var meter = EnergyMeter()
        let reader = BundleID("com.example.reader")
        let bytes = ResourceUsage(cellularBytes: 300_000, interval: 1)
        _ = meter.integrate(to: at(10), power: power, screen: nil, drawing: true)
        _ = meter.charge(bytes, of: reader, background: false, at: at(10), power: power)  // on screen: up to 20 s
        #expect(meter.radioTailEnds(after: at(12)) == at(10) + power.cellularTailSeconds)
        _ = meter.integrate(to: at(13), power: power, screen: nil, drawing: true)
        _ = meter.charge(bytes, of: app, background: true, at: at(13), power: power)  // extends it to 23 s
        #expect(meter.radioTailEnds(after: at(13)) == at(13) + power.cellularTailSeconds)
        _ = meter.integrate(to: at(60), power: power, screen: nil, drawing: true)
        #expect(meter.radioTailEnds(after: at(60)) == nil)
        let own = power.joules(of: bytes)
        let readerTail = try #require(meter.ledger.totals[.app(reader)]?.foreground) - own
        let feedTail = try #require(meter.ledger.totals[.app(app)]?.background) - own
        #expect(
            abs(readerTail - power.cellularTailSeconds * power.cellularTailWatts) < 1e-9, "the whole tail it started")
        #expect(abs(feedTail - 3 * power.cellularTailWatts) < 1e-9, "only the 3 s its bytes added to the tail")
    }

    @Test func aWakeUpIsChargedToItsAppOrToTheSystem() {
        var meter = EnergyMeter()
        #expect(meter.chargeWakeUp(for: app, at: at(1), power: power) == power.wakeUpJoules)
        #expect(meter.chargeWakeUp(for: nil, at: at(2), power: power) == power.wakeUpJoules)
        #expect(meter.ledger.totals[.app(app)]?.background == power.wakeUpJoules)
        #expect(meter.ledger.totals[.system]?.background == power.wakeUpJoules)
    }

    @Test func aDeviceThatIsOffDrawsNothingButTimeStillPasses() throws {
        var meter = EnergyMeter()
        let integrated = meter.integrate(to: at(3600), power: power, screen: .system, drawing: false)
        let drawn = try #require(integrated)
        #expect(drawn.joules == 0 && drawn.seconds == 3600)
        #expect(meter.ledger.totalJoules == 0)
    }

    @Test func aRestoredMeterKeepsItsLedgerAndChargesOnlyFromItsRestart() throws {
        var first = EnergyMeter()
        _ = first.integrate(to: at(100), power: power, screen: nil, drawing: true)
        var restored = EnergyMeter(restoring: first.ledger, from: at(1000))
        #expect(restored.ledger == first.ledger)
        let integrated = restored.integrate(to: at(1010), power: power, screen: nil, drawing: true)
        let drawn = try #require(integrated)
        #expect(drawn.seconds == 10)
        #expect(abs(restored.ledger.totalJoules - 110 * power.baselineWatts) < 1e-9)
    }

    /// Meters `use` at `seconds` with nothing on screen and every app in the background.
    func meter(_ use: EnergyUse, _ meter: inout EnergyMeter, at seconds: Double, on device: DeviceState)
        -> EnergyOutcome
    {
        meter.meter(
            use, at: at(seconds), power: power, screen: nil, device: device, criticalLevel: 0.2,
            isBackground: { _ in true })
    }

    @Test func meteringDrainsASimulatedBatteryAndSaysWhenItFallsBelowTheCriticalLevel() {
        var energy = EnergyMeter()
        var device = DeviceState()
        #expect(meter(.wakeUp(for: app), &energy, at: 0, on: device) == EnergyOutcome())  // no battery simulated
        device.simulatesBattery = true
        device.batteryLevel = 0.2
        let crossed = meter(.wakeUp(for: app), &energy, at: 0, on: device)
        let drained = device.battery.level(afterDraining: power.wakeUpJoules, from: 0.2)
        #expect(crossed == EnergyOutcome(batteryLevel: drained, fellBelowCritical: true))
        device.batteryLevel = drained
        let below = meter(.wakeUp(for: nil), &energy, at: 0, on: device)
        #expect(below.batteryLevel! < drained && !below.fellBelowCritical)  // crossed once, not again
        device.isCharging = true
        device.batteryLevel = 0.2
        #expect(!meter(.wakeUp(for: app), &energy, at: 0, on: device).fellBelowCritical)  // on the charger
    }

    @Test func cellularBytesBringTheRadioUpOnceWhileItsTailRuns() {
        var energy = EnergyMeter()
        let device = DeviceState()
        let bytes = ResourceUsage(cellularBytes: 1000)
        #expect(meter(.usage(bytes, of: app), &energy, at: 10, on: device).radioCameUp)
        #expect(!meter(.usage(bytes, of: app), &energy, at: 12, on: device).radioCameUp)
        let idle = meter(.timePassed, &energy, at: 10 + power.cellularTailSeconds + 1, on: device)
        #expect(idle == EnergyOutcome())
        #expect(meter(.usage(bytes, of: app), &energy, at: 100, on: device).radioCameUp)
    }
}
