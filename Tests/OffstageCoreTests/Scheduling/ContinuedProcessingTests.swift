import Testing

@testable import OffstageCore

/// SPEC §6: continued processing once it runs: device-wide concurrency, the system's progress UI, the
/// user's cancel, the progress monitor (stall → expire, too slow → ask the user), and, from §5 "Foreground
/// first", the CPU priorities that favour the app on screen and boost a continued task's app there.
@Suite struct ContinuedProcessingTests {
    let feed = Fixture.feed
    let mail = Fixture.mail
    let photos = Fixture.photos

    /// Opens `app` (in `h`), registers and submits the continued-processing request `suffix`; returns its run.
    @discardableResult
    func startExport(_ h: inout CoreHarness, _ app: BundleID, _ suffix: String) -> TaskRun? {
        if h.system.foregroundApp != app { h.open(app) }
        h.call(.register(identifier: Fixture.continued(app, suffix)), from: app)
        h.submit(Fixture.continuedRequest(app, suffix), from: app)
        return h.task(Fixture.continued(app, suffix), of: app)
    }

    /// The app reports `completed` of `total` units for its task now.
    func report(_ h: inout CoreHarness, _ run: TaskRun, _ completed: Int64, of total: Int64 = 100) {
        h.call(.reportProgress(taskID: run.id, completed: completed, total: total), from: run.app)
    }

