public import Foundation
import OffstageCore

/// `BGTask`: a task the system started. Set `expirationHandler` at once; call `setTaskCompleted(success:)`
/// as soon as the work is done, or the app keeps running until the time is used up.
open class BGTask: NSObject, @unchecked Sendable {
    public let identifier: String
    /// Called shortly before the task's time runs out; cleared once called or once completed.
    open var expirationHandler: (() -> Void)?
    let taskID: Int
    unowned let runtime: AppRuntime
    var completed = false

    init(identifier: String, taskID: Int, runtime: AppRuntime) {
        self.identifier = identifier
        self.taskID = taskID
        self.runtime = runtime
        super.init()
    }

    /// Tells the system the work is done; the app is suspended once all its work is done.
    open func setTaskCompleted(success: Bool) {
        expirationHandler = nil
        guard !completed else { return }
        completed = true
        runtime.send(.setTaskCompleted(taskID: taskID, success: success))
    }

    /// The `BGTask` subclass for the run's kind.
    static func make(for run: TaskRun, runtime: AppRuntime) -> BGTask {
        let name = run.request.identifier
        switch run.request.kind {
        case .appRefresh: return BGAppRefreshTask(identifier: name, taskID: run.id, runtime: runtime)
        case .processing: return BGProcessingTask(identifier: name, taskID: run.id, runtime: runtime)
        case .continuedProcessing:
            return BGContinuedProcessingTask(
                identifier: name, taskID: run.id, runtime: runtime, title: run.request.title,
                subtitle: run.request.subtitle)
        }
    }
}

/// `BGAppRefreshTask`: up to 30 s to fetch fresh content.
open class BGAppRefreshTask: BGTask, @unchecked Sendable {}

/// `BGProcessingTask`: minutes of deferrable work while the device is idle; expired when the user returns.
open class BGProcessingTask: BGTask, @unchecked Sendable {}

/// `BGContinuedProcessingTask` (iOS 26): user-started work with measurable progress, shown by the system.
open class BGContinuedProcessingTask: BGTask, ProgressReporting, @unchecked Sendable {
    public private(set) var title: String
    public private(set) var subtitle: String
    /// Report progress here; the system watches it.
    public let progress: Progress

    init(identifier: String, taskID: Int, runtime: AppRuntime, title: String, subtitle: String) {
        self.title = title
        self.subtitle = subtitle
        let progress = ReportedProgress(parent: nil, userInfo: nil)
        self.progress = progress
        super.init(identifier: identifier, taskID: taskID, runtime: runtime)
        progress.report = { [unowned self] (completed: Int64, total: Int64) in
            guard !self.completed else { return }
            self.runtime.send(.reportProgress(taskID: self.taskID, completed: completed, total: total))
        }
    }

    /// Changes what the system UI shows.
    open func updateTitle(_ title: String, subtitle: String) {
        self.title = title
        self.subtitle = subtitle
        runtime.send(.updateTitle(taskID: taskID, title: title, subtitle: subtitle))
    }
}

/// A `Progress` that tells the system every change of its unit counts.
final class ReportedProgress: Progress, @unchecked Sendable {
    var report: ((Int64, Int64) -> Void)?
    override var completedUnitCount: Int64 { didSet { report?(completedUnitCount, totalUnitCount) } }
    override var totalUnitCount: Int64 { didSet { report?(completedUnitCount, totalUnitCount) } }
}
