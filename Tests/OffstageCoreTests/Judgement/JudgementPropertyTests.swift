import PropertyBased
import Testing

@testable import OffstageCore

/// Invariants of the judgement over random sequences (see `PropertyTests`): budgets are never
/// overspent, and coalescing never wakes the device more often than one wake per task would.
@Suite struct JudgementPropertyTests {
    /// A policy whose small budgets run out within a random run, so the invariant is exercised.
    static var tightBudgets: Policy {
        var policy = Policy.iOS
        policy.judgement.energyBudgetCapacity = 60
        policy.judgement.energyBudgetPerDay = 4000
        policy.judgement.dataBudgetCapacity = 5_000_000
        policy.judgement.dataBudgetPerDay = 40_000_000
        return policy
    }

    @Test func budgetsAreNeverOverspent() async {
        await propertyCheck(count: 300, input: PropertyTests.apps, PropertyTests.honours, PropertyTests.steps) {
            apps, honours, steps in
            let run = PropertyRun(apps: apps, honoursExpiration: honours, steps: steps, policy: Self.tightBudgets)
            #expect(run.budgetViolations == [], "\(steps)")
        }
    }

    @Test func wakeUpsNeverExceedWhatAPerTaskScheduleWouldUse() async {
        await propertyCheck(count: 300, input: PropertyTests.apps, PropertyTests.honours, PropertyTests.steps) {
            apps, honours, steps in
            let run = PropertyRun(apps: apps, honoursExpiration: honours, steps: steps)
            #expect(run.harness.system.wakeUps <= run.startsWhileAsleep, "\(steps)")
            // Every wake serves at least one task: it is recorded with the start it was for.
            for wake in run.harness.records.filter({ $0.kind == .wake }) {
                #expect(
                    run.harness.records.contains { $0.kind == .started && $0.at == wake.at && $0.task == wake.task })
            }
        }
    }
}
