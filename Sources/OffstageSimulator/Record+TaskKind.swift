import OffstageCore

extension Record {
    /// For a `started` record, the kind of task it started (its reason begins "app refresh task started").
    var startedTaskKind: TaskKind? {
        guard kind == .started else { return nil }
        return TaskKind.allCases.first { reason.hasPrefix("\($0.rawValue) task started") }
    }
}
