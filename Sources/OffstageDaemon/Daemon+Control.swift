import Foundation
import Logging
import OffstageCore
import OffstageLinux
import OffstageProtocol

/// The answers to `offstage ctl`: installing apps, user and device events, and the views
/// (apps, tasks with why they wait, the decision log, status).
extension Daemon {
    func answer(_ command: ControlCommand) throws(DaemonError) -> ControlReply {
        let now = clock.now()
        switch command {
        case .install(let path):
            let bundle = try AppBundle(path: path)
            let id = bundle.manifest.bundleIdentifier
            let effects = system.install(bundle.manifest, at: now)
            let old = apps[id]
            apps[id] = ManagedApp(
                path: path, manifest: bundle.manifest, process: old?.process, connection: old?.connection)
            do {
                try store.saveApp(
                    Store.InstalledApp(bundle: id, path: path, manifest: bundle.manifest),
                    at: system.wallClock.epoch(at: now))
            } catch { throw DaemonError(.store, "cannot save the app: \(error)") }
            carryOut(effects)
            return .ok(message: "installed \(id) from \(path)")
        case .event(let event):
            if let app = event.app, apps[app] == nil { throw DaemonError(.refused, "\(app) is not installed") }
            if case .open(let app) = event, apps[app]!.ending {
                // Given to the core now, the open would end with the process (its callbacks are dropped with it).
                apps[app]!.openWhenEnded = true
                return .ok(message: "\(app) is ending (applicationWillTerminate): it opens once its process has ended")
            }
            let effects = system.handle(event, at: now)
            carryOut(effects)
            // A push the system holds lives only in its memory: written at once, not a save interval later.
            if case .backgroundPush = event { saveMemory() }
            return .records(
                records: effects.records.map { LoggedRecord(time: system.wallClock.timestamp(at: $0.at), record: $0) })
        case .tap(let app, let action):
            guard let installed = apps[app] else { throw DaemonError(.refused, "\(app) is not installed") }
            let controls = try AppBundle(path: installed.path).controls
            guard controls.contains(action) else {
                throw DaemonError(
                    .refused,
                    controls.isEmpty
                        ? "\(app) has no control '\(action)': it declares no controls (OffstageControls in its "
                            + "Info.plist)"
                        : "\(app) has no control '\(action)'; its controls: \(controls.joined(separator: ", "))")
            }
            let state = system.app(app).state
            guard state == .active else {
                throw DaemonError(.refused, "\(app) is not on screen (it is \(state.rawValue)); open it first")
            }
            send(.userAction(action: action), toApp: app)
            return .ok(message: "tapped \(action) in \(app)")
        case .device(let newer, let reset):
            if reset { overrides = DeviceOverrides() }
            overrides = overrides.merged(with: newer)
            do { try store.save(overrides, as: "deviceOverrides") } catch {
                throw DaemonError(.store, "cannot save: \(error)")
            }
            if let bytes = newer.memoryPressureBytes { carryOut(system.handle(.memoryPressure(bytes: bytes), at: now)) }
            probeDevice()
            let device = system.device
            return .ok(
                message:
                    "battery \(Int((device.batteryLevel * 100).rounded()))%\(device.isCharging ? " charging" : ""), "
                    + "network \(device.network.rawValue), thermal \(device.thermalState.rawValue)")
        case .apps:
            return .apps(apps: installedApps())
        case .tasks:
            return .tasks(tasks: system.explain().map(taskInfo))
        case .why(let app, let limit):
            flushDecisions()
            do {
                return .records(records: fitting(try store.decisions(for: app, limit: min(max(limit, 1), 500))))
            } catch {
                throw DaemonError(.store, "cannot read the decision log: \(error)")
            }
        case .status:
            return .status(status: status())
        case .progress:
            return .progress(tasks: system.progressUI)
        }
    }

    /// The newest of `records` whose answer fits in a frame (long names made the whole answer too large).
    private func fitting(_ records: [LoggedRecord]) -> [LoggedRecord] {
        var kept = records[...]
        var scratch: [UInt8] = []
        while !kept.isEmpty {
            scratch.removeAll(keepingCapacity: true)
            if (try? Frame.append(ServerMessage.reply(id: 0, reply: .records(records: Array(kept))), to: &scratch))
                != nil
            {
                break
            }
            kept = kept.dropFirst(max(1, kept.count / 4))
        }
        return Array(kept)
    }

    func installedApps() -> [AppInfo] {
        system.installed.compactMap { id in
            guard let app = apps[id] else { return nil }
            let status = system.app(id)
            return AppInfo(
                bundle: id, path: app.path, state: status.state, pid: app.process?.pid,
                frozen: app.process.map { host.isFrozen(id, $0) }, forceQuit: status.isForceQuit,
                cpuSeconds: status.totalUsage.cpuSeconds, memoryBytes: app.memoryBytes,
                usageTier: status.usageTier.rawValue, launches: status.usage.launches.count,
                cooperation: status.cooperation.score, energyJoules: system.energy.totals[.app(id)]?.total ?? 0)
        }
    }

    func taskInfo(_ status: RequestStatus) -> TaskInfo {
        var info = TaskInfo(
            bundle: status.app, identifier: status.request.identifier, kind: status.request.kind, phase: "pending",
            waitingFor: status.blockers.map { $0.explained(on: system.wallClock) }, title: status.request.title,
            subtitle: status.request.subtitle, progressCompleted: 0, progressTotal: 0, expired: false)
        switch status.phase {
        case .pending: break
        case .queued(let position): info.phase = "queued \(position)"
        case .running(let run):
            info.phase = run.delivered ? "running" : "starting"
            info.progressCompleted = run.progressCompleted
            info.progressTotal = run.progressTotal
            info.expired = run.expiredAt != nil
        }
        return info
    }

    func status() -> DaemonStatus {
        DaemonStatus(
            pid: getpid(), protocolVersion: Frame.version, uptimeSeconds: uptime, freezer: host.freezer.rawValue,
            socket: configuration.socketPath, stateDirectory: configuration.stateDirectory, device: system.device,
            overrides: overrides, settings: system.settings, loadAverage: reading.loadAverage,
            memoryPressure: reading.memoryPressure, installedApps: apps.count,
            runningApps: apps.values.filter { $0.process != nil }.count,
            nextDueIn: system.nextDueTime.map { $0 - clock.now() }, memoryWritePending: memoryAt != nil,
            lastFreezerAction: lastFreezerAction)
    }
}
