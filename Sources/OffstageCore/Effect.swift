/// Something the host must do for the system: start, pause or end a process, or call app code.
/// Effects come back from every `BackgroundSystem` entry point, in the order they must be carried out.
public enum Effect: Hashable, Sendable, Codable {
    /// Start the app's process.
    case launch(BundleID, LaunchReason)
    /// Call a delegate method; the app answers `AppCall.returned(token:)` when it returns.
    case deliver(BundleID, LifecycleCallback, token: Int)
    /// Call the launch handler registered for the task's identifier.
    case startTask(BundleID, TaskRun)
    /// Call the task's expiration handler (or, if none is set, complete it unsuccessfully).
    case expireTask(BundleID, taskID: Int)
    /// Call the expiration handlers of these `beginBackgroundTask` assertions.
    case expireBackgroundTasks(BundleID, ids: [Int])
    /// Stop giving the process CPU (freeze it).
    case suspend(BundleID)
    /// Give a suspended process CPU again (thaw it).
    case resume(BundleID)
    /// End the process; no callback is delivered.
    case terminate(BundleID, TerminationReason)
    /// A decision or fact to keep: timelines, reports, `why` and tests read these.
    case record(Record)

    // MARK: Continued processing and CPU priority
    /// Ask the user, in the task's progress UI, whether a slow continued-processing task should go on;
    /// the answer comes back as `SystemEvent.answerContinuedProcessingQuestion`.
    case askUser(BundleID, taskID: Int, question: String)
    /// Run the app's process at this CPU priority from now on; sent only when it changes.
    case setCPUPriority(BundleID, CPUPriority)
    // MARK: Background pushes, legacy fetch and location events (§7)
    /// Hand the event to the app's code; pushes and fetches answer `AppCall.backgroundEventCompleted(token:result:)`.
    case deliverBackgroundEvent(BundleID, BackgroundEvent, token: Int)
    // MARK: Local notifications (Notifications/)
    /// Tell the app's `UNUserNotificationCenter` delegate of a notification: `willPresent` or `didReceive`.
    case presentNotification(BundleID, NotificationPresentation)
}
