/// What the system knows of an app's live process that a restarted host needs to take it over (the daemon
/// after `kill -9`): its life-cycle state, why it was launched, whether its launch finished, the launch
/// handlers it registered and the continuous background modes at work. Work in flight (a callback, assertions,
/// tasks, push and fetch deliveries) is not kept: it dies with the system that started it.
public struct ProcessMemory: Hashable, Sendable, Codable {
    public var state: AppState
    public var launchReason: LaunchReason
    /// `didFinishLaunching` had returned: registering exact identifiers now crashes, as before the restart.
    public var launchCompleted: Bool
    public var registered: Set<String>
    public var activeModes: Set<BackgroundMode>

    public init(
        state: AppState, launchReason: LaunchReason = .user, launchCompleted: Bool = true,
        registered: Set<String> = [], activeModes: Set<BackgroundMode> = []
    ) {
        self.state = state
        self.launchReason = launchReason
        self.launchCompleted = launchCompleted
        self.registered = registered
        self.activeModes = activeModes
    }
}

/// Taking over live processes after a restart of the host: the restored system adopts each one in the state
/// it remembers instead of launching it again. Not a launch: no callback is delivered and no launch is counted.
extension BackgroundSystem {
    /// Takes over a live process of `id` that a previous run of the host started, as `memory` remembers it:
    /// a suspended process stays suspended; a background one gets its background time anew (and is suspended at
    /// once if nothing keeps it running); the app on screen stays on screen, unless another app already is, in
    /// which case it is sent to the background. Call it after `restore(_:)` and before `restorePending`.
    public mutating func adoptProcess(_ id: BundleID, _ memory: ProcessMemory, at time: Instant) -> [Effect] {
        begin(at: time)
        guard apps.contains(id), !apps[id].state.hasProcess, memory.state.hasProcess else {
            record(id, .log, reason: "cannot adopt a process: the app is not installed, already runs, or none was left")
            return finish()
        }
        var app = apps[id]
        app.lifecycle.adopt(memory, at: now)
        app.backgroundEvents.adoptActiveModes(memory.activeModes)
        let onScreen = memory.state.isForeground && foregroundApp == nil
        if onScreen {
            app.judgementHistory.noteCameBack(at: now)
            foregroundApp = id
        }
        apps[id] = app
        record(
            id, .adopted,
            reason: "the live process of a previous run was adopted: \(memory.state.rawValue)"
                + (memory.state == .suspended ? ", still frozen" : ""))
        if memory.state.isForeground && !onScreen { carryOut(apps[id].lifecycle.leaveScreen(), for: id) }
        return finish()
    }
}
