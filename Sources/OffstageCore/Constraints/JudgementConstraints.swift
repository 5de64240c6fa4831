/// Usage tier: an app the user has not opened for a week (or ever) gets no refresh and no processing.
public struct UsageTierConstraint: Constraint {
    public init() {}
    public var name: String { "usageTier" }
    public var factor: WorkFactor? { .appUsage }
    /// It reads only the time and its own app.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { [] }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        guard context.judgement.tier == .never else { return .satisfied }
        let days = Int((context.policy.judgement.rareWithin / 86_400).rounded())
        return .blocked(reason: "the app has not been used for \(days) days (tier never)", until: nil)
    }
}

/// Quota: runs per rolling window by usage tier, scaled by the app's cooperation. Unlike the budget it
/// holds on the charger too: it shares opportunities out by use, not by energy. It serves predicted windows:
/// a refresh the launch model judged worth running while the device is awake anyway is not held by it (it
/// costs no wake; the energy budget bounds such runs), so a heavy app's quota is left for the wakes.
public struct QuotaConstraint: Constraint {
    public init() {}
    public var name: String { "quota" }
    public var factor: WorkFactor? { .appUsage }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        let usage = context.judgement
        guard usage.tier != .never, usage.runsInWindow >= usage.quota else {
            return .satisfied
        }
        if servesPrediction(request, in: context) { return .satisfied }
        let hours = Int((context.policy.judgement.quotaWindow / 3600).rounded())
        // Pre-warms the quota let through while the device was awake count too: the used may exceed the allowed.
        let over = usage.runsInWindow > usage.quota ? " (pre-warms while the device was awake count, unheld)" : ""
        // Judged again when a place frees, or sooner when a habit's launch enters the window (`servesPrediction`).
        let habitRises = request.kind == .appRefresh ? usage.likelihood.habitRises : nil
        return .blocked(
            reason:
                "\(usage.quota) runs in \(hours) h allowed (tier \(usage.tier.rawValue)), \(usage.runsInWindow) used\(over)",
            until: [usage.quotaFreesAt, habitRises].compactMap { $0 }.min())
    }

    /// The device awake anyway (the screen, the charger) lets a predicted refresh through.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { [.screenLit, .charger] }

    /// A refresh task (not a legacy fetch, which its own interval paces) judged by a learnt launch model while
    /// the device is awake anyway, or a refresh or fetch serving a habit worth a wake.
    private func servesPrediction(_ request: TaskRequest, in context: ConstraintContext) -> Bool {
        let likelihood = context.judgement.likelihood
        guard request.kind == .appRefresh else { return false }
        return likelihood.servesAHabit(context.policy.judgement)
            || (context.work == .appRefresh && likelihood.learnt && context.judgement.deviceAwake)
    }
}

