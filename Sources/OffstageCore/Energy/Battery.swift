import Foundation

/// A phone's battery and charger as the simulator models them (§9): a capacity, and a charging curve that
/// is fast up to 80 % and then tapers towards full (a lithium cell's constant current, then constant voltage).
/// Pure functions of a level: the system keeps the level itself in `DeviceState.batteryLevel`.
public struct Battery: Hashable, Sendable, Codable {
    /// Watt-hours when full (an iPhone holds about 12 Wh).
    public var capacityWattHours: Double = 12
    /// Watts the charger puts into the cell below `taperLevel` (a 20 W charger nets about 12 W: 80 % in 48 min).
    public var chargingWatts: Double = 12
    /// The level (0–1) from which charging slows down: the power then falls in proportion to what is left to
    /// fill (at the defaults, 80 % to 99 % takes about 36 minutes more).
    public var taperLevel: Double = 0.8

    public init(capacityWattHours: Double = 12, chargingWatts: Double = 12, taperLevel: Double = 0.8) {
        self.capacityWattHours = capacityWattHours
        self.chargingWatts = chargingWatts
        self.taperLevel = taperLevel
    }

    /// The capacity in joules.
    public var capacityJoules: Double { capacityWattHours * 3600 }

    /// Joules as a fraction of the capacity (the "% of battery" of iOS's Battery view).
    public func fraction(ofJoules joules: Double) -> Double { capacityJoules > 0 ? joules / capacityJoules : 0 }

    /// The level after `seconds` on the charger from `level`, with nothing drawn: linear up to the taper,
    /// then `1 − (1 − L) e^(−kt)` with `k = chargingWatts / (capacity × (1 − taperLevel))`, which never
    /// overshoots full.
    public func level(afterCharging seconds: Double, from level: Double) -> Double {
        guard seconds > 0, capacityJoules > 0, chargingWatts > 0 else { return level }
        var level = level
        var rest = seconds
        if level < taperLevel {
            let toTaper = (taperLevel - level) * capacityJoules / chargingWatts
            guard toTaper < rest else { return level + rest * chargingWatts / capacityJoules }
            level = taperLevel
            rest -= toTaper
        }
        guard taperLevel < 1 else { return 1 }
        let rate = chargingWatts / (capacityJoules * (1 - taperLevel))
        return min(1, 1 - (1 - level) * exp(-rate * rest))
    }

    /// Seconds on the charger from `level` to `target` with nothing drawn (the inverse of
    /// `level(afterCharging:from:)`); nil when the charger never gets there (a target of full, or no charger).
    public func secondsOfCharging(from level: Double, to target: Double) -> Double? {
        guard target > level else { return 0 }
        guard target < 1, capacityJoules > 0, chargingWatts > 0 else { return nil }
        let linear = max(0, min(target, taperLevel) - level) * capacityJoules / chargingWatts
        guard target > taperLevel else { return linear }
        let rate = chargingWatts / (capacityJoules * (1 - taperLevel))
        return linear + log((1 - max(level, taperLevel)) / (1 - target)) / rate
    }

    /// The level after `seconds` on the charger from `level` (when it is `charging`), then `joules` drawn: what a
    /// simulated battery holds after a charge of the energy meter.
    func level(afterCharging seconds: Double, charging: Bool, thenDraining joules: Double, from level: Double)
        -> Double
    {
        self.level(afterDraining: joules, from: charging ? self.level(afterCharging: seconds, from: level) : level)
    }

    /// The level after `joules` are drawn from `level`; an empty battery stays at 0.
    public func level(afterDraining joules: Double, from level: Double) -> Double {
        max(0, level - fraction(ofJoules: joules))
    }
}
