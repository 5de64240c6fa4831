/// Usage tier: an app the user has not opened for a week (or ever) gets no refresh and no processing.
public struct UsageTierConstraint: Constraint {
    public init() {}
    public var name: String { "usageTier" }
    public var factor: WorkFactor? { .appUsage }
    public var liftsOnSharedChange: Bool { false }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        guard context.judgement.tier == .never else { return .satisfied }
        let days = Int((context.policy.judgement.rareWithin / 86_400).rounded())
        return .blocked(reason: "the app has not been used for \(days) days (tier never)", until: nil)
    }
}

/// Quota: runs per rolling window by usage tier, scaled by the app's cooperation. Unlike the budget it
/// holds on the charger too: it shares opportunities out by use, not by energy.
public struct QuotaConstraint: Constraint {
    public init() {}
    public var name: String { "quota" }
    public var factor: WorkFactor? { .appUsage }
    public var liftsOnSharedChange: Bool { false }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        let usage = context.judgement
        guard usage.tier != .never, usage.runsInWindow >= usage.quota else {
            return .satisfied
        }
        let hours = Int((context.policy.judgement.quotaWindow / 3600).rounded())
        return .blocked(
            reason: "\(usage.runsInWindow) of \(usage.quota) runs in \(hours) h used (tier \(usage.tier.rawValue))",
            until: usage.quotaFreesAt)
    }
}

/// Launch prediction: a refresh runs in a window shortly before the user's predicted next launch,
/// so the content is fresh when the app opens. Without a prediction it is not held back.
public struct LaunchPredictionConstraint: Constraint {
    public init() {}
    public var name: String { "launchPrediction" }
    public var factor: WorkFactor? { .appUsage }
    public var liftsOnSharedChange: Bool { false }
    public func applies(to request: TaskRequest) -> Bool { request.kind == .appRefresh }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        guard let launch = context.judgement.predictedLaunch else { return .satisfied }
        let opens = launch + (-context.policy.judgement.refreshLead)
        guard context.now < opens else { return .satisfied }
        let minutes = Int((context.policy.judgement.refreshLead / 60).rounded())
        return .blocked(reason: "runs from \(minutes) min before the predicted next launch", until: opens)
    }
}

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
    public var liftsOnSharedChange: Bool { false }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        let spacing = context.policy.discretionaryRateLimit
        guard let last = context.judgement.lastRunStarted, context.now < last + spacing else { return .satisfied }
        let ago = context.now - last
        return .blocked(
            reason: "the app's last background launch was \(ago < 60 ? "\(Int(ago)) s" : minutes(ago)) ago; "
                + "launches are \(minutes(spacing)) apart", until: last + spacing)
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
        let need = request.energyReservation(context.policy.judgement)
        let budget = context.judgement.energyBudget
        let left = budget.balance(at: context.now)
        guard left < need else { return .satisfied }
        return .blocked(
            reason: "energy budget has \(Int(left)) J of \(Int(budget.capacity)) J; a run needs \(Int(need)) J",
            until: budget.time(toReach: need, from: context.now))
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

    /// The latest maintenance wake on the grid at or before now, when the device sleeps and the judgement
    /// coalesces; nil when coalescing does not hold work back.
    private func lastMaintenanceWake(in context: ConstraintContext) -> Instant? {
        let grid = context.policy.judgement.maintenanceInterval
        guard !context.judgement.deviceAwake, grid > 0 else { return nil }
        return Instant(seconds: (context.now.seconds / grid).rounded(.down) * grid)
    }
}

extension TaskRequest {
    /// The energy a run of this request reserves from the budget when it starts.
    func energyReservation(_ policy: JudgementPolicy) -> Double {
        kind == .processing ? policy.processingEnergyReservation : policy.refreshEnergyReservation
    }
}
