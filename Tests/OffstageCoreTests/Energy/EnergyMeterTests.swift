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
}
