import Testing

@testable import OffstageCore

/// The continued-processing progress monitor on its own (§6): its transitions take the running tasks, `now` and
/// the policy, and return what the system carries out.
@Suite struct ProgressMonitorTests {
    let app: BundleID = "com.example.export"
    let policy = Policy.iOS

    func at(_ seconds: Double) -> Instant { Instant(seconds: seconds) }

    /// A continued-processing task handed to the app at `start`, with `done` of 100 units reported.
    func run(startedAt start: Double, done: Int64 = 0) -> TaskRun {
        let request = TaskRequest(
            identifier: "export", kind: .continuedProcessing, title: "Export", subtitle: "A")
        return TaskRun(
            id: 7, app: app, request: request, startedAt: at(start), expiresAt: nil, expiredAt: nil, delivered: true,
            progressCompleted: done, progressTotal: 100)
    }

    @Test func aNewTaskIsShownThenExpiredWhenItsProgressStalls() {
        var monitor = ProgressMonitor()
        let shown = monitor.watch([run(startedAt: 0)], now: at(0), policy: policy)
        #expect(shown == [.note(app, .progressUI, task: "export", reason: "shown: Export — A")])
        let stall = policy.continuedProcessingStallTimeout
        #expect(monitor.dueTimes(running: [run(startedAt: 0)], policy: policy).contains(at(stall)))
        #expect(monitor.watch([run(startedAt: 0)], now: at(stall - 1), policy: policy).isEmpty)
        let stalled = monitor.watch([run(startedAt: 0)], now: at(stall), policy: policy)
        #expect(stalled == [.expire(app, taskID: 7, .stalled(seconds: Int(stall)))])
    }

    @Test func aTaskThatDiesWithItsAppShowsFailedUntilTheUIDismissesItself() {
        var monitor = ProgressMonitor()
        _ = monitor.watch([run(startedAt: 0)], now: at(0), policy: policy)
        let died = monitor.watch([], now: at(1), policy: policy)
        #expect(died == [.note(app, .progressUI, task: "export", reason: "outcome: failed")])
        #expect(monitor.ui(running: []).map(\.outcome) == [.failed])
        let dismissAt = 1 + policy.continuedProcessingOutcomeDisplay
        let dismissed = monitor.watch([], now: at(dismissAt), policy: policy)
        #expect(dismissed == [.note(app, .progressUI, task: "export", reason: "dismissed")])
        #expect(monitor.ui(running: []).isEmpty)
    }

    @Test func theUserCancelsOnlyARunningTaskAndTheOutcomeSaysSo() {
        var monitor = ProgressMonitor()
        let nothing = monitor.userCancelled("export", of: app, running: [])
        #expect(
            nothing == [
                .note(app, .log, task: "export", reason: "cancel: no running continued-processing task to cancel")
            ])
        let running = run(startedAt: 0)
        _ = monitor.watch([running], now: at(0), policy: policy)
        let cancelled = monitor.userCancelled("export", of: app, running: [running])
        #expect(
            cancelled == [
                .note(app, .user, task: "export", reason: "cancel in the progress UI"),
                .expire(app, taskID: 7, .userCancelled),
            ])
        var expired = running
        expired.expiredAt = at(1)
        let outcome = monitor.taskCompleted(expired, success: false, now: at(2), policy: policy)
        #expect(outcome == .note(app, .progressUI, task: "export", reason: "outcome: cancelled by the user"))
    }

    @Test func anAnswerWithNoQuestionPendingIsRecordedNotActedOn() {
        var monitor = ProgressMonitor()
        let running = run(startedAt: 0)
        _ = monitor.watch([running], now: at(0), policy: policy)
        let answered = monitor.userAnswered(.stop, "export", of: app, running: [running])
        #expect(
            answered == [.note(app, .log, task: "export", reason: "answer stop: no question is pending for this task")])
    }
}
