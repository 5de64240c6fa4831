/// The fixed-period baseline's timing: an app's discretionary work starts at most once per period,
/// counted from its previous run; the first run needs only the conditions. Satisfied under other strategies.
public struct FixedPeriodConstraint: Constraint {
    public init() {}
    public var name: String { "fixedPeriod" }
    public var liftsOnSharedChange: Bool { false }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        guard case .fixedPeriod(let period) = context.policy.strategy, let last = context.judgement.lastRunStarted
        else { return .satisfied }
        let next = last + period
        guard context.now < next else { return .satisfied }
        let minutes = Int((period / 60).rounded())
        return .blocked(reason: "runs once every \(minutes) min (fixed period)", until: next)
    }
}

/// The oracle's timing: a refresh runs in the `lead` before the user's next launch, which the host
/// announced from the trace's future; with no launch ahead it waits. Satisfied under other strategies.
public struct AnnouncedLaunchConstraint: Constraint {
    public init() {}
    public var name: String { "oracle" }
    public var liftsOnSharedChange: Bool { false }
    public func applies(to request: TaskRequest) -> Bool { request.kind == .appRefresh }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        guard case .oracle(let lead) = context.policy.strategy else { return .satisfied }
        guard let launch = context.judgement.predictedLaunch else {
            return .blocked(reason: "no launch announced ahead (oracle)", until: nil)
        }
        let opens = launch + (-lead)
        guard context.now < opens else { return .satisfied }
        return .blocked(reason: "runs just before the user's announced next launch (oracle)", until: opens)
    }
}
