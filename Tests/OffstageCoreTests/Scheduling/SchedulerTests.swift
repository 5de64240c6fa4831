import Testing

@testable import OffstageCore

/// The scheduler's system-wide state (`Scheduler`): which apps are reviewed now, which later, whom a wake or a
/// refill reviews, the running tasks, the continued-processing queue and the maintenance wakes.
@Suite struct SchedulerTests {
    let feed = Fixture.feed
    let mail = Fixture.mail

    func marked(_ scheduler: inout Scheduler) -> [Int] {
        var batch = AppSet()
        scheduler.takeMarkedApps(into: &batch)
        return Array(batch)
    }

    @Test func takenMarkedAppsAreUnmarkedAndInInstallationOrder() {
        var scheduler = Scheduler()
        scheduler.mark(3)
        scheduler.mark(1)
        #expect(scheduler.hasMarkedApps)
        #expect(marked(&scheduler) == [1, 3])
        #expect(!scheduler.hasMarkedApps)
        scheduler.markEveryApp(count: 2)
        #expect(marked(&scheduler) == [0, 1])
    }

    @Test func aReviewIsTakenOnlyOnceItsTimeCameEarliestFirst() {
        var scheduler = Scheduler()
        scheduler.queue(Scheduler.Review(at: Instant(seconds: 20), app: mail, order: 1))
        scheduler.queue(Scheduler.Review(at: Instant(seconds: 10), app: feed, order: 0))
        #expect(scheduler.takeReview(dueBy: Instant(seconds: 5)) == nil)
        #expect(scheduler.takeReview(dueBy: Instant(seconds: 15))?.app == feed)
        #expect(scheduler.takeReview(dueBy: Instant(seconds: 15)) == nil)
        #expect(scheduler.nextReview?.app == mail)
        scheduler.dropNextReview()
        #expect(scheduler.nextReview == nil)
    }

    @Test func aWakeReviewsTheAppsAwaitingOneAndStaysOpenForItsWindow() {
        var scheduler = Scheduler()
        scheduler.noteWaits(0, [.wake], before: [])
        scheduler.noteWaits(1, [.budgetRefill], before: [])
        scheduler.noteWaits(2, [.wake], before: [])
        scheduler.noteWaits(2, [], before: [.wake])  // its request no longer waits for a wake
        #expect(!scheduler.isMaintenanceWakeOpen(at: Instant(seconds: 100), window: 60))
        #expect(scheduler.noteMaintenanceWake(at: Instant(seconds: 100)) == 1)
        #expect(marked(&scheduler) == [0])
        #expect(scheduler.isMaintenanceWakeOpen(at: Instant(seconds: 159), window: 60))
        #expect(!scheduler.isMaintenanceWakeOpen(at: Instant(seconds: 160), window: 60))
        #expect(scheduler.noteMaintenanceWake(at: Instant(seconds: 200)) == 2 && scheduler.wakeUps == 2)
    }

    @Test func aRefillReviewsOnlyTheAppsAwaitingABudget() {
        var scheduler = Scheduler()
        scheduler.noteWaits(0, [.wake], before: [])
        scheduler.noteWaits(1, [.budgetRefill, .charger], before: [])
        scheduler.noteBudgetsRefilled()
        #expect(marked(&scheduler) == [1])
    }

    @Test func aSharedChangeReviewsTheAppsEveryChangeConcernsAndThoseAwaitingIt() {
        var scheduler = Scheduler()
        scheduler.noteReviewed(0, hasRunningTasks: false, concernedByEverySharedChange: true)
        scheduler.noteReviewed(1, hasRunningTasks: false, concernedByEverySharedChange: true)
        scheduler.noteReviewed(1, hasRunningTasks: false, concernedByEverySharedChange: false)
        scheduler.noteWaits(2, [.screenLit, .wake], before: [])
        scheduler.noteWaits(3, [.charger], before: [])
        scheduler.noteWaits(4, [.screenLit], before: [])
        scheduler.noteWaits(4, [.network], before: [.screenLit])  // it no longer waits for the screen
        scheduler.markAppsConcerned(by: [.screenLit, .foregroundApp])
        #expect(marked(&scheduler) == [0, 2])
        scheduler.markAppsConcerned(by: [.network, .charger])
        #expect(marked(&scheduler) == [0, 3, 4])
    }