/// Launch prediction: a refresh runs when its expected value, the chance the user opens the app within the
/// freshness window times the freshness it gains, beats its cost: little while the device is awake anyway, a
/// wake otherwise, more on cellular and on a low battery (`JudgementPolicy`). Predictions pull work forward to
/// the moments launches follow (the screen coming on, the app before it, a notification); while the model is
/// still learning it holds nothing back. `earliestBeginDate` and the quota are other constraints: never beaten.
public struct LaunchPredictionConstraint: Constraint {
    public init() {}
    public var name: String { "launchPrediction" }
    public var factor: WorkFactor? { .appUsage }
    public func applies(to request: TaskRequest) -> Bool { request.kind == .appRefresh }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        let likelihood = context.judgement.likelihood
        guard likelihood.learnt else { return .satisfied }
        let value = likelihood.probability * freshnessGained(in: context)
        let cost = runCost(in: context)
        guard value < cost.cost else { return .satisfied }
        var until = nextChange(in: context, rising: true)
        if let refilled = cost.budgetRefill(lowering: value, in: context) { until = min(until, refilled) }
        // Content fresher than the window gains more as it ages: judged again when a run would be worth the cheapest
        // run's cost (from then, the device waking can start it: `lifts`), or this one's.
        let awakeCost = context.policy.judgement.awakeRunCost
        if let aged = agedToBeWorth(value < awakeCost ? awakeCost : cost.cost, in: context) { until = min(until, aged) }
        let reason = BlockerReason {  // rendered only if shown: most verdicts are not
            "\(likelihood.words); a run now is worth \(percent(value)) % of a fresh launch and costs "
                + "\(percent(cost.cost)) % (\(cost.words))"
        }
        return .blocked(reason: reason, until: until)
    }
    /// Satisfied, it holds until the hour's base rate changes or the content ages further.
    public func satisfactionEnds(for request: TaskRequest, in context: ConstraintContext) -> Instant? {
        context.judgement.likelihood.learnt ? nextChange(in: context, rising: false) : nil
    }
    /// A run worth less than its cost at its cheapest (the device awake anyway, on Wi-Fi, a full budget) is held
    /// whatever the device does: only the time and the app's likelihood lift it, so no wake or change reviews it.
    /// Otherwise what makes it dearer can lift it: a wake or the screen for a run that would wake the device, the
    /// charger, Wi-Fi for one on cellular, the battery's level on a low battery, and a budget refilled by what a run
    /// gave back when a fuller budget would make the run worth its cost. What only makes it dearer (the screen
    /// going dark, another app on screen) reviews nothing.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts {
        let value = context.judgement.likelihood.probability * freshnessGained(in: context)
        guard value >= context.policy.judgement.awakeRunCost else { return [] }
        let cost = runCost(in: context)
        var lifts: BlockerLifts = [.wake]
        if cost.wakesDevice { lifts.formUnion([.screenLit, .charger]) }
        if cost.onCellular || cost.sharesRadio != nil { lifts.insert(.network) }
        if cost.onLowBattery { lifts.formUnion([.batteryLevel, .charger]) }
        if cost.budgetShare != nil { lifts.insert(.charger) }
        if cost.budgetRefill(lowering: value, in: context) != nil { lifts.insert(.budgetRefill) }
        return lifts
    }

    /// When the content will have aged enough for a run to be worth `cost` at the likelihood of now (which only falls
    /// between events, so not sooner); nil when it is older than the window or no age makes the run worth it.
    func agedToBeWorth(_ cost: Double, in context: ConstraintContext) -> Instant? {
        let likelihood = context.judgement.likelihood
        guard let updated = context.judgement.contentUpdatedAt, likelihood.probability > cost,
            context.now < updated + likelihood.window
        else { return nil }
        return max(updated + likelihood.window * cost / likelihood.probability, context.now + 1)
    }

    /// The share of the window a refresh now makes fresh that is not fresh already: 1 for content older
    /// than the window (or never refreshed).
    func freshnessGained(in context: ConstraintContext) -> Double {
        context.judgement.contentUpdatedAt.map { min(1, (context.now - $0) / context.judgement.likelihood.window) }
            ?? 1
    }

    /// What a run now costs, in fresh launches, and what makes it so: little while the device is awake anyway,
    /// a wake otherwise, more on cellular (unless another run has the radio up already) and on a low battery,
    /// divided by how full the energy budget is.
    struct RunCost {
        var cost: Double
        var wakesDevice: Bool
        var onCellular = false
        /// On cellular with the radio up already: the share of the tail's cost the run adds (`radioTailExtension`,
        /// and what has passed of a tail an app's bytes left running), nil when it pays the whole tail.
        var sharesRadio: Double?
        var onLowBattery = false
        /// How full the energy budget is (at least a tenth), when it is not full and the device not charging.
        var budgetShare: Double?

        /// "it would wake the device, on cellular, the energy budget 40 % full": the cost's causes in words.
        var words: String {
            var words = wakesDevice ? "it would wake the device" : "the device is awake"
            if onCellular { words += ", on cellular" }
            if let sharesRadio {
                words += ", on cellular with the radio already up (\(percent(sharesRadio)) % of its tail's cost)"
            }
            if onLowBattery { words += ", on a low battery" }
            if let budgetShare { words += ", the energy budget \(percent(budgetShare)) % full" }
            return words
        }

        /// When the energy budget will have refilled enough to bring the cost down to `value`, if it can.
        func budgetRefill(lowering value: Double, in context: ConstraintContext) -> Instant? {
            guard let budgetShare, value > 0 else { return nil }
            let share = cost * budgetShare / value  // the cost with the budget full, over the value
            guard share <= 1 else { return nil }
            let budget = context.judgement.energyBudget
            // Reached already by the balance yet still dearer by a rounding: judged again a second later (without
            // it, such a refresh waited for an unrelated event: the week scenario has some).
            return budget.time(toReach: share * max(1, budget.capacity), from: context.now).map {
                max($0, context.now + 1)
            }
        }
    }

    /// What a run now costs (see `RunCost`).
    func runCost(in context: ConstraintContext) -> RunCost {
        let policy = context.policy.judgement
        let awake = context.judgement.deviceAwake
        var cost = RunCost(cost: awake ? policy.awakeRunCost : policy.wakeRunCost, wakesDevice: !awake)
        // The radio's high-power tail after a download costs several runs' worth of energy; a run that starts
        // while the radio is up only extends it: by its own length (its bytes restart the tail as it ends), and
        // in a tail an app's bytes left, by what has passed of it. Only the first of a batch pays for all of it.
        if context.device.network == .cellular {
            let tailAdded = policy.radioTailExtension
            var share: Double?
            if context.judgement.otherRunInProgress {
                share = tailAdded
            } else if let ends = context.judgement.radioTailEnds, ends > context.now {
                let tail = context.policy.power.cellularTailSeconds
                share = max(0, min(1, tailAdded + 1 - (ends - context.now) / tail))  // its length and what passed
            }
            if let share {
                cost.cost += policy.cellularRunCost * share
                cost.sharesRadio = share
            } else {
                cost.cost += policy.cellularRunCost
                cost.onCellular = true
            }
        }
        guard !context.device.isCharging else { return cost }
        if context.device.batteryLevel < policy.lowBatteryLevel {
            cost.cost *= policy.lowBatteryCostFactor
            cost.onLowBattery = true
        }
        // The emptier the energy budget, the dearer a run: what is left goes to the likeliest launches.
        let budget = context.judgement.energyBudget
        let left = max(0.1, budget.balance(at: context.now) / max(1, budget.capacity))
        if left < 1 {
            cost.cost /= left
            cost.budgetShare = left
        }
        return cost
    }

    /// When the verdict can turn with the context otherwise the same: the next local hour (the base rate's
    /// slot; a recent trigger's estimate only falls as it ages), held (`rising`), the moment a habit's launch
    /// enters the window, or the content's age reaching the window.
    private func nextChange(in context: ConstraintContext, rising: Bool) -> Instant {
        var next =
            context.now + (3600 - context.wallClock.secondOfDay(at: context.now).truncatingRemainder(dividingBy: 3600))
        if rising, let habit = context.judgement.likelihood.habitRises { next = min(next, habit) }
        guard let updated = context.judgement.contentUpdatedAt else { return next }
        let fresh = updated + context.judgement.likelihood.window
        return fresh > context.now ? min(next, fresh) : next
    }

}

