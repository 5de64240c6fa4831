/// What the system's monitors remember between entry points: the progress of continued-processing tasks
/// and their UI, the CPU priorities last sent to hosts, and recent CPU reports of background apps.
struct Monitors: Sendable {
    /// Running continued-processing tasks whose UI is shown, by task ID.
    var progress: [Int: ProgressWatch] = [:]
    /// Progress UIs showing an outcome until they dismiss themselves, oldest first.
    var finishedUI: [ContinuedProcessingUI] = []
    /// The CPU priority last sent for each app whose process may use the CPU.
    var cpuPriority: [BundleID: CPUPriority] = [:]
    /// The CPU monitor's sliding window of each background app it watches.
    var cpuWindows: [BundleID: CPUWindow] = [:]
}

/// One running continued-processing task as the progress monitor follows it.
struct ProgressWatch: Sendable {
    /// The task as the monitor last saw it (kept to show its outcome if it dies with its app).
    var run: TaskRun
    /// When the progress last moved, or the task was handed to the app; nil until it is handed over.
    var movedAt: Instant?
    /// The user tapped cancel in the UI.
    var cancelledByUser = false
    var question: Question = .notAsked

    /// Where the system's "continue?" question stands.
    enum Question: Sendable, Equatable {
        case notAsked
        /// Asked with this text; waiting for the user.
        case asked(String)
        /// The user answered: never asked again.
        case answered
    }
}

/// The CPU reports of one background app since the monitor started watching it, recent ones only.
struct CPUWindow: Sendable {
    /// CPU time a host reported over an interval ending at `end`.
    struct Report: Sendable {
        var end: Instant
        var interval: Double
        var cpuSeconds: Double

        /// The CPU seconds of this report that fall after `start`, assuming an even use over its interval.
        func cpuSeconds(after start: Instant) -> Double {
            guard end > start else { return 0 }
            guard interval > 0 else { return cpuSeconds }
            return cpuSeconds * min(1, (end - start) / interval)
        }
    }

    /// The start of the first report since the monitor began watching: it judges only a full window.
    var since: Instant
    /// Reports that end inside the window, oldest first.
    var reports: [Report] = []
}
