import Testing

@testable import OffstageCore

/// The judgement's system-wide controllers (`JudgementControllers`): the budgets are reserved from and given back
/// to only through them, a refresh run teaches the energy a refresh uses, and the policy sets the half-life.
@Suite struct JudgementControllersTests {
    var policy: JudgementPolicy {
        var policy = JudgementPolicy()
        policy.energyBudgetCapacity = 10
        policy.energyBudgetPerDay = 0
        policy.dataBudgetCapacity = 3_000_000
        policy.dataBudgetPerDay = 0
        return policy
    }
    let processing = TaskRequest(identifier: "p", kind: .processing)
    let refresh = TaskRequest(identifier: "r", kind: .appRefresh)

    @Test func aReservationNeverTakesMoreThanIsLeft() {
        var controllers = JudgementControllers(policy)
        let taken = controllers.reserve(for: processing, cellular: true, at: .zero, policy: policy)
        #expect(taken.energy == min(policy.processingEnergyReservation, 10))
        #expect(taken.data == policy.dataReservation)
        let second = controllers.reserve(for: processing, cellular: true, at: .zero, policy: policy)
        #expect(second.energy == max(0, 10 - taken.energy) && second.data == 1_000_000)
        #expect(controllers.energyBudget.balance(at: .zero) >= 0 && controllers.dataBudget.balance(at: .zero) == 0)
    }

    @Test func aBudgetHoldsTheAmountAtTheTimeItSaysItWillReachIt() {
        // A request held by a budget is judged again at that time: a balance a hair short then (the division's
        // rounding) held it until some unrelated event, about one time in fifty of these.
        var short = 0
        for withdrawal in 1..<200 {
            let start = Instant(seconds: 1000 + Double(withdrawal) * 37.3)
            var budget = BudgetAccount(capacity: 20_000_000, perDay: 20_000_000, at: start)
            budget.withdraw(Double(withdrawal) * 12_345.678, at: start)
            for step in 1..<50 {
                let now = start + Double(step) * 13.7
                let amount = budget.balance(at: now) + Double(step) * 1000.3
                guard amount <= budget.capacity, let reached = budget.time(toReach: amount, from: now) else { continue }
                #expect(reached > now)
                if budget.balance(at: reached) < amount { short += 1 }
            }
        }
        #expect(short == 0)
    }

    @Test func noDataIsReservedOffCellular() {
        var controllers = JudgementControllers(policy)
        #expect(controllers.reserve(for: processing, cellular: false, at: .zero, policy: policy).data == 0)
        #expect(controllers.dataBudget.balance(at: .zero) == 3_000_000)
    }

    @Test func whatARunDidNotUseGoesBackAndARefreshTeachesWhatARefreshUses() {
        var controllers = JudgementControllers(policy)
        #expect(controllers.refreshEnergyUse == nil)
        let taken = controllers.reserve(for: processing, cellular: true, at: .zero, policy: policy)
        let reserved = Reservation(energy: taken.energy, data: taken.data, energyBefore: 0, bytesBefore: 0)
        controllers.giveBack(reserved, usedEnergy: 1, usedBytes: 500_000, refresh: true, at: .zero, policy: policy)
        #expect(abs(controllers.energyBudget.balance(at: .zero) - 9) < 1e-9)
        #expect(controllers.dataBudget.balance(at: .zero) == 2_500_000)
        #expect(controllers.refreshEnergyUse == 1)
        controllers.giveBack(
            Reservation(energy: 0, data: 0, energyBefore: 0, bytesBefore: 0), usedEnergy: 6, usedBytes: 0,
            refresh: true, at: .zero, policy: policy)
        #expect(abs(controllers.refreshEnergyUse! - (1 + policy.refreshUseWeight * 5)) < 1e-9)
        #expect(abs(controllers.energyBudget.balance(at: .zero) - 9) < 1e-9, "use beyond the reservation is free")
    }

    @Test func aRefreshReservesAMarginOverWhatRefreshesUse() {
        var controllers = JudgementControllers(policy)
        let reserved = Reservation(energy: 0, data: 0, energyBefore: 0, bytesBefore: 0)
        controllers.giveBack(reserved, usedEnergy: 0.5, usedBytes: 0, refresh: true, at: .zero, policy: policy)
        let taken = controllers.reserve(for: refresh, cellular: false, at: .zero, policy: policy)
        #expect(taken.energy == min(policy.refreshEnergyReservation, policy.refreshReservationMargin * 0.5))
    }

    @Test func aPolicyGivesTheLaunchModelItsHalfLife() {
        let week = 7 * 86_400.0
        var judging = policy
        judging.likelihoodHalfLife = week
        var controllers = JudgementControllers(judging)
        #expect(controllers.launchModel.halfLife == week)
        judging.likelihoodHalfLife = 3600
        controllers.follow(judging)
        #expect(controllers.launchModel.halfLife == judging.likelihoodHalfLife)
    }
}
