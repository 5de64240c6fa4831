public import Foundation
public import OffstageCore

/// A policy `offstage evaluate` measures: a name for the table and the strategy the core applies.
public struct EvaluatedPolicy: Hashable, Sendable, Codable {
    public var name: String
    public var strategy: SchedulingStrategy

    public init(name: String, strategy: SchedulingStrategy) {
        self.name = name
        self.strategy = strategy
    }

    /// Offstage's policy, the fixed 15-minute and 1-hour periods, the literal reading of the API, the oracle.
    public static let standard = [
        EvaluatedPolicy(name: "Offstage", strategy: .judgement),
        EvaluatedPolicy(name: "fixed 15 min", strategy: .fixedPeriod(seconds: 15 * 60)),
        EvaluatedPolicy(name: "fixed 1 h", strategy: .fixedPeriod(seconds: 3600)),
        EvaluatedPolicy(name: "literal API", strategy: .literal),
        EvaluatedPolicy(name: "oracle", strategy: .oracle(lead: 60)),
    ]
}

/// What one user's replay under one policy measured: the raw figures, so that results of separate
/// shards merge exactly (medians from every content age, sums from exact counts).
public struct UserOutcome: Hashable, Sendable, Codable {
    public var user: String
    public var policy: String
    /// Days the replay covered.
    public var days: Double
    /// The content's age at each launch, in seconds, in order; nil when it was never refreshed.
    public var contentAges: [Double?]
    /// Refresh tasks the scheduler started.
    public var refreshRuns: Int
    /// Maintenance wakes: runs that woke the sleeping device.
    public var wakeUps: Int
    /// Energy the apps used in the background, in joules, and the battery's capacity.
    public var backgroundJoules: Double
    public var batteryJoules: Double
    /// Bytes the apps sent and received over cellular.
    public var cellularBytes: Int
}

/// The evaluation of a trace: every (user, policy) outcome, and how to run, merge and print them.
public struct Evaluation: Hashable, Sendable, Codable {
    /// A launch counts as fresh when its content was refreshed at most this many seconds before.
    public static let freshWithin: Double = 15 * 60

    public var trace: String
    public var policies: [EvaluatedPolicy]
    /// Outcomes sorted by user, then in the order of `policies`.
    public var outcomes: [UserOutcome]

    public init(trace: String, policies: [EvaluatedPolicy], outcomes: [UserOutcome]) {
        self.trace = trace
        self.policies = policies
        self.outcomes = outcomes.sorted { a, b in
            a.user != b.user
                ? a.user < b.user
                : policies.firstIndex { $0.name == a.policy }! < policies.firstIndex { $0.name == b.policy }!
        }
    }

    /// Replays each of `users` (all the trace's by default) under each policy, `parallelism` simulations at
    /// a time; each is an independent deterministic simulation, so the result does not depend on the order.
    public static func run(
        _ trace: UsageTrace, users: [String]? = nil, policies: [EvaluatedPolicy] = EvaluatedPolicy.standard,
        parallelism: Int = ProcessInfo.processInfo.activeProcessorCount, progress: (@Sendable (Double) -> Void)? = nil
    ) async -> Evaluation {
        let jobs = (users ?? trace.users).flatMap { user in policies.map { (user, $0) } }
        var outcomes: [UserOutcome] = []
        await withTaskGroup(of: UserOutcome.self) { group in
            var next = 0
            func add() {
                guard next < jobs.count else { return }
                let (user, policy) = jobs[next]
                next += 1
                group.addTask { replay(user, of: trace, under: policy) }
            }
            for _ in 0..<max(1, parallelism) { add() }
            for await outcome in group {
                outcomes.append(outcome)
                progress?(Double(outcomes.count) / Double(max(1, jobs.count)))
                add()
            }
        }
        return Evaluation(trace: trace.source, policies: policies, outcomes: outcomes)
    }

    /// One user's replay under one policy, measured.
    public static func replay(_ user: String, of trace: UsageTrace, under evaluated: EvaluatedPolicy) -> UserOutcome {
        var scenario = TraceReplay.scenario(for: user, in: trace)
        scenario.strategy = evaluated.strategy
        // Declarative apps only: the catalog is never consulted, so making the simulation cannot fail.
        let simulation = try! Simulation(scenario: scenario)
        let records = simulation.run()
        let system = simulation.system
        let apps = scenario.apps.map(\.manifest.bundleIdentifier)
        return UserOutcome(
            user: user, policy: evaluated.name, days: (scenario.duration ?? 0) / 86_400,
            contentAges: records.filter { $0.kind == .contentAge }.map(\.value),
            refreshRuns: records.filter { $0.taskKind == .appRefresh }.count,
            wakeUps: system.wakeUps,
            backgroundJoules: apps.reduce(0) { $0 + (system.energy.totals[.app($1)]?.background ?? 0) },
            batteryJoules: system.device.battery.capacityJoules,
            cellularBytes: apps.reduce(0) { $0 + system.totalUsage(of: $1).cellularBytes })
    }