/// A share as a whole percentage, as the judgement's words give it.
private func percent(_ share: Double) -> Int { Int((share * 100).rounded()) }

/// Rate limiting: the system spaces an app's discretionary launches, `discretionaryRateLimit` apart, so
/// a request resubmitted at once (no `earliestBeginDate`, or from its own handler) does not run back to back.
public struct RateLimitConstraint: Constraint {
    public init() {}
    public var name: String { "rateLimit" }
    public var factor: WorkFactor? { .rateLimiting }
    /// Pushes are rate limited by their own limit (`backgroundPushRateLimit`), where they are held.
    public func applies(to work: WorkKind) -> Bool {
        work != .backgroundPush && FactorTable.standard.holds(.rateLimiting, work)
    }
    /// Its time is fixed: a spacing from a run that already started.
    public var holdsUntilItsTime: Bool { true }
    /// It reads only the time and its own app.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { [] }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        let spacing = context.policy.discretionaryRateLimit
        guard let last = context.judgement.lastRunStarted, context.now < last + spacing else { return .satisfied }
        let ago = context.now - last
        let reason = BlockerReason {
            "the app's last background launch was \(ago < 60 ? "\(Int(ago)) s" : minutes(ago)) ago; "
                + "launches are \(minutes(spacing)) apart"
        }
        return .blocked(reason: reason, until: last + spacing)
    }
}