    /// Continued processing starts in the foreground from a person's action (Apple: "The app submits this request
    /// from the foreground"); submitted from the background, e.g. from a refresh handler, it is refused.
    @Test func continuedProcessingSubmittedFromTheBackgroundIsRefused() {
        var h = Fixture.harness([feed])
        h.open(feed)
        h.call(.register(identifier: Fixture.continued(feed, "A")), from: feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.home)
        h.handle(.lock)
        if h.task(Fixture.refresh(feed), of: feed) == nil {
            h.handle(.simulateLaunch(feed, identifier: Fixture.refresh(feed)))
        }
        #expect(h.state(of: feed) == .background)
        #expect(h.task(Fixture.refresh(feed), of: feed) != nil, "submitted from the refresh handler")
        let (result, effects) = h.callWithEffects(.submit(Fixture.continuedRequest(feed, "A")), from: feed)
        #expect(result == .failed(.notPermitted))
        #expect(effects.startedTasks.isEmpty)
        #expect(
            effects.records(.rejected).map(\.reason) == [
                "notPermitted: submitted from the background, not from a person's action"
            ])
        #expect(h.system.app(feed).pendingRequests.isEmpty)
    }

    // MARK: Concurrency, device-wide

    @Test func continuedProcessingConcurrencyIsDeviceWide() {
        var h = Fixture.harness([feed, mail])
        for suffix in ["A", "B", "C"] { startExport(&h, feed, suffix) }
        h.open(mail)
        h.call(.register(identifier: Fixture.continued(mail, "M")), from: mail)
        let (result, effects) = h.callWithEffects(.submit(Fixture.continuedRequest(mail, "M")), from: mail)
        #expect(result == .ok)
        #expect(effects.startedTasks.isEmpty, "three tasks of another app fill the device")
        #expect(h.system.app(mail).pendingRequests.map(\.identifier) == [Fixture.continued(mail, "M")])
        let done = h.complete(Fixture.continued(feed, "B"), of: feed)
        #expect(done.startedTasks.map(\.request.identifier) == [Fixture.continued(mail, "M")])
    }

    @Test func queuedContinuedRequestsStartInSubmissionOrder() {
        var h = Fixture.harness([feed, mail])
        for suffix in ["A", "B", "C"] { startExport(&h, feed, suffix) }
        h.open(mail)
        for suffix in ["M1", "M2"] {
            h.call(.register(identifier: Fixture.continued(mail, suffix)), from: mail)
            h.submit(Fixture.continuedRequest(mail, suffix), from: mail)
        }
        #expect(
            h.complete(Fixture.continued(feed, "A"), of: feed).startedTasks.map(\.request.identifier) == [
                Fixture.continued(mail, "M1")
            ])
        #expect(
            h.complete(Fixture.continued(feed, "C"), of: feed).startedTasks.map(\.request.identifier) == [
                Fixture.continued(mail, "M2")
            ])
    }

    @Test func failStrategyIsImmediateRunIneligibleWhenAnotherAppFillsTheDevice() {
        var h = Fixture.harness([feed, mail])
        for suffix in ["A", "B", "C"] { startExport(&h, feed, suffix) }
        h.open(mail)
        h.call(.register(identifier: Fixture.continued(mail, "M")), from: mail)
        let result = h.submit(Fixture.continuedRequest(mail, "M", strategy: .fail), from: mail)
        #expect(result == .failed(.immediateRunIneligible))
    }

    // MARK: The progress UI

    @Test func progressUIShowsTitleSubtitleAndProgress() throws {
        var h = Fixture.harness()
        let run = try #require(startExport(&h, feed, "A"))
        report(&h, run, 25)
        let ui = try #require(h.system.progressUI.first)
        #expect(h.system.progressUI.count == 1)
        #expect((ui.app, ui.identifier, ui.title, ui.subtitle) == (feed, Fixture.continued(feed, "A"), "Export", "A"))
        #expect((ui.progressCompleted, ui.progressTotal, ui.fraction) == (25, 100, 0.25))
        #expect(ui.outcome == nil && ui.question == nil)
        #expect(h.log.records(.progressUI).map(\.reason) == ["shown: Export — A"])
    }

    @Test func updateTitleChangesTheProgressUI() throws {
        var h = Fixture.harness()
        let run = try #require(startExport(&h, feed, "A"))
        h.call(.updateTitle(taskID: run.id, title: "Exporting", subtitle: "3 of 10"), from: feed)
        let ui = try #require(h.system.progressUI.first)
        #expect((ui.title, ui.subtitle) == ("Exporting", "3 of 10"))
    }

    @Test func progressUIShowsTheOutcomeThenDismissesItself() throws {
        var h = Fixture.harness()
        let run = try #require(startExport(&h, feed, "A"))
        report(&h, run, 100)
        h.advance(by: 2)
        let done = h.complete(Fixture.continued(feed, "A"), of: feed)
        #expect(done.records(.progressUI).map(\.reason) == ["outcome: completed successfully"])
        let ui = try #require(h.system.progressUI.first)
        #expect(ui.outcome == .completed && ui.fraction == 1)
        #expect(ui.dismissAt == h.now + 5)
        #expect(h.system.nextDueTime == h.now + 5)
        #expect(h.advance(by: 4.9).records(.progressUI).isEmpty)
        let dismissed = h.advance(by: 0.1)
        #expect(dismissed.records(.progressUI).map(\.reason) == ["dismissed"])
        #expect(h.system.progressUI.isEmpty)
    }

    @Test func progressUIShowsFailedWhenTheTaskCompletesUnsuccessfully() throws {
        var h = Fixture.harness()
        _ = try #require(startExport(&h, feed, "A"))
        h.complete(Fixture.continued(feed, "A"), of: feed, success: false)
        #expect(h.system.progressUI.map(\.outcome) == [.failed])
    }

    @Test func progressUIShowsExpiredWhenTheSystemExpiredTheTask() throws {
        var h = Fixture.harness()
        _ = try #require(startExport(&h, feed, "A"))
        h.handle(.simulateExpiration(feed, identifier: Fixture.continued(feed, "A")))
        #expect(h.system.progressUI.map(\.outcome) == [.expired])
    }

    @Test func progressUIShowsFailedWhenTheTaskDiesWithItsApp() throws {
        var h = Fixture.harness()
        _ = try #require(startExport(&h, feed, "A"))
        let effects = h.handle(.processExited(feed, reason: "crashed"))
        #expect(effects.records(.progressUI).map(\.reason) == ["outcome: failed"])
        #expect(h.system.progressUI.map(\.outcome) == [.failed])
    }

    // MARK: The user cancels

    @Test func userCancelRunsTheExpirationHandler() throws {
        var h = Fixture.harness()
        let run = try #require(startExport(&h, feed, "A"))
        let effects = h.handle(.cancelContinuedProcessingTask(feed, identifier: Fixture.continued(feed, "A")))
        #expect(effects.actions.first == .expireTask(feed, taskID: run.id))
        #expect(effects.records(.expired).map(\.reason) == ["the user cancelled"])
        #expect(effects.records(.user).map(\.reason) == ["cancel in the progress UI"])
        #expect(h.system.progressUI.map(\.outcome) == [.cancelledByUser])
    }

    @Test func userCancelGivesTheUsualGraceThenKills() throws {
        var h = Fixture.harness()
        h.completeOnExpiration = false
        _ = try #require(startExport(&h, feed, "A"))
        h.handle(.cancelContinuedProcessingTask(feed, identifier: Fixture.continued(feed, "A")))
        #expect(h.advance(by: 4.9).terminations.isEmpty)
        let effects = h.advance(by: 0.1)
        #expect(
            effects.terminations.map(\.1) == [
                .watchdog("task \(Fixture.continued(feed, "A")) not completed within 5 s of expiration")
            ])
        #expect(h.system.progressUI.map(\.outcome) == [.cancelledByUser])
    }

    @Test func cancellingATaskThatIsNotRunningOnlyLogs() {
        var h = Fixture.harness()
        h.open(feed)
        let effects = h.handle(.cancelContinuedProcessingTask(feed, identifier: Fixture.continued(feed, "A")))
        #expect(effects.actions.isEmpty)
        #expect(effects.records(.log).map(\.reason) == ["cancel: no running continued-processing task to cancel"])
    }

    // MARK: Progress monitoring: stalls

    @Test func progressStalledFor60SecondsExpiresTheTask() throws {
        var h = Fixture.harness()
        let run = try #require(startExport(&h, feed, "A"))
        #expect(h.system.nextDueTime == run.startedAt + 60)
        #expect(h.advance(by: 59.9).actions.isEmpty)
        let effects = h.advance(by: 0.1)
        #expect(effects.actions.first == .expireTask(feed, taskID: run.id))
        #expect(effects.records(.expired).map(\.reason) == ["progress stalled for 60 s"])
    }

    @Test func stallIsCountedFromTheLastProgress() throws {
        var h = Fixture.harness()
        let run = try #require(startExport(&h, feed, "A"))
        h.advance(by: 50)
        report(&h, run, 10)
        #expect(h.advance(by: 59.9).records(.expired).isEmpty)
        #expect(h.advance(by: 0.1).records(.expired).map(\.reason) == ["progress stalled for 60 s"])
    }

    @Test func taskWhoseProgressMovesIsNotExpired() throws {
        var h = Fixture.harness()
        let run = try #require(startExport(&h, feed, "A"))
        for step in 1...20 {
            h.advance(by: 30)
            report(&h, run, Int64(step * 5))
        }
        #expect(h.log.records(.expired).isEmpty && h.log.records(.askedUser).isEmpty)
        #expect(h.complete(Fixture.continued(feed, "A"), of: feed).records(.completed).count == 1)
    }

    // MARK: Progress monitoring: too slow, ask the user

    @Test func slowTaskMakesTheSystemAskTheUser() throws {
        var h = Fixture.harness()
        let run = try #require(startExport(&h, feed, "A"))
        h.advance(by: 40)
        let (_, effects) = h.callWithEffects(
            .reportProgress(taskID: run.id, completed: 2, total: 100), from: feed)
        let question = "Export is taking longer than expected (about 33 min). Continue?"
        #expect(effects.actions == [.askUser(feed, taskID: run.id, question: question)])
        #expect(
            effects.records(.askedUser).map(\.reason) == [
                "estimated to finish 33 min after it started, beyond 30 min: \(question)"
            ])
        #expect(h.system.progressUI.first?.question == question)
    }

    @Test func slowEstimateIsATimerInNextDueTime() throws {
        var h = Fixture.harness()
        let run = try #require(startExport(&h, feed, "A"))
        h.advance(by: 10)
        report(&h, run, 1)  // 1 % after 10 s: on pace for 1000 s, and too slow once 1 % takes over 18 s
        #expect(h.system.nextDueTime == run.startedAt + 18)
        #expect(h.advance(by: 7.9).records(.askedUser).isEmpty)
        #expect(h.advance(by: 0.1).records(.askedUser).count == 1)
    }

    @Test func quickTaskIsNeverAsked() throws {
        var h = Fixture.harness()
        let run = try #require(startExport(&h, feed, "A"))
        for step in 1...5 {
            h.advance(by: 50)
            report(&h, run, Int64(step * 20) - 1)
        }
        #expect(h.log.records(.askedUser).isEmpty)
    }

    @Test func answeringContinueLetsTheTaskRunAndIsNotAskedAgain() throws {
        var h = Fixture.harness()
        let run = try #require(startExport(&h, feed, "A"))
        h.advance(by: 40)
        report(&h, run, 2)
        let answer = h.handle(
            .answerContinuedProcessingQuestion(feed, identifier: run.request.identifier, answer: .proceed))
        #expect(answer.records(.user).map(\.reason) == ["answer continue"])
        #expect(answer.actions.isEmpty)
        for step in 1...10 {
            h.advance(by: 50)
            report(&h, run, 2 + Int64(step))
        }
        #expect(h.log.records(.askedUser).count == 1)
        #expect(h.log.records(.expired).isEmpty)
        #expect(h.system.progressUI.first?.question == nil)
    }

    @Test func answeringStopExpiresTheTask() throws {
        var h = Fixture.harness()
        let run = try #require(startExport(&h, feed, "A"))
        h.advance(by: 40)
        report(&h, run, 2)
        let effects = h.handle(
            .answerContinuedProcessingQuestion(feed, identifier: run.request.identifier, answer: .stop))
        #expect(effects.actions.first == .expireTask(feed, taskID: run.id))
        #expect(effects.records(.expired).map(\.reason) == ["the user chose to stop"])
        #expect(h.system.progressUI.map(\.outcome) == [.expired])
    }

    @Test func answerWithoutAQuestionOnlyLogs() throws {
        var h = Fixture.harness()
        let run = try #require(startExport(&h, feed, "A"))
        let effects = h.handle(
            .answerContinuedProcessingQuestion(feed, identifier: run.request.identifier, answer: .stop))
        #expect(effects.actions.isEmpty)
        #expect(effects.records(.log).map(\.reason) == ["answer stop: no question is pending for this task"])
    }

    // MARK: Foreground first: CPU priorities

    @Test func appOnScreenRunsAtForegroundPriority() {
        var h = Fixture.harness()
        let effects = h.handle(.open(feed))
        #expect(effects.cpuPriorities.map(\.1) == [.foreground])
        #expect(h.system.app(feed).cpuPriority == .foreground)
    }

    @Test func backgroundWorkIsLoweredWhileAnAppIsOnScreen() {
        var h = Fixture.harness([feed, mail])
        h.open(feed)
        h.call(.beginBackgroundTask(name: "upload"), from: feed)
        let effects = h.handle(.open(mail))
        #expect(effects.cpuPriorities.filter { $0.0 == feed }.map(\.1) == [.background])
        #expect(h.system.app(mail).cpuPriority == .foreground)
    }

    @Test func backgroundWorkRunsAtNormalPriorityWhenNoAppIsOnScreen() {
        var h = Fixture.harness([feed, mail])
        h.open(feed)
        h.call(.beginBackgroundTask(name: "upload"), from: feed)
        h.open(mail)
        let effects = h.handle(.home)
        #expect(effects.cpuPriorities.filter { $0.0 == feed }.map(\.1) == [.normal])
        #expect(h.system.app(feed).cpuPriority == .normal)
    }

    @Test func continuedTaskIsBoostedWhileItsAppIsOnScreen() {
        var h = Fixture.harness([feed, mail])
        h.open(feed)
        h.call(.register(identifier: Fixture.continued(feed, "A")), from: feed)
        let (_, started) = h.callWithEffects(.submit(Fixture.continuedRequest(feed, "A")), from: feed)
        #expect(started.cpuPriorities.map(\.1) == [.boosted])
        #expect(h.handle(.open(mail)).cpuPriorities.filter { $0.0 == feed }.map(\.1) == [.background])
        #expect(h.handle(.open(feed)).cpuPriorities.filter { $0.0 == feed }.map(\.1) == [.boosted])
        #expect(h.complete(Fixture.continued(feed, "A"), of: feed).cpuPriorities.map(\.1) == [.foreground])
    }

    @Test func cpuPriorityIsSentOnlyWhenItChanges() {
        var h = Fixture.harness()
        h.open(feed)
        let calls = (1...5).map { _ in h.callWithEffects(.applicationState, from: feed).1 }
        #expect(calls.allSatisfy { $0.cpuPriorities.isEmpty })
        #expect(h.log.cpuPriorities.map(\.1) == [.foreground])
    }

    @Test func suspendedAppsHaveNoCPUPriority() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.handle(.home)  // the refresh runs as the app leaves the screen
        #expect(h.system.app(feed).cpuPriority == .normal)
        let done = h.complete(Fixture.refresh(feed), of: feed)
        #expect(done.actions == [.suspend(feed)])
        #expect(done.cpuPriorities.isEmpty)
        #expect(h.system.app(feed).cpuPriority == nil)
    }
}
