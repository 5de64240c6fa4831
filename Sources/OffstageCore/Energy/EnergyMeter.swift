/// What charging one use did that the system acts on: the simulated battery's level after it (nil: no battery is
/// simulated, or no time passed), whether that level fell below the critical one off the charger, and whether an
/// app's cellular bytes brought the radio up.
struct EnergyOutcome: Sendable, Equatable {
    var batteryLevel: Double?
    var fellBelowCritical = false
    var radioCameUp = false
}

/// The system's running energy account (§9): the ledger, how far in time it has been integrated, and the
/// cellular radio's tail still to charge. It alone changes them; `meter` charges a use and says what it did to
/// the simulated battery and the radio, which the system applies.
struct EnergyMeter: Sendable {
    /// A stretch of the cellular radio's high-power tail, and whose bytes added it: each report of cellular bytes
    /// keeps the radio up until `until`, and pays only for what it adds beyond the tail already running.
    private struct TailShare: Sendable {
        var consumer: EnergyConsumer
        /// Whether the app that sent the bytes was in the background then.
        var background: Bool
        /// When this stretch ends (the next one, if any, starts there).
        var until: Instant
    }

    /// Every joule charged so far, by consumer, foreground or background, hour by hour.
    private(set) var ledger = EnergyLedger()
    /// Energy is charged up to this instant.
    private var integratedUntil: Instant = .zero
    /// The radio's tail still to charge, in time order: the first stretch starts where the meter stopped.
    private var radioTail: [TailShare] = []

    init() {}

    /// A meter that goes on from a restored ledger, charging again from `time` (the time the host was down
    /// is not charged); the radio is idle.
    init(restoring ledger: EnergyLedger, from time: Instant) {
        self.ledger = ledger
        integratedUntil = time
    }

    /// Charges `use` at `now` (`EnergyUse`): the steady draws as `device` was since the meter last charged them,
    /// with the screen charged to `screen` (nil: off); an installed app's report, as background work when
    /// `isBackground` says so; a wake-up; or a restored ledger to go on from, which draws nothing. With a
    /// simulated battery, the outcome is its level after the charger's seconds and the joules drawn, and whether
    /// it fell below `criticalLevel` off the charger.
    mutating func meter(
        _ use: EnergyUse, at now: Instant, power: PowerModel, screen: EnergyConsumer?, device: DeviceState,
        criticalLevel: Double, isBackground: (BundleID) -> Bool
    ) -> EnergyOutcome {
        var outcome = EnergyOutcome()
        let drawn: (joules: Double, seconds: Double)
        switch use {
        case .timePassed:
            // A device shut down by an empty battery draws nothing (it starts up as soon as it charges).
            guard let integrated = integrate(to: now, power: power, screen: screen, drawing: !device.isShutDown)
            else { return outcome }
            drawn = integrated
        case .usage(let usage, let id):
            let radioWasUp = radioTailEnds(after: now) != nil
            drawn = (charge(usage, of: id, background: isBackground(id), at: now, power: power), 0)
            outcome.radioCameUp = !radioWasUp && radioTailEnds(after: now) != nil
        case .wakeUp(let app):
            drawn = (chargeWakeUp(for: app, at: now, power: power), 0)
        case .restored(let ledger, let takenAt):
            self = EnergyMeter(restoring: ledger, from: max(now, takenAt))
            return outcome
        }
        guard device.simulatesBattery else { return outcome }
        let before = device.batteryLevel
        let after = device.battery.level(
            afterCharging: drawn.seconds, charging: device.isCharging, thenDraining: drawn.joules, from: before)
        outcome.batteryLevel = after
        outcome.fellBelowCritical = !device.isCharging && before >= criticalLevel && after < criticalLevel
        return outcome
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
        var from = start
        for share in radioTail where from < time {
            let to = min(time, share.until)
            joules += ledger.charge(
                watts: power.cellularTailWatts, from: from, to: to, to: share.consumer, background: share.background)
            from = to
        }
        radioTail.removeAll { $0.until <= time }
        return (joules, time - start)
    }

    /// Charges what an app's process used (a host's report) at `time`; cellular bytes keep the radio up for its
    /// tail after them, and the app pays for the part of the tail they add to one already running. Returns the joules.
    mutating func charge(
        _ usage: ResourceUsage, of app: BundleID, background: Bool, at time: Instant, power: PowerModel
    ) -> Double {
        let joules = power.joules(of: usage)
        ledger.charge(joules, to: .app(app), background: background, at: time)
        let until = time + power.cellularTailSeconds
        if usage.cellularBytes > 0, until > radioTail.last?.until ?? time {
            let consumer = EnergyConsumer.app(app)
            if let last = radioTail.last, last.consumer == consumer, last.background == background {
                radioTail[radioTail.count - 1].until = until
            } else {
                radioTail.append(TailShare(consumer: consumer, background: background, until: until))
            }
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
        let tail = radioTailEnds(after: time) != nil ? power.cellularTailWatts : 0
        return power.baselineWatts + (screenOn ? power.screenWatts : 0) + tail
    }

    /// When the cellular radio's high-power tail ends, if it runs at `time`: bytes sent before then extend it.
    func radioTailEnds(after time: Instant) -> Instant? { radioTail.last.flatMap { $0.until > time ? $0.until : nil } }
}
