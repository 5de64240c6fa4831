/// The constraints the scheduler applies, with what the system works out once from them: how much of an app's
/// state they look at, and whether any reads the launch likelihood. Replaced whole when the constraints change.
struct ConstraintSet: Sendable {
    let list: [any Constraint]
    /// How much of an app's state the constraints look at (see `AppStateSight`).
    let sight: AppStateSight
    /// Whether a constraint reads the launch model's likelihood (`ReadsLaunchLikelihood`): without one (the
    /// evaluation's baselines), it is not worked out for every review, nor do usage signals review apps.
    let readsLaunchLikelihood: Bool

    init(_ list: [any Constraint]) {
        self.list = list
        sight = AppStateSight(list)
        readsLaunchLikelihood = list.contains { $0 is any ReadsLaunchLikelihood }
    }
}
