/// Energy (§8 Battery, §9): as time passes the system charges the baseline to itself, the screen to the app on
/// it and each stretch of the cellular tail to the app whose bytes added it; hosts' resource reports and wake-ups
/// are charged at once. `EnergyMeter` keeps the account; with a simulated battery every joule drains it, and the
/// charger fills it along its curve (`Battery`). This routes the charges to them.
extension BackgroundSystem {
    /// Puts back the energy ledger a snapshot remembers; energy is charged again from now (or the snapshot's
    /// time, if later): the time the host was down is not charged to anyone.
    mutating func restoreEnergy(_ saved: SystemSnapshot) {
        energyMeter = EnergyMeter(restoring: saved.energy, from: max(now, saved.takenAt))
    }

    /// Every joule spent so far, by consumer, foreground or background, hour by hour.
    public var energy: EnergyLedger { energyMeter.ledger }

    /// Charges `use` to the meter, with what it reads of the system now (the screen and the app on it, the app's
    /// state), and drains a simulated battery by what it drew (after the charger's seconds, for passing time).
    /// Falling below the critical level off the charger is recorded, and the apps shared changes concern
    /// reviewed, since discretionary work stops there. Bytes that bring the radio up review the refreshes
    /// waiting for a wake, to ride on its tail.
    mutating func meterEnergy(_ use: EnergyUse) {
        let drawn: (joules: Double, seconds: Double)
        var radioCameUp = false
        switch use {
        case .timePassed:
            let screen = device.isScreenOn ? foregroundApp.map(EnergyConsumer.app) ?? .system : nil
            // A device shut down by an empty battery draws nothing (it starts up as soon as it charges).
            guard
                let integrated = energyMeter.integrate(
                    to: now, power: policy.power, screen: screen, drawing: !device.isShutDown)
            else { return }
            drawn = integrated
        case .usage(let usage, let id):
            let background = !apps[id].state.isForeground  // the report's app is installed: its caller checked
            let radioWasUp = radioTailEnds != nil
            drawn = (energyMeter.charge(usage, of: id, background: background, at: now, power: policy.power), 0)
            radioCameUp = !radioWasUp && radioTailEnds != nil
        case .wakeUp(let app):
            drawn = (energyMeter.chargeWakeUp(for: app, at: now, power: policy.power), 0)
        }
        if device.simulatesBattery {
            let before = device.batteryLevel
            device.batteryLevel = device.battery.level(
                afterCharging: drawn.seconds, charging: device.isCharging, thenDraining: drawn.joules, from: before)
            turnOffLowPowerModeIfCharged()
            let critical = policy.criticalBatteryLevel
            if !device.isCharging, before >= critical, device.batteryLevel < critical {
                reviewAppsConcerned(by: .batteryLevel)
                let level = device.batteryLevel
                record(
                    nil, .device,
                    reason: "battery \(batteryPercent(level)) (below \(batteryPercent(critical))): "
                        + "only essential work runs off the charger")
            }
        }
        if radioCameUp { noteRadioCameUp() }
    }

    /// When the cellular radio's high-power tail ends, while it runs now: a download before then extends it.
    var radioTailEnds: Instant? { energyMeter.radioTailEnds(after: now) }

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
}

/// What the system asks the energy meter to charge (`BackgroundSystem.meterEnergy`).
enum EnergyUse: Sendable {
    /// The steady draws of the time since the meter last charged them, as the device was during it: `begin(at:)`
    /// charges them first thing, before the event changes anything.
    case timePassed
    /// What an installed app's process used (a host's report), as foreground or background work by its state now;
    /// its cellular bytes keep the radio up, and it pays for the part of the tail they add.
    case usage(ResourceUsage, of: BundleID)
    /// One wake-up of the device from sleep, for the app (as background work) or for the system's own maintenance
    /// (nil): the scheduler charges it each time it wakes the device.
    case wakeUp(for: BundleID?)
}

/// A battery level as iOS shows it: whole percent, rounded down ("19%").
private func batteryPercent(_ level: Double) -> String { "\(Int((level * 100).rounded(.down)))%" }
