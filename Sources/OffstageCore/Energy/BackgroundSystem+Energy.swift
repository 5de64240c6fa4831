/// Energy (§8 Battery, §9): as time passes the system charges the baseline to itself, the screen to the app on
/// it and each stretch of the cellular tail to the app whose bytes added it; hosts' resource reports and wake-ups
/// are charged at once. `EnergyMeter` keeps the account; with a simulated battery every joule drains it, and the
/// charger fills it along its curve (`Battery`), until iOS turns Low Power Mode off at 80 %. This routes the
/// charges to them.
extension BackgroundSystem {
    /// Every joule spent so far, by consumer, foreground or background, hour by hour.
    public var energy: EnergyLedger { energyMeter.ledger }

    /// Hands the meter `use` (a charge, or a restored ledger), with what it reads of the system now (the screen and
    /// the app on it, an app's state, the simulated battery), and sets the battery to the level it leaves. Falling
    /// below the critical level off the charger is recorded, and the apps a change of the battery's level concerns
    /// reviewed, since discretionary work stops there. Bytes that bring the radio up review the refreshes waiting
    /// for a wake, to ride on its tail.
    mutating func meterEnergy(_ use: EnergyUse) {
        let screen = device.isScreenOn ? foregroundApp.map(EnergyConsumer.app) ?? .system : nil
        let outcome = energyMeter.meter(
            use, at: now, power: policy.power, screen: screen, device: device,
            criticalLevel: policy.criticalBatteryLevel, isBackground: { !apps[$0].state.isForeground })
        if let level = outcome.batteryLevel {
            device.batteryLevel = level
            turnOffLowPowerModeIfCharged()
            if outcome.fellBelowCritical {
                reviewAppsConcerned(by: .batteryLevel)
                let critical = policy.criticalBatteryLevel
                record(
                    nil, .device,
                    reason: "battery \(batteryPercent(level)) (below \(batteryPercent(critical))): "
                        + "only essential work runs off the charger")
            }
        }
        if outcome.radioCameUp { noteRadioCameUp() }
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

    /// When a charging simulated battery can reach the level at which iOS turns Low Power Mode off (the earliest,
    /// as if nothing were drawn), so that hosts wake then with no other event; nil when it is not waited for.
    var lowPowerModeOffDueTime: Instant? {
        let target = policy.lowPowerModeOffWhileChargingLevel
        guard settings.lowPowerMode, device.simulatesBattery, device.isCharging, !device.isShutDown,
            let seconds = device.battery.secondsOfCharging(from: device.batteryLevel, to: target)
        else { return nil }
        return now + max(1, seconds)
    }

    /// iOS turns Low Power Mode off itself once the charging battery reaches 80 %; plugging in alone does not.
    mutating func turnOffLowPowerModeIfCharged() {
        guard settings.lowPowerMode, device.isCharging, device.batteryLevel >= policy.lowPowerModeOffWhileChargingLevel
        else { return }
        settings.lowPowerMode = false
        reviewAppsConcerned(by: .settings)
        let level = Int(policy.lowPowerModeOffWhileChargingLevel * 100)
        record(nil, .setting, reason: "Low Power Mode off: the charging battery reached \(level)%")
    }
}

/// What the system asks the energy meter to charge, or to go on from (`BackgroundSystem.meterEnergy`).
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
    /// The ledger a snapshot taken at `takenAt` remembers (`restore(_:)`): charging goes on from now, or from
    /// `takenAt` if later, so the time the host was down is charged to no one.
    case restored(EnergyLedger, takenAt: Instant)
}

/// A battery level as iOS shows it: whole percent, rounded down ("19%").
private func batteryPercent(_ level: Double) -> String { "\(Int((level * 100).rounded(.down)))%" }
