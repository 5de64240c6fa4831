/// The routing to the monitors (`Monitors`): the supervision pass at the end of `settle()` and every input
/// (`MonitorInput`: the hosts' resource reports, the app's work reports, a process's end, a completed
/// continued-processing task, the user in the progress UI, the CPU monitor's deadline); each hands the monitors
/// what they read and carries out the actions they return.
extension BackgroundSystem {
    /// The progress UI of every running continued-processing task and of finished ones still showing their
    /// outcome, in the order the tasks started. `updateTitle(_:subtitle:)` and reported progress show at once.
    public var progressUI: [ContinuedProcessingUI] { monitors.progress.ui(running: continuedRuns) }

    /// Runs the monitors over the reviewed `ids`, the last pass of `settle()`: the progress monitor, then each
    /// app's idle CPU window, the memory limit, and the CPU priorities, which follow the final state. When the
    /// memory limit ends a process, the ending marks the app for review, so `settle` reviews and supervises again.
    mutating func superviseRunningWork(_ ids: AppSet) {
        handleMonitors(.progressDue(running: continuedRuns))
        for position in ids { monitors.forgetWindowIfIdle(of: apps[apps.id(at: position)], onScreen: foregroundApp) }
        for position in ids { handleMonitors(.memoryCheckDue(apps.id(at: position))) }
        for position in ids {
            let id = apps.id(at: position)
            if let changed = monitors.updateCPUPriority(of: apps[id], onScreen: foregroundApp) {
                emit(.setCPUPriority(id, changed))
            }
        }
    }

    /// Hands the monitors `input` with the record of the app it is about, and carries out what they return in
    /// their order: records, expirations, questions, kills; whether one killed an app.
    @discardableResult
    mutating func handleMonitors(_ input: MonitorInput) -> Bool {
        let app = input.app.flatMap { apps.lookUp($0) }
        var killed = false
        for action in monitors.take(input, app: app, onScreen: foregroundApp, now: now, policy: policy) {
            switch action {
            case .note(let id, let kind, let task, let words):
                record(id, kind, task: task, reason: words)
            case .expire(let id, let taskID, let cause):
                expire(id, taskID, cause)
            case .askUser(let id, let taskID, let question):
                emit(.askUser(id, taskID: taskID, question: question))
            case .kill(let id, let words, let reason):
                record(id, .resourceLimit, reason: words)
                carryOut(apps[id].lifecycle.terminate(reason), for: id)
                killed = true
            }
        }
        return killed
    }
}
