import Testing

@testable import OffstageCore

/// The monitors on their own: `take` is handed an input between supervision passes with the record of the app it
/// is about, the app on screen, `now` and the policy, and returns what the system carries out.
@Suite struct MonitorsTests {
    let app: BundleID = "com.example.encoder"
    let policy = Policy.iOS

    func at(_ seconds: Double) -> Instant { Instant(seconds: seconds) }

    /// The app's record once launched in the background at 0 s with its launch callbacks returned.
    func backgroundApp() -> AppRecord {
        var record = AppRecord(
            manifest: AppManifest(bundleIdentifier: app, backgroundModes: []), installIndex: 2, memoryFootprint: 0)
        record.lifecycle.launch(.backgroundTask)
        var token = 1
        while record.lifecycle.hasCallbackToDeliver {
            _ = record.lifecycle.deliverNextCallback(token: token, at: at(0), policy: policy)
            _ = record.lifecycle.callbackReturned(token: token)
            token += 1
        }
        return record
    }

    func take(_ input: MonitorInput, _ monitors: inout Monitors, app record: AppRecord?, at seconds: Double)
        -> [MonitorAction]
    {
        monitors.take(input, app: record, onScreen: nil, now: at(seconds), policy: policy)
    }

    /// A whole core for ten minutes, as the app's code announces it.
    let work = AppCall.workBegan(number: 1, cpuSeconds: 600, seconds: 600)

    @Test func reportedWorkOverTheLimitIsJudgedOnceItsJudgementIsDue() {
        var monitors = Monitors()
        let record = backgroundApp()
        #expect(record.state == .background && record.backgroundSince == at(0))
        #expect(take(.workReport(work, of: app), &monitors, app: record, at: 0).isEmpty)
        // Watched for a whole window (60 s) since it went to the background: judged then, and every sixth after.
        #expect(monitors.cpuLimitDue(of: record, onScreen: nil, now: at(0), policy: policy) == at(60))
        #expect(take(.cpuJudgementDue(app), &monitors, app: record, at: 59).isEmpty)
        let judged = take(.cpuJudgementDue(app), &monitors, app: record, at: 60)
        guard case .kill(app, let words, .resourceLimit("cpu resource limit exceeded")) = judged.first,
            judged.count == 1
        else {
            Issue.record("expected the CPU limit's kill, got \(judged)")
            return
        }
        #expect(words.hasPrefix("cpu usage: 60.0 seconds cpu time over 60 seconds (100% cpu average)"))
        #expect(monitors.cpuPriority(at: record.installIndex) == nil)  // priorities follow the supervision pass
    }

    @Test func workEndedOrEndingWithItsProcessIsNoLongerJudged() {
        for end in [MonitorInput.workReport(.workEnded(number: 1), of: app), .processEnded(app)] {
            var monitors = Monitors()
            let record = backgroundApp()
            _ = take(.workReport(work, of: app), &monitors, app: record, at: 0)
            #expect(take(end, &monitors, app: record, at: 30).isEmpty)
            #expect(monitors.cpuLimitDue(of: record, onScreen: nil, now: at(30), policy: policy) == nil)
            #expect(take(.cpuJudgementDue(app), &monitors, app: record, at: 60).isEmpty)
        }
    }

    @Test func theUserInTheProgressUIOfAnAppNotInstalledIsRecordedNotTrapped() {
        var monitors = Monitors()
        let cancelled = take(.userCancelled("export", of: app), &monitors, app: nil, at: 0)
        #expect(
            cancelled == [
                .note(app, .log, task: "export", reason: "cancel: no running continued-processing task to cancel")
            ])
        let answered = take(.userAnswered(.stop, "export", of: app), &monitors, app: nil, at: 0)
        #expect(
            answered == [.note(app, .log, task: "export", reason: "answer stop: no question is pending for this task")])
    }
}
