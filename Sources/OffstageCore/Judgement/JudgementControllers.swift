/// The judgement's system-wide controllers (§5), and the only code that changes them: what the user's use of the
/// device says about the apps they open next, the energy a refresh run uses, and the energy and data budgets.
struct JudgementControllers: Sendable {
    /// What the user did that the launch model learns from (see `LaunchModel`).
    enum UsageSignal {
        case launched(BundleID)
        case left(BundleID)
        case screenCameOn
        case notified(BundleID)
        case pushed(BundleID)
        case charger(plugged: Bool)
    }

    /// What the user's use of the device says about the apps they open next.
    private(set) var launchModel = LaunchModel()
    /// The joules a refresh run uses, measured as runs end (an exponential average); nil before the first.
    private(set) var refreshEnergyUse: Double?
    /// The system-wide energy budget for discretionary work, in joules.
    private(set) var energyBudget: BudgetAccount
    /// The system-wide cellular data budget for discretionary work, in bytes.
    private(set) var dataBudget: BudgetAccount

    /// Full budgets and an empty launch model, as `policy` sets them.
    init(_ policy: JudgementPolicy) {
        energyBudget = BudgetAccount(capacity: policy.energyBudgetCapacity, perDay: policy.energyBudgetPerDay)
        dataBudget = BudgetAccount(capacity: policy.dataBudgetCapacity, perDay: policy.dataBudgetPerDay)
        follow(policy)
    }

    /// The policy changed: the launch model forgets at its half-life and keeps its habit days (the budgets keep theirs until restored).
    mutating func follow(_ policy: JudgementPolicy) {
        launchModel.halfLife = policy.likelihoodHalfLife
        launchModel.habitDays = policy.habitDays
    }

    // MARK: Usage

    /// Teaches the launch model `signal`, at `time`; returns the apps whose launch it makes likelier.
    mutating func learn(_ signal: UsageSignal, at time: Instant, clock: WallClock) -> [BundleID] {
        switch signal {
        case .launched(let id): launchModel.launched(id, at: time, clock: clock)
        case .left(let id): launchModel.left(id, at: time, clock: clock)
        case .screenCameOn: launchModel.screenCameOn(at: time, clock: clock)
        case .notified(let id): launchModel.notified(id, at: time, clock: clock)
        case .pushed(let id): launchModel.pushed(id, at: time, clock: clock)
        case .charger(let plugged): launchModel.charger(plugged: plugged, at: time, clock: clock)
        }
    }

    /// The chance the user opens `id` within the freshness window at `now`, and why.
    func launchLikelihood(of id: BundleID, at now: Instant, clock: WallClock, policy: JudgementPolicy)
        -> LaunchLikelihood
    {
        launchModel.likelihood(of: id, at: now, clock: clock, policy: policy)
    }

    // MARK: Budgets

    /// Takes from the budgets what a run of `request` starting at `now` may use, never more than is left: energy,
    /// and cellular data when it runs on cellular. Returns the joules and bytes taken.
    mutating func reserve(for request: TaskRequest, cellular: Bool, at now: Instant, policy: JudgementPolicy)
        -> (energy: Double, data: Double)
    {
        let energy = min(
            request.energyReservation(policy, refreshUse: refreshEnergyUse ?? .infinity),
            max(0, energyBudget.balance(at: now)))
        let data = cellular ? min(policy.dataReservation, max(0, dataBudget.balance(at: now))) : 0
        energyBudget.withdraw(energy, at: now)
        dataBudget.withdraw(data, at: now)
        return (energy, data)
    }

    /// Gives back at `now` what a run did not use of `reserved` (what it used beyond is not charged: the budgets
    /// are never overspent); a refresh run's use is what its successors reserve from.
    mutating func giveBack(
        _ reserved: Reservation, usedEnergy: Double, usedBytes: Double, refresh: Bool, at now: Instant,
        policy: JudgementPolicy
    ) {
        energyBudget.deposit(reserved.energy - min(max(0, usedEnergy), reserved.energy), at: now)
        if refresh { noteRefreshEnergyUse(max(0, usedEnergy), policy) }
        dataBudget.deposit(reserved.data - min(max(0, usedBytes), reserved.data), at: now)
    }

    /// A refresh run used `joules` (from its start to its end): the measured use its successors reserve from.
    private mutating func noteRefreshEnergyUse(_ joules: Double, _ policy: JudgementPolicy) {
        let weight = policy.refreshUseWeight
        refreshEnergyUse = refreshEnergyUse.map { $0 * (1 - weight) + joules * weight } ?? joules
    }

    // MARK: Memory

    /// Puts back what a snapshot remembers: the budgets refill from their balances at its time with `policy`,
    /// and the launch model and refresh energy use it learnt, if it kept them.
    mutating func restore(_ snapshot: SystemSnapshot, policy: JudgementPolicy) {
        energyBudget = BudgetAccount(
            capacity: policy.energyBudgetCapacity, perDay: policy.energyBudgetPerDay,
            balance: snapshot.energyBudgetBalance, at: snapshot.takenAt)
        dataBudget = BudgetAccount(
            capacity: policy.dataBudgetCapacity, perDay: policy.dataBudgetPerDay,
            balance: snapshot.dataBudgetBalance, at: snapshot.takenAt)
        if let learnt = snapshot.launchModel {
            launchModel = learnt
            follow(policy)
        }
        if let measured = snapshot.refreshEnergyUse { refreshEnergyUse = measured }
    }
}