    @Test func anAppLeavesTheAppsWithTasksAtTheReviewAfterItsLastTaskEnded() {
        var scheduler = Scheduler()
        scheduler.noteTaskStarted(2, onCellular: false)
        scheduler.noteTaskStarted(2, onCellular: false)
        scheduler.noteTaskEnded()
        #expect(scheduler.runningTaskCount == 1)
        scheduler.noteReviewed(2, hasRunningTasks: true, concernedByEverySharedChange: false)
        #expect(Array(scheduler.appsWithTasks) == [2])
        scheduler.noteTaskEnded()
        #expect(Array(scheduler.appsWithTasks) == [2], "until its next review")
        scheduler.noteReviewed(2, hasRunningTasks: false, concernedByEverySharedChange: false)
        #expect(scheduler.appsWithTasks.isEmpty && scheduler.runningTaskCount == 0)
    }

    @Test func theFirstRunOnCellularReviewsTheAppsAwaitingAWakeAndALaterOneDoesNot() {
        var scheduler = Scheduler()
        scheduler.noteWaits(0, [.wake], before: [])
        scheduler.noteWaits(1, [.budgetRefill], before: [])
        scheduler.noteTaskStarted(3, onCellular: true)
        #expect(marked(&scheduler) == [0], "the radio came up: the apps waiting for a wake ride along")
        scheduler.noteTaskStarted(4, onCellular: true)
        #expect(marked(&scheduler).isEmpty, "the radio was up already")
        scheduler.noteTaskEnded()
        scheduler.noteTaskEnded()
        scheduler.noteTaskStarted(3, onCellular: false)
        #expect(marked(&scheduler).isEmpty, "on Wi-Fi there is no radio to share")
    }

    @Test func aQueuedContinuedRequestTakesThePlaceOfTheAppsOneWithItsIdentifierAtTheBack() {
        var scheduler = Scheduler()
        let (policy, full) = (Policy.iOS, Policy.iOS.maxConcurrentContinuedProcessingTasks)
        for (app, request) in [
            (feed, Fixture.continuedRequest(feed, "a")), (mail, Fixture.continuedRequest(mail, "a")),
            (feed, Fixture.continuedRequest(feed, "a", gpu: true)),
        ] {
            let submission = scheduler.submitContinued(
                request, of: app, fromForeground: true, running: full, policy: policy)
            #expect(submission == .queued(behind: full))
        }
        #expect(scheduler.continuedQueue.map(\.app) == [mail, feed])
        #expect(scheduler.continuedQueue.last?.request.requiresGPU == true)
        #expect(scheduler.takeQueuedContinued(running: full, policy: policy) == nil, "no room yet")
        #expect(scheduler.takeQueuedContinued(running: full - 1, policy: policy)?.app == mail)
        #expect(scheduler.removeQueuedContinued(of: mail) { _ in true }.isEmpty)
        #expect(
            scheduler.removeQueuedContinued(of: feed) { _ in true }.map(\.identifier) == [Fixture.continued(feed, "a")])
        #expect(scheduler.takeQueuedContinued(running: 0, policy: policy) == nil, "none waits")
    }

    @Test func aContinuedRequestStartsNowOnlyFromTheForegroundWithRoomAndNoneWaiting() {
        var scheduler = Scheduler()
        let (policy, full) = (Policy.iOS, Policy.iOS.maxConcurrentContinuedProcessingTasks)
        let queued = Fixture.continuedRequest(feed, "a")
        let immediate = Fixture.continuedRequest(mail, "b", strategy: .fail)
        func submit(_ request: TaskRequest, fromForeground: Bool = true, running: Int) -> Scheduler.ContinuedSubmission
        {
            scheduler.submitContinued(
                request, of: request == immediate ? mail : feed, fromForeground: fromForeground, running: running,
                policy: policy)
        }
        #expect(submit(queued, fromForeground: false, running: 0) == .notFromForeground)
        #expect(submit(immediate, running: full - 1) == .startsNow)
        #expect(submit(immediate, running: full) == .immediateRunIneligible(running: full))
        #expect(scheduler.continuedQueue.isEmpty, "neither a start nor a refusal queues")
        #expect(submit(queued, running: full) == .queued(behind: full))
        #expect(
            submit(immediate, running: 0) == .immediateRunIneligible(running: 0),
            "one waits: it does not jump the queue")
    }
}
