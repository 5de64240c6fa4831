/// What one of the life cycle's transitions (`AppLifecycle`) asks the system to do for the app, in order: the
/// life cycle decides, `BackgroundSystem` carries out (records, effects, the end of the process).
enum LifecycleAction: Hashable, Sendable {
    /// Keep a typed fact of `kind` about the app.
    case fact(RecordKind, RecordDetail)
    /// Keep a fact of `kind` about the app (and its task `task`, if any) in words (iOS's own log message).
    case note(RecordKind, task: String?, String)
    /// Tell the app's code that the assertions numbered so are expiring (their expiration handlers run).
    case expireAssertions([Int])
    /// The process was launched for `reason` (to do `purpose`): the host starts it.
    case launched(LaunchReason, purpose: String)
    /// The suspended process was thawed (`why`): the host resumes it.
    case resumed(String)
    /// The process's state changed as a callback was delivered: the app's review reads it.
    case stateChanged(from: AppState, to: AppState)
    /// Hand `callback` to its receiver in the app's code, answered by `token`.
    case deliver(LifecycleCallback, CallbackReceiver, token: Int)
    /// The process was frozen: nothing keeps it running in the background.
    case suspended
    /// The app left the screen (or was not on it): its time on screen ends, and it is no longer the app on screen.
    case leftScreen
    /// A polite termination began (after `.leftScreen`): the app hears `willTerminate`.
    case terminationBegan
    /// End the app's process now, for this reason (a watchdog, a termination whose `willTerminate` ran out).
    case end(TerminationReason)
    /// Crash the app with iOS's message: it broke a rule of the API.
    case crash(String)
}
