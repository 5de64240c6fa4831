import Glibc
import Logging
import OffstageCore
import OffstageLinux
import OffstageProtocol

/// A start after a stop or a crash: the store is read back into the core, and each app process a previous
/// run left alive is adopted (kept under management in the state the core knew) or, if it cannot be, ended.
extension Daemon {
    /// Reads the store back into the core: settings and the device, apps, what the system remembers, live
    /// processes (adopted or cleaned up), then pending requests, so that an eligible request resumes an adopted
    /// process rather than launching another.
    func restore() throws {
        overrides = try store.load(DeviceOverrides.self, key: "deviceOverrides") ?? DeviceOverrides()
        // The device first: restored work is judged on the device as it is (a held push on a critical battery
        // stays held). Before the settings: the first reading is no charge reaching 80 %, and would otherwise turn
        // an acknowledged Low Power Mode off on a device charging above it.
        probeDevice()
        if let settings = try store.load(UserSettings.self, key: "userSettings") {
            system.restoreSettings(settings)
            savedSettings = settings
        }
        let now = clock.now()
        let stored = try store.apps()
        for app in stored {
            var manifest = app.manifest
            if let fresh = try? AppBundle(path: app.path) { manifest = fresh.manifest }
            carryOut(system.install(manifest, at: now))
            apps[app.bundle] = ManagedApp(path: app.path, manifest: manifest)
        }
        if let savedMemory { system.restore(savedMemory) }
        for app in stored { adoptOrCleanUp(app, at: now) }
        for (app, requests) in try store.pending() where apps[app] != nil {
            savedPending[app] = requests
            carryOut(system.restorePending(requests, for: app, at: now))
        }
        // Restored §7 memory (a held push, a fetch schedule) is reviewed now, not at the next event.
        carryOut(system.handle(.tick, at: now))
        syncStore(all: true)
        for row in store.quarantined {
            logger.error(
                "damaged state quarantined (kept in its table 'quarantine'); going on without it",
                metadata: ["file": "\(store.path)", "row": "\(row)"])
        }
        endStrayProcesses()
    }

    /// Ends the processes in groups of this daemon that no installed app's live process accounts for (without
    /// cgroups, those launched for its socket of apps the store does not know): left by a run whose state is lost
    /// (a deleted, truncated or quarantined store), they would otherwise run on unmanaged, or stay stopped.
    private func endStrayProcesses() {
        for (group, pids) in host.endStrayGroups(
            keeping: liveApps, installed: Set(apps.keys), socket: configuration.socketPath)
        {
            logger.error(
                "ending processes left by a run whose state is lost",
                metadata: ["group": "\(group)", "pids": "\(pids)"])
        }
    }

    /// Takes over the app's process a previous run left, if it is still that process and its state is
    /// known; otherwise ends whatever is left of it, and the log says why.
    private func adoptOrCleanUp(_ stored: Store.InstalledApp, at now: Instant) {
        let id = stored.bundle
        guard let recorded = stored.process else {
            return cleanUpLeftovers(id, nil, because: "no live process was recorded")
        }
        guard let memory = stored.processMemory else {
            return cleanUpLeftovers(id, recorded, because: "the state of its process was not recorded")
        }
        // Killed during its launch, the daemon could not deliver the launch's remaining callbacks (the process
        // waits for them, and the core would end it at its first call): ended cleanly; the user or the
        // scheduler launches it again.
        guard memory.launchCompleted else {
            return cleanUpLeftovers(id, recorded, because: "the daemon stopped during its launch")
        }
        if let problem = host.adoptionProblem(id, recorded) {
            return cleanUpLeftovers(id, recorded, because: problem)
        }
        apps[id]!.process = recorded
        liveApps.insert(id)
        samplingChanged = true
        apps[id]!.cpuSeen = host.usage(id, recorded).cpuSeconds
        apps[id]!.sampledAt = now
        // The kernel is made to agree with the core: frozen if it was suspended, running otherwise.
        if memory.state == .suspended { host.freeze(id, recorded) } else { host.thaw(id, recorded) }
        apps[id]!.frozen = memory.state == .suspended
        savedProcessMemory[id] = memory
        logger.notice(
            "adopted a live process left by a previous run",
            metadata: ["app": "\(id)", "pid": "\(recorded.pid)", "state": "\(memory.state.rawValue)"])
        carryOut(system.adoptProcess(id, memory, at: now))
    }

    /// Ends what a previous run left of the app (`AppProcessHost.endLeftovers`: a recycled pid is never signalled)
    /// and forgets the recorded process.
    private func cleanUpLeftovers(_ app: BundleID, _ recorded: AppProcess?, because reason: String) {
        let ended = host.endLeftovers(of: app, recorded: recorded)
        if !ended.isEmpty {
            logger.notice(
                "ending processes left by a previous run instead of adopting them",
                metadata: ["app": "\(app)", "pids": "\(ended)", "reason": "\(reason)"])
        } else if recorded != nil {
            logger.info(
                "the app's recorded process is not adopted", metadata: ["app": "\(app)", "reason": "\(reason)"])
        }
        try? store.saveProcess(nil, of: app)
    }

    /// Writes what the core knows of the app's live process when it changed (nil once it has none), so that
    /// a daemon restarted after a crash can adopt it in that state.
    func syncProcessMemory(of id: BundleID) {
        let memory = liveApps.contains(id) ? inspect { $0.app(id).processMemory } : nil
        guard memory != savedProcessMemory[id] else { return }
        do {
            try store.saveProcessMemory(memory, of: id)
            savedProcessMemory[id] = memory
        } catch { logger.error("cannot save the state of the app's process: \(error)") }
    }
}
