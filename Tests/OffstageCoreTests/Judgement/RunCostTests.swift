import Testing

@testable import OffstageCore

/// What a refresh costs in the launch prediction's decision rule (`LaunchPredictionConstraint.runCost`): on
/// cellular the first run of a batch pays for the radio's tail, and a run that starts while the radio is up (another
/// run under way, an app's download a moment ago) pays only for what it adds to the tail.
@Suite struct RunCostTests {
    let feed = Fixture.feed
    let mail = Fixture.mail

    /// Feed, opened once at midnight, submits its refresh at 00:06 with the screen on, on cellular: likelier than
    /// an awake run costs with a tenth of a tail priced at 30 % (a short run's extension, 11 %), not than one with
    /// all of it (38 %).
    func feedOnCellular() -> CoreHarness {
        var policy = Fixture.judging
        policy.judgement.cellularRunCost = 0.3
        policy.judgement.radioTailExtension = 0.1
        var h = CoreHarness(
            policy: policy,
            apps: [Fixture.manifest(feed), Fixture.manifest(mail, modes: [.fetch, .processing, .remoteNotification])])
        h.launchAndSuspend(feed)
        h.launchAndSuspend(mail)
        h.handle(.setNetwork(.cellular))
        h.advance(to: Instant(seconds: 360))
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        return h
    }

    @Test func aRunOnCellularWithAnotherRunUnderWayPaysOnlyWhatItAddsToTheRadioTail() {
        let h = feedOnCellular()
        var context = h.system.context(for: feed)
        let policy = h.system.policy.judgement
        let value = context.judgement.likelihood.probability
        #expect(context.judgement.deviceAwake)
        #expect(value >= policy.awakeRunCost)
        #expect(value < policy.awakeRunCost + policy.cellularRunCost)
        let prediction = LaunchPredictionConstraint()
        let request = Fixture.refreshRequest(feed)
        context.judgement.otherRunInProgress = false
        let alone = prediction.runCost(in: context)
        #expect(alone.onCellular && alone.sharesRadio == nil)
        #expect(prediction.evaluate(request, in: context) != .satisfied, "alone it pays for the radio's tail")
        context.judgement.otherRunInProgress = true
        let riding = prediction.runCost(in: context)
        #expect(riding.sharesRadio == policy.radioTailExtension && !riding.onCellular)
        #expect(riding.cost < alone.cost)
        #expect(riding.words.contains("radio already up"))
        #expect(prediction.evaluate(request, in: context) == .satisfied, "with the radio up it pays only its extension")
        context.device.network = .wifi
        #expect(prediction.runCost(in: context).sharesRadio == nil, "on Wi-Fi there is no radio tail to share")
    }

    @Test func aRefreshHeldByTheCellularCostRidesAlongWhenAnotherAppsRunStarts() {
        var h = feedOnCellular()
        #expect(h.task(Fixture.refresh(feed), of: feed) == nil, "held: it does not pay for the radio alone")
        #expect(!h.system.judgementContext(for: feed).otherRunInProgress)
        h.submit(Fixture.processingRequest(mail), from: mail)  // waits for an idle device: the screen is on
        #expect(h.task(Fixture.processing(mail), of: mail) == nil)
        h.handle(.simulateLaunch(mail, identifier: Fixture.processing(mail)))  // a run starts: the radio is up
        #expect(h.task(Fixture.processing(mail), of: mail) != nil)
        #expect(h.task(Fixture.refresh(feed), of: feed) != nil, "it rode along with mail's run, sharing the radio")
        #expect(h.system.wakeUps == 0)
    }

    @Test func aRefreshHeldByTheCellularCostRidesOnTheTailOfAnAppsDownloadAndPaysOnlyWhatItAdds() throws {
        var h = feedOnCellular()
        #expect(h.task(Fixture.refresh(feed), of: feed) == nil, "held: it does not pay for the radio alone")
        #expect(h.system.judgementContext(for: feed).radioTailEnds == nil)
        let prediction = LaunchPredictionConstraint()
        var context = h.system.context(for: feed)
        let alone = prediction.runCost(in: context)
        // Mail's process reports what it downloaded on cellular a moment ago: the radio is up for its tail.
        context.judgement.radioTailEnds = h.system.now + h.system.policy.power.cellularTailSeconds
        let fresh = prediction.runCost(in: context)
        let policy = h.system.policy.judgement
        #expect(abs((fresh.sharesRadio ?? 0) - policy.radioTailExtension) < 1e-9 && !fresh.onCellular)
        #expect(abs(fresh.cost - (policy.awakeRunCost + policy.cellularRunCost * policy.radioTailExtension)) < 1e-9)
        context.judgement.radioTailEnds = h.system.now + 1  // nine tenths of the tail have passed
        let late = try #require(prediction.runCost(in: context).sharesRadio)
        #expect(abs(late - 1) < 1e-9, "late in the tail, a run restarts nearly all of it: it pays the whole tail")
        #expect(fresh.cost < alone.cost)
        h.handle(.resourceUsage(mail, ResourceUsage(cellularBytes: 300_000, interval: 1)))
        #expect(h.system.judgementContext(for: feed).radioTailEnds != nil)
        let likelihood = h.system.launchLikelihood(of: feed).probability
        #expect(likelihood >= fresh.cost)
        #expect(h.task(Fixture.refresh(feed), of: feed) != nil, "reviewed as the radio came up, worth the extension")
        #expect(h.system.wakeUps == 0)
    }

    @Test func constraintsThatDoNotReadTheLikelihoodSeeAnUnlearntOneAndTheModelStillAnswers() {
        var h = feedOnCellular()
        #expect(h.system.judgementContext(for: feed).likelihood == h.system.launchLikelihood(of: feed))
        #expect(h.system.launchLikelihood(of: feed).learnt)
        h.useConstraints([EarliestBeginDateConstraint(), NetworkConstraint()])  // as a baseline: none reads it
        let seen = h.system.judgementContext(for: feed).likelihood
        #expect(!seen.learnt && seen.probability == 0)
        #expect(h.system.launchLikelihood(of: feed).learnt, "the model itself still answers")
        h.useConstraints([EarliestBeginDateConstraint(), QuotaConstraint()])
        #expect(h.system.judgementContext(for: feed).likelihood == h.system.launchLikelihood(of: feed))
    }
}
