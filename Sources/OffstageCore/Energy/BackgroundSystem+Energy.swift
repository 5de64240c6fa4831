/// Energy (§8 Battery, §9): as time passes the system charges the baseline to itself, the screen to the app on
/// it and each stretch of the cellular tail to the app whose bytes added it; hosts' resource reports and wake-ups are
/// charged at once. With a simulated battery every joule drains it, and the charger fills it along its curve.
extension BackgroundSystem {
    /// Puts back the energy ledger a snapshot remembers; energy is charged again from now (or the snapshot's
    /// time, if later): the time the host was down is not charged to anyone.
    mutating func restoreEnergy(_ saved: SystemSnapshot) {
        energyMeter = EnergyMeter(restoring: saved.energy, from: max(now, saved.takenAt))
    }

    /// Every joule spent so far, by consumer, foreground or background, hour by hour.
    public var energy: EnergyLedger { energyMeter.ledger }

    /// Charges the steady draws of the time since the last integration, as the device was during it.
    /// `begin(at:)` calls it first thing, before the event changes anything.
    mutating func advanceEnergy(to time: Instant) {
        let screen = device.isScreenOn ? foregroundApp.map(EnergyConsumer.app) ?? .system : nil
        // A device shut down by an empty battery draws nothing (it starts up as soon as it charges).
        guard
            let drawn = energyMeter.integrate(
                to: time, power: policy.power, screen: screen, drawing: !device.isShutDown)
        else { return }
        updateBattery(drained: drawn.joules, charging: drawn.seconds)
    }

    /// Charges what an app's process used (a host's report) to the app, as foreground or background work by
    /// its state now; its cellular bytes keep the radio up, and it pays for the part of the tail they add.
    mutating func chargeEnergy(of usage: ResourceUsage, to id: BundleID) {
        let background = !apps[id].state.isForeground  // the report's app is installed: its caller checked
        let radioWasUp = radioTailEnds != nil
        let joules = energyMeter.charge(usage, of: id, background: background, at: now, power: policy.power)
        updateBattery(drained: joules, charging: 0)
        if !radioWasUp && radioTailEnds != nil { scheduler.noteRadioCameUp() }
    }

    /// When the cellular radio's high-power tail ends, while it runs now: a download before then extends it.
    var radioTailEnds: Instant? { energyMeter.radioTailEnds(after: now) }

    /// Charges one wake-up of the device from sleep to the app it was woken for (as background work), or to
    /// the system for its own maintenance. The scheduler calls it each time it wakes the device.
    mutating func chargeWakeUp(for app: BundleID?) {
        updateBattery(drained: energyMeter.chargeWakeUp(for: app, at: now, power: policy.power), charging: 0)
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
    var steadyWatts: Double { energyMeter.steadyWatts(at: now, power: policy.power, screenOn: device.isScreenOn) }

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
        turnOffLowPowerModeIfCharged()
        let critical = policy.criticalBatteryLevel
        if !device.isCharging, before >= critical, device.batteryLevel < critical {
            reviewAppsSharedChangesConcern()
            let level = device.batteryLevel
            record(
                nil, .device,
                reason: "battery \(batteryPercent(level)) (below \(batteryPercent(critical))): "
                    + "only essential work runs off the charger")
        }
    }
}

/// A battery level as iOS shows it: whole percent, rounded down ("19%").
private func batteryPercent(_ level: Double) -> String { "\(Int((level * 100).rounded(.down)))%" }
