public import Foundation
import OffstageCore

/// `BGTask`: a task the system started. Set `expirationHandler` at once; call `setTaskCompleted(success:)`
/// as soon as the work is done, or the app keeps running until the time is used up.
open class BGTask: NSObject, @unchecked Sendable {
    public let identifier: String
    /// Called shortly before the task's time runs out; cleared once called or once completed.
    open var expirationHandler: (() -> Void)? {
        get { guarded.value.expirationHandler }
        set { guarded.withValue { $0.expirationHandler = newValue } }
    }
    let taskID: Int
    /// The queue the launch handler asked for (nil: the host's background queue); expiration runs there too.
    let queue: DispatchQueue?
    /// The app's runtime; nil once its process ended (a late `setTaskCompleted` then does nothing).
    weak var runtime: AppRuntime?
    /// The expiration handler and whether the task was completed: the handler's queue, the work's thread and
    /// the system's expiration may touch them at once.
    private let guarded = LockedValue<(expirationHandler: (() -> Void)?, completed: Bool)>((nil, false))

    /// Whether `setTaskCompleted(success:)` was called.
    var completed: Bool { guarded.value.completed }

    init(identifier: String, taskID: Int, runtime: AppRuntime, queue: DispatchQueue?) {
        self.identifier = identifier
        self.taskID = taskID
        self.runtime = runtime
        self.queue = queue
        super.init()
    }

    /// Tells the system the work is done; the app is suspended once all its work is done.
    open func setTaskCompleted(success: Bool) {
        let first = guarded.withValue { state in
            state.expirationHandler = nil
            defer { state.completed = true }
            return !state.completed
        }
        guard first, let runtime else { return }
        runtime.send(.setTaskCompleted(taskID: taskID, success: success))
        runtime.forgetTask(taskID)
    }

    /// The expiration handler, cleared in the same step: it is called once, whichever thread expires the task.
    func takeExpirationHandler() -> (() -> Void)? {
        guarded.withValue { state in
            defer { state.expirationHandler = nil }
            return state.expirationHandler
        }
    }

    /// The `BGTask` subclass for the run's kind.
    static func make(for run: TaskRun, runtime: AppRuntime, queue: DispatchQueue?) -> BGTask {
        let name = run.request.identifier
        switch run.request.kind {
        case .appRefresh: return BGAppRefreshTask(identifier: name, taskID: run.id, runtime: runtime, queue: queue)
        case .processing where run.request.protectionTypeOfRequiredData != nil:
            return BGHealthResearchTask(identifier: name, taskID: run.id, runtime: runtime, queue: queue)
        case .processing: return BGProcessingTask(identifier: name, taskID: run.id, runtime: runtime, queue: queue)
        case .continuedProcessing:
            return BGContinuedProcessingTask(
                identifier: name, taskID: run.id, runtime: runtime, queue: queue, title: run.request.title,
                subtitle: run.request.subtitle)
        }
    }
}

/// `BGAppRefreshTask`: up to 30 s to fetch fresh content.
open class BGAppRefreshTask: BGTask, @unchecked Sendable {}

/// `BGProcessingTask`: minutes of deferrable work while the device is idle; expired when the user returns.
open class BGProcessingTask: BGTask, @unchecked Sendable {}

/// `BGHealthResearchTask` (iOS 17): a processing task for a health research study the person takes part in.
open class BGHealthResearchTask: BGProcessingTask, @unchecked Sendable {}

/// `BGContinuedProcessingTask` (iOS 26): user-started work with measurable progress, shown by the system.
open class BGContinuedProcessingTask: BGTask, ProgressReporting, @unchecked Sendable {
    private let texts: LockedValue<(title: String, subtitle: String)>
    /// What the system UI shows.
    public var title: String { texts.value.title }
    public var subtitle: String { texts.value.subtitle }
    /// Report progress here; the system watches it.
    public let progress: Progress

    init(
        identifier: String, taskID: Int, runtime: AppRuntime, queue: DispatchQueue?, title: String, subtitle: String
    ) {
        texts = LockedValue((title, subtitle))
        let progress = ReportedProgress(parent: nil, userInfo: nil)
        self.progress = progress
        super.init(identifier: identifier, taskID: taskID, runtime: runtime, queue: queue)
        progress.report = { [weak self] (completed: Int64, total: Int64) in
            guard let self, !self.completed else { return }
            self.runtime?.send(.reportProgress(taskID: self.taskID, completed: completed, total: total))
        }
    }

    /// Changes what the system UI shows.
    open func updateTitle(_ title: String, subtitle: String) {
        texts.value = (title, subtitle)
        runtime?.send(.updateTitle(taskID: taskID, title: title, subtitle: subtitle))
    }
}

/// A `Progress` that tells the system every change of its unit counts.
final class ReportedProgress: Progress, @unchecked Sendable {
    var report: ((Int64, Int64) -> Void)?
    override var completedUnitCount: Int64 { didSet { report?(completedUnitCount, totalUnitCount) } }
    override var totalUnitCount: Int64 { didSet { report?(completedUnitCount, totalUnitCount) } }
}
