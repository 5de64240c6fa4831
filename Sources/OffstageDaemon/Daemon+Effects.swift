import Foundation
import Glibc
import Logging
import OffstageCore
import OffstageLinux
import OffstageProtocol

/// Carrying out the core's effects on real processes: launch, deliver, freeze, thaw, kill, record;
/// and telling the core when a process ended by itself.
extension Daemon {
    /// Carries out `effects` in order, but freezes and thaws first; effects they cause (a launch that fails) follow.
    /// `decidedAt` is when the core returned them, if the caller took it (`freezerDecisionTime`, 0 when none
    /// freezes or thaws); it times freezes and thaws. A freeze or thaw goes ahead of the records and messages
    /// around it (a thaw came after two records, whose first run after a quiet spell took microseconds): the
    /// kernel acts on the whole group at once, so nothing in the batch needs to come before it.
    func carryOut(_ effects: [Effect], decidedAt: UInt64? = nil) {
        if memoryAt == nil { memoryAt = clock.now() + configuration.memorySaveInterval }
        let decided = decidedAt ?? Self.freezerDecisionTime(effects) ?? 0
        if decided != 0 {
            for effect in effects where effect.freezesOrThaws { _ = perform(effect, decidedAt: decided) }
        }
        var queue = effects[...]
        while let effect = queue.popFirst() {
            if decided != 0 && effect.freezesOrThaws { continue }
            // Appending even nothing to the slice, which shares `effects`' storage, copied it at every call.
            let caused = perform(effect, decidedAt: decided)
            if !caused.isEmpty { queue += caused }
        }
    }

    /// The monotonic time now if `effects` freeze or thaw an app (nil otherwise: no clock read per message).
    static func freezerDecisionTime(_ effects: [Effect]) -> UInt64? {
        effects.contains(where: \.freezesOrThaws) ? DaemonClock.monotonicNanos() : nil
    }

    /// Does one effect; returns the effects of any event it caused.
    private func perform(_ effect: Effect, decidedAt: UInt64) -> [Effect] {
        switch effect {
        case .launch(let id, let reason):
            return launch(id, reason)
        case .startTask(let id, _):
            workMayWait = true
            send(.effect(effect: effect), toApp: id)
        case .deliver(let id, let callback, _):
            if callback == .willTerminate, apps[id]?.process != nil { apps[id]!.ending = true }
            send(.effect(effect: effect), toApp: id)
        case .expireTask(let id, _), .expireBackgroundTasks(let id, _), .deliverBackgroundEvent(let id, _, _),
            .presentNotification(let id, _):
            send(.effect(effect: effect), toApp: id)
        case .suspend(let id):
            guard let process = apps[id]?.process else { break }
            let writingAt = DaemonClock.monotonicNanos()
            host.freeze(id, process)
            lastFreezerAction = FreezerAction(
                app: id, frozen: true, decidedAt: decidedAt, writingAt: writingAt,
                writtenAt: DaemonClock.monotonicNanos())
            setFrozen(true, app: id)
            // Its last sample waits until the freeze has taken effect: a frozen process uses no more CPU, and
            // reading it at once held its freezing back by tens of microseconds.
            finalSamples.append(id)
            samplingChanged = true
            if finalSamplesAt == nil { finalSamplesAt = clock.now() + finalSampleDelay }
        case .resume(let id):
            guard let process = apps[id]?.process else { break }
            let writingAt = DaemonClock.monotonicNanos()
            host.thaw(id, process)
            lastFreezerAction = FreezerAction(
                app: id, frozen: false, decidedAt: decidedAt, writingAt: writingAt,
                writtenAt: DaemonClock.monotonicNanos())
            setFrozen(false, app: id)
            if let owed = finalSamples.firstIndex(of: id) {
                finalSamples.remove(at: owed)
                sample(id)
            }
            apps[id]!.sampledAt = clock.now()
            samplingChanged = true
        case .terminate(let id, let reason):
            end(id, because: "\(reason)")
            return openIfAskedWhileEnding(id)
        case .record(let record):
            note(record)
        case .askUser(let id, _, let question):
            // The question waits in the progress UI (`ctl watch`) until the user answers it there.
            logger.notice("asking the user", metadata: ["app": "\(id)", "question": "\(question)"])
        case .setCPUPriority(let id, let priority):
            guard let process = apps[id]?.process else { break }
            host.setPriority(id, process, priority)
        }
        return []
    }

