/// What the system's progress UI (the Live Activity of iOS 26) shows for one continued-processing task:
/// its title, subtitle and progress while it runs, then its outcome until it dismisses itself.
public struct ContinuedProcessingUI: Hashable, Sendable, Codable {
    /// How a task ended, as the UI tells the user.
    public enum Outcome: String, Hashable, Sendable, Codable, CaseIterable {
        case completed = "completed successfully"
        case failed
        case cancelledByUser = "cancelled by the user"
        case expired
    }

    public var app: BundleID
    public var taskID: Int
    public var identifier: String
    public var title: String
    public var subtitle: String
    /// Units done and units in all, as the task's `progress` reports them.
    public var progressCompleted: Int64
    public var progressTotal: Int64
    /// The question the system is asking the user about this task, while it waits for an answer.
    public var question: String?
    /// How the task ended; nil while it runs.
    public var outcome: Outcome?
    /// When the UI dismisses itself; set once it shows an outcome.
    public var dismissAt: Instant?

    /// Progress as a fraction 0–1 (`progressCompleted / progressTotal`); 0 while the total is unknown.
    public var fraction: Double {
        progressTotal > 0 ? min(1, max(0, Double(progressCompleted) / Double(progressTotal))) : 0
    }

    /// A UI with every member given: one a host read back (from the wire or a report).
    public init(
        app: BundleID, taskID: Int, identifier: String, title: String, subtitle: String, progressCompleted: Int64,
        progressTotal: Int64, question: String? = nil, outcome: Outcome? = nil, dismissAt: Instant? = nil
    ) {
        self.app = app
        self.taskID = taskID
        self.identifier = identifier
        self.title = title
        self.subtitle = subtitle
        self.progressCompleted = progressCompleted
        self.progressTotal = progressTotal
        self.question = question
        self.outcome = outcome
        self.dismissAt = dismissAt
    }

    /// The UI of a task as it runs now.
    init(_ run: TaskRun, question: String? = nil) {
        app = run.app
        taskID = run.id
        identifier = run.request.identifier
        title = run.request.title
        subtitle = run.request.subtitle
        progressCompleted = run.progressCompleted
        progressTotal = run.progressTotal
        self.question = question
    }
}

/// The user's answer when the system asks whether a slow continued-processing task should go on.
public enum SlowTaskAnswer: String, Hashable, Sendable, Codable, CaseIterable {
    /// Let it run; the system does not ask again.
    case proceed = "continue"
    /// Stop it: its expiration handler runs.
    case stop
}

/// The CPU priority the host gives an app's process (SPEC §5 "Foreground first"): background work
/// yields to the app on screen, and a continued-processing task's work is boosted while its app is on screen.
public enum CPUPriority: String, Hashable, Sendable, Codable, CaseIterable {
    /// The app on screen, running a continued-processing task: the task's work, which runs at background
    /// QoS otherwise, gets the foreground app's priority. A host that weighs whole processes treats it as
    /// `foreground`; one that sees threads raises the task's work too.
    case boosted
    /// The app on screen.
    case foreground
    /// Off screen while no app is on screen (home screen, locked): background QoS, not lowered further.
    case normal
    /// Off screen while an app is on screen: lowered, so that the person's app comes first.
    case background
}
