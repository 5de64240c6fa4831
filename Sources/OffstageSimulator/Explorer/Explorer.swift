public import OffstageCore

/// Runs an app's real code (or a declarative app) under many seeded device histories and checks invariants in
/// each: the first history that breaks one is shrunk to a minimal list of disturbances and reported with its
/// seed, a short timeline and the scenario timeline that reproduces it.
///
/// History `i` of a run with seed `S` is drawn from seed `S + i`, so a failure's seed alone replays it
/// (`runs: 1, seed: failure.seed`). Every history is a scenario run (`Simulation`) in virtual time: the same
/// seed gives the same history and the same records byte for byte.
public struct Explorer: Sendable {
    /// The apps, device, settings and policy of every history; its own timeline is played before the
    /// disturbances, and its duration is ignored (`length` is used).
    public var scenario: Scenario
    public var catalog: SwiftAppCatalog
    /// The app whose code is explored (the disturbances act on it).
    public var app: BundleID
    /// How many histories (ours: 200, enough for each example bug of `Examples/ExplorerExamples`).
    public var runs = 200
    /// The seed of the first history.
    public var seed: UInt64 = 1
    /// The length of each history in seconds (ours: one day).
    public var length = 86_400.0
    /// Disturbances per history after the first open (ours: 30).
    public var events = 30
    /// Controls the user may tap in the app (its `performUserAction` names).
    public var controls: [String] = []
    /// What must hold in every history: the standard invariants, then the app's own.
    public var invariants = Invariant.standard
    /// Run before each history, to reset what the app keeps outside its process (a store standing in for disk).
    public var beforeEachHistory: @Sendable () -> Void = {}

    /// An explorer of `app`, one of the scenario's apps. Throws if the app is not in the scenario, or its Swift
    /// code not in the catalog.
    public init(scenario: Scenario, catalog: SwiftAppCatalog = SwiftAppCatalog(), app: BundleID) throws(ScenarioError) {
        guard let spec = scenario.apps.first(where: { $0.manifest.bundleIdentifier == app }) else {
            let known = scenario.apps.map(\.manifest.bundleIdentifier.rawValue).joined(separator: ", ")
            throw ScenarioError(
                source: scenario.source, field: "app",
                message: "no app '\(app)' in the scenario (its apps: \(known.isEmpty ? "none" : known))")
        }
        try Simulation.requireCode(of: spec, in: catalog, source: scenario.source)
        self.scenario = scenario
        self.catalog = catalog
        self.app = app
    }

    /// The app's task identifiers the disturbances launch and expire: its permitted ones, wildcards left out.
    private var taskIdentifiers: [String] {
        let manifest = scenario.apps.first { $0.manifest.bundleIdentifier == app }?.manifest
        return (manifest?.permittedIdentifiers ?? []).filter { !AppManifest.isWildcard($0) }
    }

    /// The disturbances of the history drawn from `seed`.
    public func history(seed: UInt64) -> [HistoryEvent] {
        HistoryGenerator(taskIdentifiers: taskIdentifiers, controls: controls, length: length, events: events)
            .history(seed: seed)
    }

    /// Explores `runs` histories from `seed`, stopping at the first that breaks an invariant (shrunk);
    /// `progress` is told how many histories have run.
    public func explore(progress: ((Int) -> Void)? = nil) -> ExplorationResult {
        for index in 0..<runs {
            let historySeed = seed &+ UInt64(index)
            let events = history(seed: historySeed)
            let outcome = run(events)
            progress?(index + 1)
            if let (invariant, violation) = firstViolation(in: outcome) {
                let shrunk = shrink(events, breaking: invariant)
                let replay = run(shrunk)
                return ExplorationResult(
                    app: app, histories: index + 1,
                    failure: ExplorationFailure(
                        app: app, seed: historySeed, invariant: invariant, violation: violation, drawn: events,
                        shrunk: shrunk, shrunkViolation: check(invariant, in: replay) ?? violation,
                        records: replay.appRecords))
            }
        }
        return ExplorationResult(app: app, histories: runs, failure: nil)
    }

    /// Runs one history: the scenario with the disturbances on its timeline, for `length` seconds.
    public func run(_ events: [HistoryEvent]) -> HistoryOutcome {
        beforeEachHistory()
        var history = scenario
        history.timeline += events.map { TimelineEntry(at: $0.at, action: $0.disturbance.action(for: app)) }
        history.duration = length
        // The catalog's apps were checked at init, and a history changes none of them.
        let simulation = try! Simulation(scenario: history, catalog: catalog)
        let records = simulation.run()
        return HistoryOutcome(
            app: app, events: events, records: records, system: simulation.system, end: Instant(seconds: length))
    }

    /// The first invariant the outcome breaks, by name, with its violation.
    private func firstViolation(in outcome: HistoryOutcome) -> (String, Violation)? {
        for invariant in invariants {
            if let violation = invariant.check(outcome) { return (invariant.name, violation) }
        }
        return nil
    }

    /// The violation of the invariant named `name` in the outcome, if it breaks it.
    private func check(_ name: String, in outcome: HistoryOutcome) -> Violation? {
        invariants.first { $0.name == name }?.check(outcome)
    }

    /// Delta debugging over the disturbances: removes chunks, halving their size, as long as what is left still
    /// breaks the same invariant; the first open is kept. Deterministic: the same history shrinks the same way.
    func shrink(_ events: [HistoryEvent], breaking invariant: String) -> [HistoryEvent] {
        var kept = events
        var chunk = max(1, kept.count / 2)
        while true {
            var removedAny = false
            var start = 1
            while start < kept.count {
                var candidate = kept
                candidate.removeSubrange(start..<min(kept.count, start + chunk))
                if check(invariant, in: run(candidate)) != nil {
                    kept = candidate
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if chunk == 1 && !removedAny { return kept }
            if !removedAny { chunk = max(1, chunk / 2) }
        }
    }
}
