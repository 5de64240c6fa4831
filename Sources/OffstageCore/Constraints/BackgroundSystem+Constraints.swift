extension BackgroundSystem {
    /// The constraints the scheduler applies, in the order `explain` lists them. A change forgets every app's
    /// kept judgement, which read them.
    public var constraints: [any Constraint] {
        get { constraintSet.list }
        set {
            constraintSet = ConstraintSet(newValue)
            forgetKeptJudgements()
        }
    }
}
