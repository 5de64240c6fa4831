public import OffstageCore

/// The device's conditions over a run, as the scheduler's constraints read them — screen and lock, charger,
/// network, Low Power Mode, thermal state, the idle window: one reading each time one of them changed, so a report
/// can show exactly what a deferral's blockers refer to.
public struct DeviceHistory: Sendable {
    /// The conditions the constraints read, at one instant.
    public struct Reading: Hashable, Sendable {
        public var at: Instant
        public var isScreenOn: Bool
        public var isLocked: Bool
        public var isCharging: Bool
        public var network: NetworkKind
        public var lowPowerMode: Bool
        public var lowDataMode: Bool
        public var thermal: ThermalState
        /// Since when the device has been locked and unused (nil while in use): idle counts from here.
        public var idleSince: Instant?

        init(at: Instant, device: DeviceState, settings: UserSettings) {
            self.at = at
            isScreenOn = device.isScreenOn
            isLocked = device.isLocked
            isCharging = device.isCharging
            network = device.network
            lowPowerMode = settings.lowPowerMode
            lowDataMode = settings.lowDataMode
            thermal = device.thermalState
            idleSince = device.idleSince
        }

        /// Whether `other` reads the same conditions (at any time).
        func sameConditions(as other: Reading) -> Bool {
            var moved = other
            moved.at = at
            return moved == self
        }
    }

    /// A reading at the start and one at each change, oldest first.
    public private(set) var readings: [Reading] = []

    public init() {}

    /// Takes the device after one step of the simulation; keeps it if a condition changed.
    mutating func observe(_ system: BackgroundSystem) {
        let reading = Reading(at: system.now, device: system.device, settings: system.settings)
        if let last = readings.last, last.sameConditions(as: reading) { return }
        readings.append(reading)
    }
}
