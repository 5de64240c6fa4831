/// The system's running energy account (§9): the ledger, how far in time it has been integrated, and the
/// cellular radio's tail still to charge. It alone changes them; the system asks it to charge and drains the battery by what it returns.
struct EnergyMeter: Sendable {
    /// The cellular radio lingering in its high-power state after the last byte, and whose byte it was.
    private struct RadioTail: Sendable {
        var consumer: EnergyConsumer
        /// Whether the app that sent the last byte was in the background then.
        var background: Bool
        /// When the radio drops back to idle.
        var until: Instant
    }

    /// Every joule charged so far, by consumer, foreground or background, hour by hour.
    private(set) var ledger = EnergyLedger()
    /// Energy is charged up to this instant.
    private var integratedUntil: Instant = .zero
    private var radioTail: RadioTail?

    init() {}

    /// A meter that goes on from a restored ledger, charging again from `time` (the time the host was down
    /// is not charged); the radio is idle.
    init(restoring ledger: EnergyLedger, from time: Instant) {
        self.ledger = ledger
        integratedUntil = time
    }

    /// Charges the steady draws from where the meter stopped to `time`, as the device was during it: the
    /// baseline to the system, the screen to `screen` (nil: off), the radio's tail to the app it serves.
    /// Returns the joules drawn and the seconds that passed; nil if no time passed. A device that is off
    /// (`drawing` false) draws nothing.
    mutating func integrate(
        to time: Instant, power: PowerModel, screen: EnergyConsumer?, drawing: Bool
    ) -> (joules: Double, seconds: Double)? {
        let start = integratedUntil
        guard time > start else { return nil }
        integratedUntil = time
        guard drawing else { return (0, time - start) }
        var joules = ledger.charge(watts: power.baselineWatts, from: start, to: time, to: .system, background: true)
        if let screen {
            joules += ledger.charge(watts: power.screenWatts, from: start, to: time, to: screen, background: false)
        }
        if let tail = radioTail {
            joules += ledger.charge(
                watts: power.cellularTailWatts, from: start, to: min(time, tail.until), to: tail.consumer,
                background: tail.background)
            if tail.until <= time { radioTail = nil }
        }
        return (joules, time - start)
    }

    /// Charges what an app's process used (a host's report) at `time`; cellular bytes (re)start the radio's
    /// tail, charged to this app from then on. Returns the joules charged.
    mutating func charge(
        _ usage: ResourceUsage, of app: BundleID, background: Bool, at time: Instant, power: PowerModel
    ) -> Double {
        let joules = power.joules(of: usage)
        ledger.charge(joules, to: .app(app), background: background, at: time)
        if usage.cellularBytes > 0 {
            radioTail = RadioTail(consumer: .app(app), background: background, until: time + power.cellularTailSeconds)
        }
        return joules
    }

    /// Charges one wake-up of the device from sleep to `app` (background work), or to the system for its
    /// own maintenance. Returns the joules charged.
    mutating func chargeWakeUp(for app: BundleID?, at time: Instant, power: PowerModel) -> Double {
        ledger.charge(power.wakeUpJoules, to: app.map(EnergyConsumer.app) ?? .system, background: true, at: time)
        return power.wakeUpJoules
    }

    /// The device's steady draw at `time`: the baseline, the screen if it is on, the radio's tail if it runs.
    func steadyWatts(at time: Instant, power: PowerModel, screenOn: Bool) -> Double {
        let tail = (radioTail?.until ?? time) > time ? power.cellularTailWatts : 0
        return power.baselineWatts + (screenOn ? power.screenWatts : 0) + tail
    }
}
