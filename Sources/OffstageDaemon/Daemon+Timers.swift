import Logging
import OffstageCore
import OffstageProtocol

/// When the daemon wakes without an event: the core's next due time, resource samples of apps that
/// run (never of frozen ones), device probes while work waits, kills after their grace, log and history writes.
/// With nothing of these, `poll` waits forever: an idle daemon does no work.
///
/// This runs once per turn of the loop, so after every message: it looks only at the core's due time, the apps
/// with a live process and a few instants of its own, never at every installed app.
extension Daemon {
    /// Does whatever fell due and returns when the loop must wake next; nil when nothing is due.
    func fireDueWork() -> Instant? {
        let now = clock.now()
        if let due = inspect({ $0.nextDueTime }), due <= now {
            carryOut(system.handle(.tick, at: now))
            afterChange(app: nil)
        }
        for id in liveApps where inspect({ $0.state(of: id) }) != .suspended {
            if let sampledAt = apps[id]?.sampledAt, sampledAt + configuration.sampleInterval <= now { sample(id) }
        }
        if let due = finalSamplesAt, due <= now {
            let owed = finalSamples
            (finalSamples, finalSamplesAt) = ([], nil)
            for id in owed { sample(id) }
        }
        if workMayWait, lastProbe + configuration.probeInterval <= now {
            workMayWait = hasWaitingWork
            if workMayWait { probeDevice() }
        }
        if !pendingKills.isEmpty { killOverdue(at: now) }
        if let flushAt, flushAt <= now { flushDecisions() }
        if let memoryAt, memoryAt <= now { saveMemory() }
        return nextWake()
    }

    /// The earliest of everything due, as things stand after this turn's work; nil when nothing is.
    func nextWake() -> Instant? {
        var next = inspect { $0.nextDueTime }
        func consider(_ time: Instant?) {
            guard let time else { return }
            next = next.map { min($0, time) } ?? time
        }
        for id in liveApps where inspect({ $0.state(of: id) }) != .suspended {
            consider(apps[id].map { $0.sampledAt + configuration.sampleInterval })
        }
        consider(finalSamplesAt)
        if workMayWait { consider(lastProbe + configuration.probeInterval) }
        consider(pendingKills.map(\.at).min())
        consider(flushAt)
        consider(memoryAt)
        return next
    }

    /// Requests wait or tasks run: the device's state matters now. Looks at every app: called when a probe falls
    /// due and after control commands and ticks, not per message (`workMayWait` carries it between).
    var hasWaitingWork: Bool {
        inspect { system in
            !system.runningTasks.isEmpty || apps.keys.contains { !system.pendingRequests(of: $0).isEmpty }
        }
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
