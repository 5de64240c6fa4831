import Logging
import OffstageCore
import OffstageLinux
import OffstageProtocol

/// When the daemon wakes without an event: the core's next due time, resource samples of apps that
/// run (never of frozen ones), device probes while work waits, kills after their grace, log and history writes.
/// With nothing of these, `poll` waits forever: an idle daemon does no work.
///
/// This runs once per turn of the loop, so after every message: it looks only at the core's due time, the apps
/// with a live process and a few instants of its own, never at every installed app.
extension Daemon {
    /// Does whatever fell due and returns how long the loop may wait for the next (milliseconds, -1: for ever).
    /// Asks the core for its due time and reads the clock once when nothing fell due (every turn that only
    /// answered messages), again when due work may have moved the one or taken time on the other.
    func fireDueWork() -> Int32 {
        var now = clock.now()
        var worked = false
        if clock.followWallClock() {
            logger.notice("the wall clock was set: following it", metadata: ["epoch at zero": "\(clock.epochAtZero)"])
            carryOut(system.handle(.setWallClock(clock.wallClock()), at: now))
            afterChange(app: nil)
            worked = true
        }
        var coreDue = inspect { $0.nextDueTime }
        if let due = coreDue, due <= now {
            carryOut(system.handle(.tick, at: now))
            afterChange(app: nil)
            worked = true
        }
        if let due = nextSampleDue(), due <= now {
            for id in liveApps where inspect({ $0.app(id).state }) != .suspended {
                if let sampledAt = apps[id]?.sampledAt, sampledAt + configuration.sampleInterval <= now { sample(id) }
            }
            worked = true
        }
        if let due = finalSamplesAt, due <= now {
            let owed = finalSamples
            (finalSamples, finalSamplesAt) = ([], nil)
            for id in owed { sample(id) }
            worked = true
        }
        if workMayWait, lastProbe + configuration.probeInterval <= now {
            workMayWait = hasWaitingWork
            if workMayWait { probeDevice() }
            worked = true
        }
        if !pendingKills.isEmpty { killOverdue(at: now) }
        if let flushAt, flushAt <= now {
            flushDecisions()
            worked = true
        }
        if let memoryAt, memoryAt <= now {
            saveMemory()
            worked = true
        }
        if let resumes = acceptingResumesAt, resumes <= now {
            acceptingResumesAt = nil
            worked = true
        }
        if let sweepAt, sweepAt <= now {
            sweepConnections(at: now)
            worked = true
        }
        if worked {
            coreDue = inspect { $0.nextDueTime }
            now = clock.now()
        }
        // The boot clock's timer wakes the loop (it counts time suspended; `poll`'s timeout would not).
        let wake = nextWake(coreDue: coreDue)
        timers.arm(atBootSeconds: wake.map { clock.bootSeconds(at: $0) })
        guard let wake else { return -1 }
        return wake <= now ? 0 : -1
    }

    /// The earliest of everything due, as things stand after this turn's work (`coreDue`: the core's own next
    /// due time); nil when nothing is.
    func nextWake(coreDue: Instant?) -> Instant? {
        var next = coreDue
        func consider(_ time: Instant?) {
            guard let time else { return }
            next = next.map { min($0, time) } ?? time
        }
        consider(nextSampleDue())
        consider(finalSamplesAt)
        if workMayWait { consider(lastProbe + configuration.probeInterval) }
        consider(pendingKills.map(\.at).min())
        consider(flushAt)
        consider(memoryAt)
        consider(sweepAt)
        consider(acceptingResumesAt)
        return next
    }

    /// When the next CPU and memory sample of an app that runs (not suspended) falls due; nil when none runs.
    /// Worked out again only after something that can change it (`samplingChanged`: a sample, a launch, a
    /// freeze or thaw, a process gone or adopted), not at every turn of the loop: that looked up every live app
    /// twice per message.
    func nextSampleDue() -> Instant? {
        if samplingChanged {
            samplingChanged = false
            nextSampleAt = nil
            for id in liveApps where inspect({ $0.app(id).state }) != .suspended {
                guard let due = apps[id].map({ $0.sampledAt + configuration.sampleInterval }) else { continue }
                nextSampleAt = nextSampleAt.map { min($0, due) } ?? due
            }
        }
        return nextSampleAt
    }

    /// Requests wait or tasks run: the device's state matters now. Looks at every app: called when a probe falls
    /// due and after control commands and ticks, not per message (`workMayWait` carries it between).
    var hasWaitingWork: Bool {
        inspect { system in
            !system.runningTasks.isEmpty || apps.keys.contains { !system.app($0).pendingRequests.isEmpty }
        }
    }

    /// Measures the app's CPU and memory since the last sample and reports them to the core.
    func sample(_ id: BundleID) {
        guard let app = apps[id], let process = app.process else { return }
        let now = clock.now()
        let (cpu, memory) = host.usage(id, process)
        let used = max(0, cpu - app.cpuSeen)
        apps[id]!.cpuSeen = max(cpu, app.cpuSeen)
        apps[id]!.sampledAt = now
        apps[id]!.memoryBytes = memory
        samplingChanged = true
        carryOut(
            system.handle(.resourceUsage(id, ResourceUsage(cpuSeconds: used, interval: now - app.sampledAt)), at: now))
        if memory > 0 { carryOut(system.handle(.setMemoryFootprint(id, bytes: memory), at: now)) }
    }

    /// Reads the device (with the user's overrides on top) and tells the core what changed.
    func probeDevice() {
        let now = clock.now()
        lastProbe = now
        reading = host.readDevice()
        logger.debug("probed the device")
        let device = reading.overridden(by: overrides)
        let current = system.device
        if abs(device.batteryLevel - current.batteryLevel) >= 0.005 || device.charging != current.isCharging {
            carryOut(system.handle(.setBattery(level: device.batteryLevel, charging: device.charging), at: now))
        }
        if device.network != current.network { carryOut(system.handle(.setNetwork(device.network), at: now)) }
        if device.thermal != current.thermalState { carryOut(system.handle(.setThermalState(device.thermal), at: now)) }
    }
}

extension DeviceReading {
    /// This reading with the user's overrides on top.
    func overridden(by overrides: DeviceOverrides) -> DeviceReading {
        var result = self
        if let level = overrides.batteryLevel { result.batteryLevel = level }
        if let charging = overrides.charging { result.charging = charging }
        if let network = overrides.network { result.network = network }
        if let thermal = overrides.thermal { result.thermal = thermal }
        return result
    }
}
