import Testing

@testable import OffstageCore

/// One app's place in the scheduler on its own (§4): a start moves a request from pending to running and its
/// identifier into the running set, a replaced or started request's wait is recorded anew, runs are delivered,
/// expired and ended by ID, the process's end takes the runs but not the requests, and the quota window slides.
@Suite struct AppSchedulingTests {
    let feed = Fixture.feed

    func at(_ seconds: Double) -> Instant { Instant(seconds: seconds) }

    func run(_ request: TaskRequest, id: Int) -> TaskRun {
        TaskRun(id: id, app: feed, request: request, startedAt: at(0), expiresAt: nil, expiredAt: nil, delivered: false)
    }

    @Test func aRetitledRunNamesItsRequestAndAnUnknownRunIsLeftAlone() {
        var scheduling = AppScheduling()
        let refresh = Fixture.refreshRequest(feed)
        scheduling.start(run(refresh, id: 4))
        let retitled = scheduling.retitle(4, title: "Export", subtitle: "1 of 3")
        #expect(retitled == refresh.identifier && scheduling.running.first?.request.title == "Export")
        let unknown = scheduling.retitle(5, title: "Other", subtitle: "")
        #expect(unknown == nil && scheduling.running.first?.request.subtitle == "1 of 3")
    }

    @Test func aStartMovesTheRequestFromPendingToRunningAndForgetsItsBlockers() {
        var scheduling = AppScheduling()
        let refresh = Fixture.refreshRequest(feed)
        let processing = Fixture.processingRequest(feed)
        scheduling.submit(refresh)
        scheduling.submit(processing)
        scheduling.noteBlockers(["deviceAwake"], of: refresh.identifier)
        scheduling.start(run(refresh, id: 1))
        #expect(scheduling.pending == [processing])
        #expect(scheduling.running.map(\.id) == [1] && scheduling.runningIdentifiers == [refresh.identifier])
        #expect(scheduling.lastBlockers[refresh.identifier] == nil)
        #expect(scheduling.hasRunningTasks && scheduling.hasUndeliveredTask && !scheduling.hasDeliveredTask)
    }

    @Test func aReplacementTakesThePlaceOfThePendingRequestAndItsWaitIsRecordedAnew() {
        var scheduling = AppScheduling()
        let first = Fixture.refreshRequest(feed, earliestBeginDate: 60)
        let replacement = Fixture.refreshRequest(feed, earliestBeginDate: 3600)
        let replacedNone = scheduling.replace(first)
        #expect(!replacedNone)
        scheduling.submit(first)
        scheduling.submit(Fixture.processingRequest(feed))
        scheduling.noteBlockers(["earliestBeginDate"], of: first.identifier)
        let replaced = scheduling.replace(replacement)
        #expect(replaced)
        #expect(scheduling.pending == [replacement, Fixture.processingRequest(feed)])
        #expect(scheduling.lastBlockers.isEmpty)
    }

    @Test func runsAreDeliveredExpiredAndEndedByTheirID() {
        var scheduling = AppScheduling()
        scheduling.start(run(Fixture.refreshRequest(feed), id: 1))
        scheduling.start(run(Fixture.processingRequest(feed), id: 2))
        scheduling.deliver(1, at: at(10), expiresAt: at(40))
        let expired = scheduling.expire(1, at: at(40))
        #expect(expired?.id == 1 && scheduling.expire(1, at: at(41)) == nil)  // once
        #expect(scheduling.running[0].delivered && scheduling.running[0].startedAt == at(10))
        #expect(scheduling.running[0].expiresAt == at(40) && scheduling.running[0].expiredAt == at(40))
        #expect(!scheduling.running[1].delivered && scheduling.hasDeliveredTask && scheduling.hasUndeliveredTask)
        let (ended, endedAgain) = (scheduling.end(1), scheduling.end(1))
        #expect(ended?.id == 1 && endedAgain == nil)
        #expect(scheduling.runningIdentifiers == [Fixture.processing(feed)])
    }

