import Testing

@testable import OffstageCore

/// The processing pace (issue 27, item 3): a processing task runs a few times a night at most, however often its
/// app resubmits it, as iOS runs such work while the device is idle on power (`JudgementPolicy.processingSpacing`).
@Suite struct ProcessingPaceTests {
    let feed = Fixture.feed

    /// An eight-hour night on the charger, the app resubmitting its processing task as each run starts and
    /// completing it at once, as an app that schedules it at every trip to the background does; the starts.
    func night(policy: Policy) -> [Instant] {
        var h = Fixture.harness(policy: policy)
        h.open(feed)
        h.submit(Fixture.processingRequest(feed, power: true), from: feed)
        h.handle(.home)
        h.handle(.setCharging(true))
        h.lockUntilIdle()
        var starts: [Instant] = []
        let end = h.now + 8 * 3600
        while true {
            if let run = h.task(Fixture.processing(feed), of: feed), run.delivered {
                starts.append(h.now)
                h.submit(Fixture.processingRequest(feed, power: true), from: feed)
                h.complete(Fixture.processing(feed), of: feed)
            }
            guard let next = h.system.nextDueTime, next <= end else { return starts }
            h.advance(to: next)
        }
    }

    @Test func aProcessingTaskResubmittedAtEveryTripToTheBackgroundRunsAtMostThreeTimesANight() {
        let starts = night(policy: .iOS)
        #expect((1...3).contains(starts.count))
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $1 - $0 >= Policy.iOS.judgement.processingSpacing })
        // The pace is what holds it: with no spacing, the same night runs it every rate-limit period.
        var unpaced = Policy.iOS
        unpaced.judgement.processingSpacing = 0
        #expect(night(policy: unpaced).count > 10)
    }

    @Test func aWaitingProcessingTaskSaysWhenItsPaceLetsItRun() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.processingRequest(feed, power: true), from: feed)
        h.handle(.home)
        h.handle(.setCharging(true))
        h.lockUntilIdle()
        #expect(h.task(Fixture.processing(feed), of: feed)?.delivered == true)
        h.submit(Fixture.processingRequest(feed, power: true), from: feed)
        h.complete(Fixture.processing(feed), of: feed)
        let blockers = h.system.explain().first { $0.app == feed }?.blockers ?? []
        let pace = blockers.first { $0.constraint == "processingPace" }
        #expect(pace?.until.map { $0 - h.now } == Policy.iOS.judgement.processingSpacing)
    }
}