/// The processing pace: a processing task runs a few times a night at most, however often the app resubmits it;
/// its next run waits `processingSpacing` after its last start (by identifier).
public struct ProcessingPaceConstraint: Constraint, SeesOnlyWhetherForeground {
    public init() {}
    public var name: String { "processingPace" }
    /// Its time is fixed: a spacing from a run that already started.
    public var holdsUntilItsTime: Bool { true }
    /// It reads only the time and its own app.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { [] }
    public func applies(to request: TaskRequest) -> Bool { request.kind == .processing }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        let spacing = context.policy.judgement.processingSpacing
        guard let last = context.judgement.processingStarts[request.identifier], context.now < last + spacing
        else { return .satisfied }
        let ago = context.now - last
        return .blocked(
            reason: BlockerReason {
                "this processing task last ran \(minutes(ago)) ago; it runs at most every \(minutes(spacing))"
            }, until: last + spacing)
    }
}

/// Little known, little run (SPEC §5): an app the user has opened fewer than `littleKnownLaunches` times within the
/// history window gets its refresh and legacy fetch at most every `littleKnownSpacing`, so one that resubmits
/// every 15 minutes runs a few times a day, spread out, whatever the launch model makes of it.
public struct LittleKnownConstraint: Constraint, SeesOnlyWhetherForeground {
    public init() {}
    public var name: String { "littleKnown" }
    public var factor: WorkFactor? { .appUsage }
    /// Refresh tasks and legacy fetch: processing has its own pace, pushes their own limit.
    public func applies(to work: WorkKind) -> Bool { work == .appRefresh || work == .backgroundFetch }
    public func applies(to request: TaskRequest) -> Bool { request.kind == .appRefresh }
    /// Its time is fixed: a spacing from a run that already started.
    public var holdsUntilItsTime: Bool { true }
    /// It reads only the time and its own app.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { [] }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        let policy = context.policy.judgement
        let launches = context.judgement.launchesKnown
        guard launches < policy.littleKnownLaunches, let last = context.judgement.lastRunStarted,
            context.now < last + policy.littleKnownSpacing,
            !context.judgement.likelihood.servesAHabit(policy)
        else { return .satisfied }
        let spacing = policy.littleKnownSpacing
        // Judged again when its spacing ends, or sooner when a habit's launch enters the window: a time the app's
        // own launches set, so the wait still holds until its time whatever else happens.
        let until = min(last + spacing, context.judgement.likelihood.habitRises ?? last + spacing)
        return .blocked(
            reason: BlockerReason {
                "opened \(launches) times in \(Int((policy.historyWindow / 86_400).rounded())) days: little known, it "
                    + "runs at most every \(minutes(spacing))"
            }, until: until)
    }

}