    /// Starts the app's executable in its groups; a failure is the process exiting at once.
    private func launch(_ id: BundleID, _ reason: LaunchReason) -> [Effect] {
        guard let app = apps[id] else { return [] }
        if let old = app.process { end(id, because: "replaced by a new launch", process: old) }
        let bundle: AppBundle
        do { bundle = try AppBundle(path: app.path) } catch {
            logger.error("cannot launch", metadata: ["app": "\(id)", "error": "\(error)"])
            return system.handle(.processExited(id, reason: "\(error)"), at: clock.now())
        }
        let process: AppProcess
        do {
            let user = try user(of: id, bundle: bundle)
            process = try host.launch(
                id, executable: bundle.executablePath,
                environment: AppEnvironment.variables(
                    for: id, bundle: bundle, user: user, socket: configuration.socketPath, reason: reason),
                logPath: "\(configuration.stateDirectory)/logs/\(id.rawValue).log", as: user)
        } catch {
            logger.error("cannot launch", metadata: ["app": "\(id)", "error": "\(error)"])
            return system.handle(.processExited(id, reason: "\(error)"), at: clock.now())
        }
        let pid = process.pid
        apps[id]!.process = process
        liveApps.insert(id)
        samplingChanged = true
        apps[id]!.connection = nil
        apps[id]!.cpuSeen = 0
        apps[id]!.sampledAt = clock.now()
        savedProcessMemory[id] = nil
        try? store.saveProcess(process, of: id)
        logger.info("launched", metadata: ["app": "\(id)", "pid": "\(pid)", "reason": "\(reason.rawValue)"])
        return []
    }

    /// Marks the app's process frozen or thawed, so that nothing is written to it while frozen, and writes what
    /// waited once thawed. A SIGSTOP stops a process only when the one thread the kernel woke for it runs: its
    /// other threads may run on meanwhile, and an answer written at once was read before the app stopped
    /// (a cgroup freezer stops every thread before returning, yet the answer would still wait in the socket).
    func setFrozen(_ frozen: Bool, app id: BundleID) {
        apps[id]?.frozen = frozen
        guard let fd = apps[id]?.connection, let connection = connections[fd] else { return }
        connection.frozen = frozen
        if !frozen { flush(connection) }
    }

    /// The user the app runs as: the one of `--app-user`, its own of `--app-uids`, else (the daemon being root)
    /// the owner of its bundle folder; nil: the daemon's own. Root is refused unless `allowRootApps`.
    private func user(of id: BundleID, bundle: AppBundle) throws -> AppUser? {
        let chosen: AppUser?
        if let user = configuration.appUser {
            chosen = user
        } else if let range = configuration.appUIDs {
            let uid = try store.userID(of: id, in: range)
            chosen = AppUser(uid: uid, gid: uid)
        } else if getuid() == 0 {
            chosen = try bundle.owner()
        } else {
            chosen = nil
        }
        guard (chosen?.uid ?? getuid()) != 0 || configuration.allowRootApps else {
            throw DaemonError(
                .refused,
                "\(bundle.path): the app would run as root (its owner, or --app-user): refused; give the bundle "
                    + "folder to the app's own user, or choose one with --app-user or --app-uids "
                    + "(--allow-root-apps lets it run as root)")
        }
        return chosen
    }

    /// Ends the app's process (the core has already let it go).
    func end(_ id: BundleID, because reason: String, process given: AppProcess? = nil) {
        guard let process = given ?? apps[id]?.process else { return }
        sample(id)
        logger.info("ending", metadata: ["app": "\(id)", "pid": "\(process.pid)", "reason": "\(reason)"])
        dying[process.pid] = id
        if !host.terminate(id, process) {
            pendingKills.append((id, process, clock.now() + configuration.killGrace))
        }
        forgetProcess(id)
    }

    /// The effects of opening the app if the user opened it while it was ending (`ManagedApp.openWhenEnded`), once
    /// its process has ended: the open was queued, not dropped.
    private func openIfAskedWhileEnding(_ id: BundleID) -> [Effect] {
        guard apps[id]?.openWhenEnded == true, apps[id]?.process == nil else { return [] }
        apps[id]!.openWhenEnded = false
        logger.info("opening the app the user opened while it was ending", metadata: ["app": "\(id)"])
        return system.handle(.open(id), at: clock.now())
    }

    /// Drops what the daemon kept for the app's process (its connection stays until it closes).
    private func forgetProcess(_ id: BundleID) {
        apps[id]?.process = nil
        apps[id]?.frozen = false
        apps[id]?.ending = false
        liveApps.remove(id)
        samplingChanged = true
        apps[id]?.memoryBytes = 0
        apps[id]?.outbox = []
        apps[id]?.connection = nil
        savedProcessMemory[id] = nil
        try? store.saveProcess(nil, of: id)
    }