    @Test func waitingRunsAreHandedOverWithTheirRuntimeUntilOneHasNoLaunchHandler() {
        var scheduling = AppScheduling()
        let (refresh, processing) = (Fixture.refreshRequest(feed), Fixture.processingRequest(feed))
        scheduling.start(run(refresh, id: 1))
        scheduling.start(run(processing, id: 2))
        let policy = Policy.iOS
        let unregistered = scheduling.deliverWaitingRuns(registered: [refresh.identifier], at: at(5), policy: policy)
        let runtime = policy.runtime(for: .appRefresh).map { at(5) + $0 }
        #expect(
            unregistered.count == 2 && scheduling.running[0].delivered && scheduling.running[0].expiresAt == runtime)
        #expect(unregistered.first == .startTask(scheduling.running[0]) && !scheduling.running[1].delivered)
        let crash = "No launch handler registered for task with identifier \(processing.identifier)"
        #expect(unregistered.last == .end(.crash(crash)))
        let both = [refresh.identifier, processing.identifier]
        let rest = scheduling.deliverWaitingRuns(registered: Set(both), at: at(6), policy: policy)
        #expect(rest == [.startTask(scheduling.running[1])])  // the delivered one is not handed over again
    }

    @Test func aSimulatedExpirationExpiresOnlyARunHandedToTheApp() {
        var scheduling = AppScheduling()
        let refresh = Fixture.refreshRequest(feed)
        scheduling.start(run(refresh, id: 1))
        #expect(scheduling.simulatedExpiration(of: refresh.identifier).isEmpty, "not yet handed to the app")
        _ = scheduling.deliverWaitingRuns(registered: [refresh.identifier], at: at(0), policy: .iOS)
        #expect(scheduling.simulatedExpiration(of: refresh.identifier) == [.expire(taskID: 1, .simulated)])
        #expect(scheduling.simulatedExpiration(of: Fixture.processing(feed)).isEmpty, "no run of that identifier")
    }

    @Test func aUsedUpRuntimeExpiresTheRunAndAMissedGracePeriodEndsTheProcess() {
        var scheduling = AppScheduling()
        let refresh = Fixture.refreshRequest(feed)
        scheduling.start(run(refresh, id: 1))
        let policy = Policy.iOS
        _ = scheduling.deliverWaitingRuns(registered: [refresh.identifier], at: at(0), policy: policy)
        let end = scheduling.running[0].expiresAt ?? at(0)
        #expect(scheduling.deadlinesDue(at: end + (-1), policy: policy).isEmpty)
        let runtime = Int(policy.runtime(for: .appRefresh) ?? 0)
        #expect(
            scheduling.deadlinesDue(at: end, policy: policy) == [.expire(taskID: 1, .runtimeUsedUp(seconds: runtime))])
        _ = scheduling.expire(1, at: end)
        #expect(scheduling.deadlinesDue(at: end, policy: policy).isEmpty)  // expired once: its grace runs
        let late = scheduling.deadlinesDue(at: end + policy.expirationGrace, policy: policy)
        let grace = Int(policy.expirationGrace)
        #expect(late == [.end(.watchdog("task \(refresh.identifier) not completed within \(grace) s of expiration"))])
    }

    @Test func aSubmissionReplacesItsNamesakeOrJoinsWithinItsKindsLimit() {
        var scheduling = AppScheduling()
        let policy = Policy.iOS  // one pending refresh
        let (first, second) = (Fixture.refreshRequest(feed, 1), Fixture.refreshRequest(feed, 2))
        #expect(scheduling.submitWithinLimit(first, policy: policy) == .pending)
        let later = Fixture.refreshRequest(feed, 1, earliestBeginDate: 60)
        #expect(scheduling.submitWithinLimit(later, policy: policy) == .replacing)
        #expect(
            scheduling.submitWithinLimit(second, policy: policy) == .tooMany(limit: policy.maxPendingRefreshRequests))
        #expect(scheduling.submitWithinLimit(Fixture.processingRequest(feed), policy: policy) == .pending)
        #expect(scheduling.pending == [later, Fixture.processingRequest(feed)])
    }

    @Test func waitingIsNotedAndOnlyAChangeOfWhatCanLiftItIsSaid() {
        var scheduling = AppScheduling()
        let changed = scheduling.noteWaiting(until: at(30), waits: [.wake])
        let again = scheduling.noteWaiting(until: at(40), waits: [.wake])
        #expect(changed == [] && again == nil && scheduling.blockersLift == at(40) && scheduling.sharedWaits == [.wake])
        let cleared = scheduling.noteWaiting(until: nil, waits: [])
        #expect(cleared == [.wake] && scheduling.blockersLift == nil && scheduling.sharedWaits.isEmpty)
    }

    @Test func theProcessEndTakesTheRunsButNotThePendingRequests() {
        var scheduling = AppScheduling()
        scheduling.submit(Fixture.processingRequest(feed))
        scheduling.start(run(Fixture.refreshRequest(feed), id: 1))
        scheduling.clearProcess()
        #expect(scheduling.pending == [Fixture.processingRequest(feed)])
        #expect(!scheduling.hasRunningTasks && scheduling.runningIdentifiers.isEmpty)
    }

    @Test func cancellingReturnsTheMatchingRequestsInTheirOrder() {
        var scheduling = AppScheduling()
        let requests = [
            Fixture.processingRequest(feed, 1), Fixture.refreshRequest(feed), Fixture.processingRequest(feed, 2),
        ]
        for request in requests { scheduling.submit(request) }
        let cancelled = scheduling.removePending { $0.kind == .processing }
        #expect(cancelled == [requests[0], requests[2]])
        #expect(scheduling.pending == [requests[1]])
    }

    @Test func theQuotaWindowForgetsStartsThatLeftItAndReservationsAreTakenBackOnce() {
        var scheduling = AppScheduling()
        scheduling.noteDiscretionaryStart(at: at(0), window: 100)
        scheduling.noteDiscretionaryStart(at: at(50), window: 100)
        scheduling.noteDiscretionaryStart(at: at(120), window: 100)
        #expect(scheduling.discretionaryStarts == [at(50), at(120)])
        scheduling.reserve(Reservation(energy: 3, data: 0, energyBefore: 1, bytesBefore: 0), for: 7)
        let (released, releasedAgain) = (scheduling.releaseReservation(of: 7), scheduling.releaseReservation(of: 7))
        #expect(released?.energy == 3 && releasedAgain == nil)
    }
}