/// Energy budget: refresh, pushes and fetches draw on a system-wide budget that refills through the day; a run
/// needs its reservation in it. Unlimited on the charger. Processing is not held by it (`FactorTable`).
public struct EnergyBudgetConstraint: Constraint {
    public init() {}
    public var name: String { "energyBudget" }
    public var factor: WorkFactor? { .systemBudgets }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        guard !context.device.isCharging else { return .satisfied }
        let need = request.energyReservation(context.policy.judgement, refreshUse: context.judgement.refreshEnergyUse)
        let budget = context.judgement.energyBudget
        let left = budget.balance(at: context.now)
        guard left < need else { return .satisfied }
        return .blocked(
            reason: "energy budget has \(Int(left)) J of \(Int(budget.capacity)) J; a run needs \(Int(need)) J",
            until: budget.time(toReach: need, from: context.now))
    }
    /// A run giving back its reservation refills it, and the charger lifts it.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts {
        [.charger, .budgetRefill]
    }
}

/// Cellular data budget: on cellular, discretionary work draws on a data budget refilled through the day.
public struct CellularDataBudgetConstraint: Constraint {
    public init() {}
    public var name: String { "cellularBudget" }
    public var factor: WorkFactor? { .systemBudgets }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        guard context.device.network == .cellular, !context.device.isCharging else {
            return .satisfied
        }
        let need = context.policy.judgement.dataReservation
        let budget = context.judgement.dataBudget
        let left = budget.balance(at: context.now)
        guard left < need else { return .satisfied }
        return .blocked(
            reason: "cellular data budget has \(Int(left / 1000)) kB; a run needs \(Int(need / 1000)) kB",
            until: budget.time(toReach: need, from: context.now))
    }
    /// A run giving back its reservation refills it; Wi-Fi and the charger lift it.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts {
        [.network, .charger, .budgetRefill]
    }
}

/// Coalescing: discretionary work runs while the device is awake anyway (screen on, charger, another
/// task running) or in a maintenance wake on the policy's grid, which serves every task due by then.
public struct CoalescingConstraint: Constraint {
    public init() {}
    public var name: String { "coalescing" }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        guard let lastWake = lastMaintenanceWake(in: context) else { return .satisfied }
        let policy = context.policy.judgement
        if context.now < lastWake + policy.maintenanceWindow { return .satisfied }
        let next = lastWake + policy.maintenanceInterval
        return .blocked(reason: "the device is asleep; waits for the next maintenance wake", until: next)
    }
    /// Satisfied within a maintenance wake's window, it turns when the window closes.
    public func satisfactionEnds(for request: TaskRequest, in context: ConstraintContext) -> Instant? {
        lastMaintenanceWake(in: context).map { $0 + context.policy.judgement.maintenanceWindow }
    }
    /// The device waking (a wake, the screen, the charger, another run) lifts it.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts {
        [.screenLit, .charger, .wake]
    }

    /// The latest maintenance wake on the grid at or before now, when the device sleeps and the judgement
    /// coalesces; nil when coalescing does not hold work back.
    private func lastMaintenanceWake(in context: ConstraintContext) -> Instant? {
        let grid = context.policy.judgement.maintenanceInterval
        guard !context.judgement.deviceAwake, grid > 0 else { return nil }
        return Instant(seconds: (context.now.seconds / grid).rounded(.down) * grid)
    }
}

extension TaskRequest {
    /// The energy a run of this request reserves from the budget when it starts: for a refresh, the margin
    /// times what refresh runs use (`refreshUse`, measured), at most the policy's reservation.
    func energyReservation(_ policy: JudgementPolicy, refreshUse: Double) -> Double {
        kind == .processing
            ? policy.processingEnergyReservation
            : min(policy.refreshEnergyReservation, policy.refreshReservationMargin * refreshUse)
    }
}

/// A constraint that reads the launch model's likelihood (`JudgementContext.likelihood`). Only when one of the
/// constraints in use conforms is it worked out; the others see an unlearnt one (a host's own must conform too).
public protocol ReadsLaunchLikelihood: Constraint {}

extension QuotaConstraint: ReadsLaunchLikelihood {}
extension LaunchPredictionConstraint: ReadsLaunchLikelihood {}