    /// A child exited: if it was an app's live process, the core learns it ended by itself.
    func childExited(_ pid: Int32, how: String) {
        if let id = dying.removeValue(forKey: pid) {
            pendingKills.removeAll { $0.process.pid == pid }
            if let process = apps[id]?.process, process.pid == pid { forgetProcess(id) }
            return
        }
        guard let (id, app) = apps.first(where: { $0.value.process?.pid == pid }), let process = app.process else {
            return
        }
        logger.info("app process exited", metadata: ["app": "\(id)", "pid": "\(pid)", "how": "\(how)"])
        if host.freezer == .signals { host.killNow(id, process) } else { host.terminate(id, process) }
        forgetProcess(id)
        carryOut(system.handle(.processExited(id, reason: how), at: clock.now()) + openIfAskedWhileEnding(id))
        afterChange(app: id)
    }

    /// Sends SIGKILL to processes whose SIGTERM grace is over.
    func killOverdue(at now: Instant) {
        let due = pendingKills.filter { $0.at <= now }
        pendingKills.removeAll { $0.at <= now }
        for entry in due { host.killNow(entry.app, entry.process) }
    }

    // MARK: Records and the store

    /// Keeps a decision for the log (`DecisionBuffer`: written within a second) and the debug log. Nothing is
    /// formatted here: this runs for every call an app makes, and the log is written in batches.
    private func note(_ record: Record) {
        decisions.append(record)
        if flushAt == nil { flushAt = clock.now() + 1 }
        logger.debug(
            "\(record.kind.rawValue): \(record.reason)",
            metadata: ["app": "\(record.app?.rawValue ?? "-")", "task": "\(record.task ?? "-")"])
    }

    /// Writes the decisions kept since the last write, with their wall-clock times, in one transaction; then gives
    /// back to the kernel what the work since the last write freed (at most once a second while work goes on).
    func flushDecisions() {
        flushAt = nil
        guard !decisions.isEmpty else { return }
        let wallClock = system.wallClock
        do {
            try store.log(
                decisions.take().map { (wallClock.timestamp(at: $0.at), $0) }, limit: configuration.decisionLogLimit)
        } catch {
            logger.error("cannot write the decision log: \(error)")
        }
        HeapTrim.now()
    }

    /// After anything that may change state: the store follows the live processes' state, the pending requests
    /// and settings (of `app` only, for an app's call).
    func afterChange(app: BundleID?) {
        syncStore(all: app == nil, only: app)
        if app == nil { workMayWait = hasWaitingWork }
    }

    /// Writes what the system remembers (usage, cooperation, budgets, energy), if it changed since last written.
    func saveMemory() {
        memoryAt = nil
        let snapshot = SystemSnapshot(of: system)
        if var unchanged = savedMemory {
            unchanged.takenAt = snapshot.takenAt
            if unchanged == snapshot { return }
        }
        do {
            try store.saveMemory(snapshot, previous: savedMemory, clockOrigin: clock.epochAtZero)
            savedMemory = snapshot
        } catch { logger.error("cannot save the usage history, budgets and energy ledger: \(error)") }
    }

    /// Writes the live processes' state, pending requests and settings (with `all`) that changed since they were
    /// last written.
    func syncStore(all: Bool, only app: BundleID? = nil) {
        if all {
            for id in apps.keys { syncStore(of: id) }
        } else if let app {
            syncStore(of: app)
        }
        // Settings change by events only, never by an app's call: an app's call does not look at them.
        if all, system.settings != savedSettings {
            do {
                try store.save(system.settings, as: "userSettings")
                savedSettings = system.settings
            } catch { logger.error("cannot save settings: \(error)") }
        }
    }

    /// Writes the app's live process state and pending requests if they changed (this runs after every call an
    /// app makes: with nothing pending before or after, it compares nothing more).
    private func syncStore(of id: BundleID) {
        syncProcessMemory(of: id)
        let requests = inspect { $0.app(id).pendingRequests }
        if requests.isEmpty {
            if savedPending[id]?.isEmpty ?? true { return }
        } else {
            workMayWait = true
        }
        let pending = requests.filter { $0.kind != .continuedProcessing }
        guard pending != savedPending[id, default: []] else { return }
        do {
            try store.savePending(pending, of: id)
            savedPending[id] = pending
        } catch { logger.error("cannot save pending requests: \(error)") }
    }
}

/// Seconds between freezing an app and taking its last sample (see `Daemon.finalSamples`): the kernel has long
/// finished freezing it by then (tens of microseconds), and the CPU it used is still counted to the right instant.
let finalSampleDelay = 0.005

extension Effect {
    /// A freeze or a thaw (`.suspend`, `.resume`): carried out first and timed.
    fileprivate var freezesOrThaws: Bool {
        switch self {
        case .suspend, .resume: true
        default: false
        }
    }
}