    /// This evaluation and others of the same trace and policies (shards) as one, as if run together.
    public func merged(with others: [Evaluation]) throws(EvaluationError) -> Evaluation {
        var outcomes = self.outcomes
        for other in others {
            guard other.policies == policies else {
                throw EvaluationError("cannot merge: \(other.trace) measured other policies than \(trace)")
            }
            outcomes += other.outcomes
        }
        var seen: Set<[String]> = []
        for outcome in outcomes where !seen.insert([outcome.user, outcome.policy]).inserted {
            throw EvaluationError("cannot merge: user \(outcome.user) appears in more than one shard")
        }
        return Evaluation(trace: trace, policies: policies, outcomes: outcomes)
    }

    /// One policy's line of the table, over every user.
    public struct Row: Hashable, Sendable {
        public var policy: String
        public var launches: Int
        /// Share of launches whose content was refreshed within `freshWithin` before.
        public var freshAtLaunch: Double
        /// Median content age at launch in seconds (infinity when most launches had never-refreshed content).
        public var medianAge: Double?
        public var refreshRunsPerDay: Double
        public var wakeUpsPerDay: Double
        /// Background energy per day, as a fraction of the battery.
        public var energyPerDay: Double
        public var cellularBytesPerDay: Double
        /// Fresh launches per maintenance wake; nil with no wake.
        public var freshPerWakeUp: Double?
    }

    /// The table's rows, in the order of `policies`. Per-day figures are per user-day.
    public var rows: [Row] {
        policies.map { policy in
            let mine = outcomes.filter { $0.policy == policy.name }
            let days = mine.reduce(0) { $0 + $1.days }
            let ages = mine.flatMap(\.contentAges).map { $0 ?? .infinity }.sorted()
            let fresh = ages.filter { $0 <= Self.freshWithin }.count
            let wakes = mine.reduce(0) { $0 + $1.wakeUps }
            let perDay = { (value: Double) in days > 0 ? value / days : 0 }
            return Row(
                policy: policy.name, launches: ages.count,
                freshAtLaunch: ages.isEmpty ? 0 : Double(fresh) / Double(ages.count),
                medianAge: ages.isEmpty ? nil : ages[(ages.count - 1) / 2],
                refreshRunsPerDay: perDay(Double(mine.reduce(0) { $0 + $1.refreshRuns })),
                wakeUpsPerDay: perDay(Double(wakes)),
                energyPerDay: perDay(mine.reduce(0) { $0 + $1.backgroundJoules / $1.batteryJoules }),
                cellularBytesPerDay: perDay(Double(mine.reduce(0) { $0 + $1.cellularBytes })),
                freshPerWakeUp: wakes > 0 ? Double(fresh) / Double(wakes) : nil)
        }
    }

    /// The table as text: one line per policy.
    public func table() -> String {
        let users = Set(outcomes.map(\.user)).count
        let days = outcomes.filter { $0.policy == policies.first?.name }.reduce(0) { $0 + $1.days }
        let header = [
            "policy", "launches", "fresh at launch", "median age", "refresh/day", "wake-ups/day", "energy/day",
            "cellular/day", "fresh per wake-up",
        ]
        let lines = rows.map { row in
            [
                row.policy, "\(row.launches)", Self.percent(row.freshAtLaunch, digits: 1),
                row.medianAge.map(RunReport.age) ?? "—", Self.fixed(row.refreshRunsPerDay, 1),
                Self.fixed(row.wakeUpsPerDay, 1), Self.percent(row.energyPerDay, digits: 2),
                Self.fixed(row.cellularBytesPerDay / 1_000_000, 1) + " MB",
                row.freshPerWakeUp.map { Self.fixed($0, 2) } ?? "—",
            ]
        }
        let widths = header.indices.map { column in ([header] + lines).map { $0[column].count }.max()! }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                column == 0
                    ? cell.padding(toLength: widths[0], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }
        var text = [
            "Evaluation of \(trace): \(RunReport.count(users, "user", "users")), \(Self.fixed(days, 0)) user-day"
                + (Self.fixed(days, 0) == "1" ? " " : "s ")
                + "(fresh: refreshed within \(Int(Self.freshWithin / 60)) min before the launch; per day: per user-day)",
            line(header),
        ]
        text += lines.map(line)
        return text.joined(separator: "\n")
    }

    /// The evaluation as JSON (sorted keys): every outcome's raw figures, which `merged` reads back.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(self)
    }

    /// Reads an evaluation written by `json()`.
    public static func decode(_ data: Data) throws -> Evaluation {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(Evaluation.self, from: data)
    }

    static func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
    static func percent(_ value: Double, digits: Int) -> String { fixed(value * 100, digits) + " %" }
}

/// An evaluation that cannot be made or merged, said plainly.
public struct EvaluationError: Error, CustomStringConvertible, Hashable, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
