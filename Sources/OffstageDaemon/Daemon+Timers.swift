import Logging
import OffstageCore
import OffstageProtocol

/// When the daemon wakes without an event: the core's next due time, resource samples of apps that
/// run (never of frozen ones), device probes while work waits, kills after their grace, log and history writes.
/// With nothing of these, `poll` waits forever: an idle daemon does no work.
extension Daemon {
    /// The earliest of everything due; nil when nothing is.
    func nextWake() -> Instant? {
        var due: [Instant] = []
        if let core = system.nextDueTime { due.append(core) }
        if let flushAt { due.append(flushAt) }
        if let memoryAt { due.append(memoryAt) }
        due += pendingKills.map(\.at)
        for (id, app) in apps where app.process != nil && system.state(of: id) != .suspended {
            due.append(app.sampledAt + configuration.sampleInterval)
        }
        if hasWaitingWork { due.append(lastProbe + configuration.probeInterval) }
        return due.min()
    }

    /// Requests wait or tasks run: the device's state matters now.
    var hasWaitingWork: Bool {
        !system.runningTasks.isEmpty || apps.keys.contains { !system.pendingRequests(of: $0).isEmpty }
    }

    /// Does whatever fell due.
    func fireDueWork() {
        let now = clock.now()
        if let due = system.nextDueTime, due <= now {
            carryOut(system.handle(.tick, at: now))
            afterChange(app: nil)
        }
        for (id, app) in apps where app.process != nil && system.state(of: id) != .suspended {
            if app.sampledAt + configuration.sampleInterval <= now { sample(id) }
        }
        if hasWaitingWork, lastProbe + configuration.probeInterval <= now { probeDevice() }
        killOverdue(at: now)
        if let flushAt, flushAt <= now { flushDecisions() }
        if let memoryAt, memoryAt <= now { saveMemory() }
    }

    /// Measures the app's CPU and memory since the last sample and reports them to the core.
    func sample(_ id: BundleID) {
        guard let app = apps[id], let process = app.process else { return }
        let now = clock.now()
        let (cpu, memory) = control.usage(id, process)
        let used = max(0, cpu - app.cpuSeen)
        apps[id]!.cpuSeen = max(cpu, app.cpuSeen)
        apps[id]!.sampledAt = now
        apps[id]!.memoryBytes = memory
        carryOut(
            system.handle(.resourceUsage(id, ResourceUsage(cpuSeconds: used, interval: now - app.sampledAt)), at: now))
        if memory > 0 { carryOut(system.handle(.setMemoryFootprint(id, bytes: memory), at: now)) }
    }

    /// Reads the device (with the user's overrides on top) and tells the core what changed.
    func probeDevice() {
        let now = clock.now()
        lastProbe = now
        reading = DeviceProbe.read()
        let device = reading.overridden(by: overrides)
        let current = system.device
        if abs(device.batteryLevel - current.batteryLevel) >= 0.005 || device.charging != current.isCharging {
            carryOut(system.handle(.setBattery(level: device.batteryLevel, charging: device.charging), at: now))
        }
        if device.network != current.network { carryOut(system.handle(.setNetwork(device.network), at: now)) }
        if device.thermal != current.thermalState { carryOut(system.handle(.setThermalState(device.thermal), at: now)) }
    }
}
