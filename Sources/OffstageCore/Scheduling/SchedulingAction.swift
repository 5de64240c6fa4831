/// What one of an app's task-run transitions (`AppScheduling`) asks the system to do for the app, in order: the
/// scheduling decides, `BackgroundSystem` carries out (effects, expirations, the end of the process).
enum SchedulingAction: Hashable, Sendable {
    /// Hand the run, now delivered, to the app's code: its launch handler runs.
    case startTask(TaskRun)
    /// Expire the run `taskID` for this cause: its expiration handler runs and its grace period starts.
    case expire(taskID: Int, RecordDetail.Expiration)
    /// End the app's process for this reason (a run past its grace period, a run with no launch handler).
    case end(TerminationReason)
}
