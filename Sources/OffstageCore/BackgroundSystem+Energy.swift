/// Energy (§8 Battery, §9): as time passes the system charges the baseline to itself, the screen to the app on
/// it and the cellular tail to the app whose byte woke the radio; hosts' resource reports and wake-ups are
/// charged at once. With a simulated battery every joule drains it, and the charger fills it along its curve.
extension BackgroundSystem {
    /// Every joule spent so far, by consumer, foreground or background, hour by hour.
    public var energy: EnergyLedger { energyMeter.ledger }

    /// Charges the steady draws of the time since the last integration, as the device was during it.
    /// `begin(at:)` calls it first thing, before the event changes anything.
    mutating func advanceEnergy(to time: Instant) {
        let start = energyMeter.integratedUntil
        guard time > start else { return }
        energyMeter.integratedUntil = time
        // A device shut down by an empty battery draws nothing (it starts up as soon as it charges).
        guard !device.isShutDown else { return updateBattery(drained: 0, charging: time - start) }
        let power = policy.power
        var joules = energyMeter.ledger.charge(
            watts: power.baselineWatts, from: start, to: time, to: .system, background: true)
        if device.isScreenOn {
            let consumer = foregroundApp.map(EnergyConsumer.app) ?? .system
            joules += energyMeter.ledger.charge(
                watts: power.screenWatts, from: start, to: time, to: consumer, background: false)
        }
        if let tail = energyMeter.radioTail {
            joules += energyMeter.ledger.charge(
                watts: power.cellularTailWatts, from: start, to: min(time, tail.until), to: tail.consumer,
                background: tail.background)
            if tail.until <= time { energyMeter.radioTail = nil }
        }
        updateBattery(drained: joules, charging: time - start)
    }

    /// Charges what an app's process used (a host's report) to the app, as foreground or background work by
    /// its state now; cellular bytes (re)start the radio's tail, charged to this app from now on.
    mutating func chargeEnergy(of usage: ResourceUsage, to id: BundleID) {
        let background = !(apps.lookUp(id)?.state.isForeground ?? false)
        let joules = policy.power.joules(of: usage)
        energyMeter.ledger.charge(joules, to: .app(id), background: background, at: now)
        if usage.cellularBytes > 0 {
            energyMeter.radioTail = EnergyMeter.RadioTail(
                consumer: .app(id), background: background, until: now + policy.power.cellularTailSeconds)
        }
        updateBattery(drained: joules, charging: 0)
    }

    /// Charges one wake-up of the device from sleep to the app it was woken for (as background work), or to
    /// the system for its own maintenance. The scheduler calls it each time it wakes the device.
    mutating func chargeWakeUp(for app: BundleID?) {
        let joules = policy.power.wakeUpJoules
        energyMeter.ledger.charge(joules, to: app.map(EnergyConsumer.app) ?? .system, background: true, at: now)
        updateBattery(drained: joules, charging: 0)
    }

    /// When a simulated battery off the charger falls below the critical level at the present draw (the
    /// earliest it can), so that hosts wake then and the crossing is recorded on time; nil otherwise.
    var criticalBatteryDueTime: Instant? {
        let critical = policy.criticalBatteryLevel
        guard device.simulatesBattery, !device.isCharging, critical > 0, device.batteryLevel >= critical else {
            return nil
        }
        let watts = steadyWatts
        guard watts > 0 else { return nil }
        return now + max(0.001, (device.batteryLevel - critical) * device.battery.capacityJoules / watts)
    }

    /// The device's steady draw now: the baseline, the screen if it is on, the cellular radio's tail if it runs.
    var steadyWatts: Double {
        let power = policy.power
        let tail = (energyMeter.radioTail?.until ?? now) > now ? power.cellularTailWatts : 0
        return power.baselineWatts + (device.isScreenOn ? power.screenWatts : 0) + tail
    }

    /// The charger was plugged in or out: the battery keeps its level (a simulated one goes on from it).
    mutating func setCharging(_ charging: Bool) {
        apply(.setBattery(level: device.batteryLevel, charging: charging))
    }

    /// With a simulated battery: `seconds` on the charger if it is plugged in, then `joules` drawn.
    /// Falling below the critical level is recorded, and every app reviewed, since discretionary work stops there.
    private mutating func updateBattery(drained joules: Double, charging seconds: Double) {
        guard device.simulatesBattery else { return }
        let before = device.batteryLevel
        let charged = device.isCharging ? device.battery.level(afterCharging: seconds, from: before) : before
        device.batteryLevel = device.battery.level(afterDraining: joules, from: charged)
        let critical = policy.criticalBatteryLevel
        if !device.isCharging, before >= critical, device.batteryLevel < critical {
            reviewAppsSharedChangesConcern()
            record(
                nil, .device,
                reason: "battery \(Self.percent(device.batteryLevel)) (below \(Self.percent(critical))): "
                    + "only essential work runs off the charger")
        }
    }

    /// "19%", as records show a battery level.
    private static func percent(_ level: Double) -> String { "\(Int((level * 100).rounded(.down)))%" }
}
