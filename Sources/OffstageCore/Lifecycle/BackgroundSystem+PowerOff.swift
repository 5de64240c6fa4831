/// An empty battery (§9): a simulated battery that reaches 0 % off the charger shuts the device down, as an
/// iPhone powers off. Every app's process ends, without callbacks; nothing runs and the user can do nothing
/// until the charger is connected, when the device starts up (locked, screen off; `handle` asks
/// `DeviceState.startUpIfCharging` after every event) and background work resumes. The device's own moves are
/// `DeviceState`'s; this carries out what a shutdown does to the apps.
extension BackgroundSystem {
    /// Shuts the device down if its simulated battery is empty off the charger
    /// (`DeviceState.shutDownIfBatteryEmpty`) and ends every process. `begin(at:)` calls it once the energy is
    /// brought up to date, so the event that follows finds the device off.
    mutating func shutDownIfBatteryEmpty() {
        guard device.shutDownIfBatteryEmpty(at: now) else { return }
        record(nil, .device, reason: "battery empty: the device shuts down until the charger is connected")
        for id in installed where apps[id].state.hasProcess { endProcess(id, .deviceShutdown) }
        appUnderLock = nil
        reviewEveryApp()
    }

    /// When a simulated battery off the charger runs empty at the present draw, so that hosts wake then and
    /// the device shuts down on time; nil otherwise.
    var emptyBatteryDueTime: Instant? {
        guard device.simulatesBattery, !device.isCharging, !device.isShutDown, device.batteryLevel > 0 else {
            return nil
        }
        let watts = steadyWatts
        guard watts > 0 else { return nil }
        return now + max(0.001, device.batteryLevel * device.battery.capacityJoules / watts)
    }
}

extension SystemEvent {
    /// Whether the event needs the device on: the user's moves, location events and the debugger's calls are
    /// ignored (recorded) while it is off; settings, the charger, pushes (held) and process reports are not.
    var needsDeviceOn: Bool {
        switch self {
        case .open, .home, .lock, .unlock, .openSwitcher, .swipeAway, .interruptionBegan, .interruptionEnded,
            .locationEvent, .simulateLaunch, .simulateExpiration, .cancelContinuedProcessingTask,
            .answerContinuedProcessingQuestion, .notificationTapped:
            true
        default:
            false
        }
    }
}
