import Testing

@testable import OffstageCore

/// What a refresh costs in the launch prediction's decision rule (`LaunchPredictionConstraint.runCost`): on
/// cellular the first run of a batch pays for the radio's tail, and a run that starts while another is under way
/// shares it.
@Suite struct RunCostTests {
    let feed = Fixture.feed
    let mail = Fixture.mail

    /// Feed, opened once at midnight, submits its refresh at 00:06 with the screen on, on cellular: likelier than
    /// an awake run costs, not than an awake run plus the cellular radio.
    func feedOnCellular() -> CoreHarness {
        var h = CoreHarness(
            policy: Fixture.judging,
            apps: [Fixture.manifest(feed), Fixture.manifest(mail, modes: [.fetch, .processing, .remoteNotification])])
        h.launchAndSuspend(feed)
        h.launchAndSuspend(mail)
        h.handle(.setNetwork(.cellular))
        h.advance(to: Instant(seconds: 360))
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        return h
    }

    @Test func aRunOnCellularWithAnotherRunUnderWaySharesTheRadioAndPaysNoCellularCost() {
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
        #expect(alone.onCellular && !alone.sharesRadio)
        #expect(prediction.evaluate(request, in: context) != .satisfied, "alone it pays for the radio's tail")
        context.judgement.otherRunInProgress = true
        let riding = prediction.runCost(in: context)
        #expect(riding.sharesRadio && !riding.onCellular)
        #expect(riding.cost < alone.cost)
        #expect(riding.words.contains("radio already up"))
        #expect(prediction.evaluate(request, in: context) == .satisfied, "with the radio up it costs an awake run")
        context.device.network = .wifi
        #expect(!prediction.runCost(in: context).sharesRadio, "on Wi-Fi there is no radio tail to share")
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
