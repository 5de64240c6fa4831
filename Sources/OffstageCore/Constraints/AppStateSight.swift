/// How much of an app's life-cycle state the constraints in use look at, for the kept judgement
/// (`PendingJudgement`): the standard ones read at most whether the app is in the foreground, so a
/// judgement kept across background → suspended (a change many reviews follow) still holds.
enum AppStateSight: Sendable {
    /// Some constraint may read the whole state: any change of it is judged anew.
    case whole
    /// Every constraint reads at most whether the app is in the foreground.
    case foregroundOnly

    /// The sight of `constraints`: foreground only when each one says so (`SeesOnlyWhetherForeground`).
    init(_ constraints: [any Constraint]) {
        self = constraints.allSatisfy { $0 is any SeesOnlyWhetherForeground } ? .foregroundOnly : .whole
    }

    /// Whether the constraints can tell the app in state `a` from the app in state `b`.
    func tells(_ a: AppState, from b: AppState) -> Bool {
        switch self {
        case .whole: a != b
        case .foregroundOnly: a.isForeground != b.isForeground
        }
    }
}

/// A constraint whose verdicts, interruptions and turning times read of the app's state at most
/// `AppState.isForeground`. Only constraints checked to do so conform (a host's too); any other makes the sight whole.
public protocol SeesOnlyWhetherForeground: Constraint {}

extension EarliestBeginDateConstraint: SeesOnlyWhetherForeground {}
extension BackgroundAppRefreshConstraint: SeesOnlyWhetherForeground {}
extension LowPowerModeConstraint: SeesOnlyWhetherForeground {}
extension CriticalBatteryConstraint: SeesOnlyWhetherForeground {}
extension ThermalConstraint: SeesOnlyWhetherForeground {}
extension NetworkConstraint: SeesOnlyWhetherForeground {}
extension ExternalPowerConstraint: SeesOnlyWhetherForeground {}
extension DeviceIdleConstraint: SeesOnlyWhetherForeground {}
extension ForceQuitConstraint: SeesOnlyWhetherForeground {}
extension ForegroundConstraint: SeesOnlyWhetherForeground {}
extension NotAlreadyRunningConstraint: SeesOnlyWhetherForeground {}
extension UsageTierConstraint: SeesOnlyWhetherForeground {}
extension QuotaConstraint: SeesOnlyWhetherForeground {}
extension RateLimitConstraint: SeesOnlyWhetherForeground {}
extension LaunchPredictionConstraint: SeesOnlyWhetherForeground {}
extension EnergyBudgetConstraint: SeesOnlyWhetherForeground {}
extension CellularDataBudgetConstraint: SeesOnlyWhetherForeground {}
extension CoalescingConstraint: SeesOnlyWhetherForeground {}
