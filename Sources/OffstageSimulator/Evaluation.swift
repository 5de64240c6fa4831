public import Foundation
public import OffstageCore

/// A policy `offstage evaluate` measures: a name for the table, the strategy the core applies and the
/// policy's numbers (iOS's unless a policy file gives variants).
public struct EvaluatedPolicy: Hashable, Sendable, Codable {
    public var name: String
    public var strategy: SchedulingStrategy
    public var policy: Policy

    public init(name: String, strategy: SchedulingStrategy, policy: Policy = .iOS) {
        self.name = name
        self.strategy = strategy
        self.policy = policy
    }

    /// The policy of a file (`offstage evaluate --policy FILE`), named after the file without its extension.
    public static func load(contentsOf path: String) throws(ScenarioError) -> EvaluatedPolicy {
        let (policy, strategy) = try ScenarioLoader.parsePolicy(
            yaml: try TraceLoader.text(contentsOf: path), source: path)
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return EvaluatedPolicy(name: name, strategy: strategy, policy: policy)
    }

    /// Offstage's policy, the fixed 15-minute and 1-hour periods (the hourly one also keeping `earliestBeginDate`),
    /// the literal reading of the API, the oracle that keeps `earliestBeginDate` and the one that does not.
    public static let standard = [
        EvaluatedPolicy(name: "Offstage", strategy: .judgement),
        EvaluatedPolicy(name: "fixed 15 min", strategy: .fixedPeriod(seconds: 15 * 60)),
        hourlyTimer,
        EvaluatedPolicy(name: "fixed 1 h in contract", strategy: .fixedPeriodWithinContract(seconds: 3600)),
        EvaluatedPolicy(name: "literal API", strategy: .literal),
        oracleInContract,
        EvaluatedPolicy(name: "oracle", strategy: .oracle(lead: 60)),
    ]

    /// The two references a policy is judged by (`Evaluation.table`'s last lines): the fixed hourly timer, and the
    /// oracle that keeps `earliestBeginDate`, the ceiling for a policy that keeps the API's contract.
    public static let hourlyTimer = EvaluatedPolicy(name: "fixed 1 h", strategy: .fixedPeriod(seconds: 3600))
    public static let oracleInContract = EvaluatedPolicy(
        name: "oracle in contract", strategy: .oracleWithinContract(lead: 60))
}

/// What one user's replay under one policy measured: the raw figures, so that results of separate
/// shards merge exactly (medians from every launch's content age, sums from exact counts).
public struct UserOutcome: Hashable, Sendable, Codable {
    public var user: String
    public var policy: String
    /// Days the replay covered.
    public var days: Double
    /// Each launch of the trace the replay made, in order, with its content's age and its class.
    public var launches: [LaunchOutcome]
    /// Launches of the trace the replay could not make: the simulated device was off (its battery empty
    /// off the charger), so the user's moves were ignored.
    public var launchesWhileOff: Int
    /// What each app of the replay cost in the background, in the order of the scenario's apps.
    public var spending: [AppSpending]
    /// Maintenance wakes: runs that woke the sleeping device.
    public var wakeUps: Int
    /// The battery's capacity, in joules.
    public var batteryJoules: Double
    /// Bytes the apps sent and received over cellular.
    public var cellularBytes: Int

    /// Refresh tasks the scheduler started, over every app.
    public var refreshRuns: Int { spending.reduce(0) { $0 + $1.refreshRuns } }
    /// Energy the apps used in the background, in joules, over every app.
    public var backgroundJoules: Double { spending.reduce(0) { $0 + $1.backgroundJoules } }
    /// Of it, what they drew while the device was on the charger (no drain of the battery), in joules.
    public var chargerJoules: Double { spending.reduce(0) { $0 + $1.chargerJoules } }
    /// Of it, what they drew from the battery, in joules.
    public var drawnFromBattery: Double { backgroundJoules - chargerJoules }
    /// Background energy drawn from the battery, as a share of it per day: what the 1 % limit bounds.
    public var batteryPerDay: Double { days > 0 ? drawnFromBattery / batteryJoules / days : 0 }
}

/// What one app cost in the background over a replay: the refresh tasks started for it and its background
/// energy, so that an evaluation can say where a policy spends (by the app's popularity).
public struct AppSpending: Hashable, Sendable, Codable {
    public var app: BundleID
    public var refreshRuns: Int
    /// All its background energy, in joules.
    public var backgroundJoules: Double
    /// Of it, the joules drawn while the device was on the charger: they do not drain the battery.
    public var chargerJoules: Double

    /// Of it, the joules drawn from the battery.
    public var drawnFromBattery: Double { backgroundJoules - chargerJoules }
}

/// Which part of a trace's users an evaluation measured: shard `index` (from 1) of `count`, of a trace
/// of `traceUsers` users. `merged` checks that shards are of one set and all there.
public struct EvaluationShard: Hashable, Sendable, Codable {
    public var index: Int
    public var count: Int
    public var traceUsers: Int

    public init(index: Int, count: Int, traceUsers: Int) {
        self.index = index
        self.count = count
        self.traceUsers = traceUsers
    }
}

/// The evaluation of a trace: every (user, policy) outcome, and how to run, merge and print them.
public struct Evaluation: Hashable, Sendable, Codable {
    /// A launch counts as fresh when its content was refreshed at most this many seconds before.
    public static let freshWithin: Double = 15 * 60

    public var trace: String
    public var policies: [EvaluatedPolicy]
    /// Outcomes sorted by user, then in the order of `policies`.
    public var outcomes: [UserOutcome]
    /// The shard measured, when not the whole trace.
    public var shard: EvaluationShard?

    public init(trace: String, policies: [EvaluatedPolicy], outcomes: [UserOutcome], shard: EvaluationShard? = nil) {
        self.trace = trace
        self.policies = policies
        self.shard = shard
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
        shard: EvaluationShard? = nil, parallelism: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: (@Sendable (Double) -> Void)? = nil
    ) async -> Evaluation {
        let users =
            users ?? shard.map { shard in
                trace.users.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
            } ?? trace.users
        // The heaviest replays first, so that the last ones left when a core falls idle are short.
        let heaviestFirst = policies.sorted { $0.strategy.refreshesPerAppDay > $1.strategy.refreshesPerAppDay }
        let jobs = heaviestFirst.flatMap { policy in users.map { ($0, policy) } }
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
        return Evaluation(trace: trace.source, policies: policies, outcomes: outcomes, shard: shard)
    }

    /// One user's replay under one policy, measured: each launch of the trace matched with the content age
    /// the core recorded at it (none when the device was off), classed with the battery at that moment.
    public static func replay(_ user: String, of trace: UsageTrace, under evaluated: EvaluatedPolicy) -> UserOutcome {
        var scenario = TraceReplay.scenario(for: user, in: trace, policy: evaluated.policy)
        scenario.strategy = evaluated.strategy
        // Declarative apps only: the catalog is never consulted, so making the simulation cannot fail.
        let simulation = try! Simulation(scenario: scenario)
        // A lean run: of its records, only the content ages at launches and the count of refresh runs are kept.
        let summary = RecordSummary()
        simulation.recordObserver = { summary.note($0) }
        simulation.keepsRecords = RecordSummary.reads
        simulation.run()
        let system = simulation.system
        let apps = scenario.apps.map(\.manifest.bundleIdentifier)
        let recorded = summary.contentAges
        let battery = simulation.batteryHistory.samples
        var (next, sample, whileOff) = (0, 0, 0)
        var launches: [LaunchOutcome] = []
        for launch in TraceLaunch.launches(in: trace.events(of: user)) {
            let at = launch.epoch - scenario.startEpoch
            guard next < recorded.count, recorded[next].app == launch.app, abs(recorded[next].at.seconds - at) < 1e-6
            else {
                whileOff += 1
                continue
            }
            while sample + 1 < battery.count, battery[sample + 1].at.seconds <= at { sample += 1 }
            let launchClass = launch.launchClass(
                battery: battery.isEmpty ? nil : battery[sample], criticalLevel: scenario.policy.criticalBatteryLevel)
            launches.append(
                LaunchOutcome(
                    epoch: launch.epoch, app: launch.app, contentAge: recorded[next].value, launchClass: launchClass,
                    sinceLastUse: launch.sinceLastUse))
            next += 1
        }
        return UserOutcome(
            user: user, policy: evaluated.name, days: (scenario.duration ?? 0) / 86_400, launches: launches,
            launchesWhileOff: whileOff,
            spending: apps.map { app in
                AppSpending(
                    app: app, refreshRuns: summary.refreshRecords[app, default: 0],
                    backgroundJoules: system.energy.backgroundJoules(of: app),
                    chargerJoules: simulation.chargerEnergy.background[app] ?? 0)
            },
            wakeUps: system.wakeUps,
            batteryJoules: system.device.battery.capacityJoules,
            cellularBytes: apps.reduce(0) { $0 + system.app($1).totalUsage.cellularBytes })
    }

    /// This evaluation and the other shards of the same run as one, as if run together. Refuses a set that
    /// is mixed (other traces, policies or splits) or incomplete (a shard missing or given twice).
    public func merged(with others: [Evaluation]) throws(EvaluationError) -> Evaluation {
        let all = [self] + others
        for other in others {
            guard other.trace == trace else {
                throw EvaluationError("cannot merge: \(other.trace) and \(trace) are different traces")
            }
            guard other.policies == policies else {
                throw EvaluationError("cannot merge: \(other.trace) measured other policies than \(trace)")
            }
        }
        if all.count > 1 || shard != nil { try Self.checkComplete(all.map(\.shard)) }
        let outcomes = all.flatMap(\.outcomes)
        var seen: Set<[String]> = []
        for outcome in outcomes where !seen.insert([outcome.user, outcome.policy]).inserted {
            throw EvaluationError("cannot merge: user \(outcome.user) appears in more than one shard")
        }
        return Evaluation(trace: trace, policies: policies, outcomes: outcomes)
    }

    /// Checks that shards are every shard of one split, each once.
    static func checkComplete(_ shards: [EvaluationShard?]) throws(EvaluationError) {
        let known = shards.compactMap { $0 }
        guard let first = known.first, known.count == shards.count else {
            throw EvaluationError("cannot merge: every file must be a shard (written with --shard i/n)")
        }
        for shard in known where shard.count != first.count || shard.traceUsers != first.traceUsers {
            throw EvaluationError(
                "cannot merge: shard \(shard.index)/\(shard.count) and shard \(first.index)/\(first.count) "
                    + "are of different splits")
        }
        let indices = known.map(\.index)
        if let twice = indices.first(where: { index in indices.filter { $0 == index }.count > 1 }) {
            throw EvaluationError("cannot merge: shard \(twice)/\(first.count) is given twice")
        }
        let missing = (1...first.count).filter { !indices.contains($0) }
        guard missing.isEmpty else {
            let names = missing.map { "\($0)/\(first.count)" }.joined(separator: ", ")
            throw EvaluationError(
                "cannot merge: incomplete, shard\(missing.count == 1 ? "" : "s") \(names) missing")
        }
    }

    /// One policy's line of the table, over every user.
    public struct Row: Hashable, Sendable, Codable {
        public var policy: String
        public var launches: Int
        /// Share of launches whose content the user saw fresh (refreshed within `freshWithin` before, in the
        /// background or while the app was on screen), and the median age seen (infinity: mostly never refreshed).
        public var freshAtLaunch: Double
        public var medianAge: Double?
        /// Share of launches made fresh by a background refresh alone: what background work earned.
        public var freshFromBackground: Double
        /// The same figures as seen for each class of launch; cold launches are the headline.
        public var byClass: [LaunchClass: Freshness]
        /// The same figures for each popularity bucket of apps (their launches a day for that user).
        public var byPopularity: [PopularityBucket: Freshness]
        /// What the policy spent in the background on each popularity bucket's apps.
        public var spendingByPopularity: [PopularityBucket: Spending]
        /// Launches of the trace lost because the simulated device was off.
        public var launchesWhileOff: Int
        public var refreshRunsPerDay: Double
        public var wakeUpsPerDay: Double
        /// Background energy drawn from the battery per user-day, as a fraction of it: over every user, and the
        /// worst user's. What the apps drew on the charger does not drain the battery: `chargerEnergyPerDay`.
        public var batteryPerDay: Double
        public var worstUserBatteryPerDay: Double
        /// Background energy drawn while the device was on the charger, per user-day, as a fraction of the battery.
        public var chargerEnergyPerDay: Double
        public var cellularBytesPerDay: Double
        /// Launches made fresh by background work per maintenance wake; nil with no wake.
        public var freshPerWakeUp: Double?

        /// The headline: the share of cold launches (the app last used over 15 minutes before) seen fresh.
        public var freshAtColdLaunch: Double { byClass[.cold]?.freshAtLaunch ?? 0 }
    }

    /// How fresh content was over some launches, as the user saw it: how many, the share fresh, the median age
    /// (nil with none).
    public struct Freshness: Hashable, Sendable, Codable {
        public var launches: Int
        public var freshAtLaunch: Double
        public var medianAge: Double?

        init(_ launches: [LaunchOutcome]) {
            let ages = launches.map { $0.seenAge ?? .infinity }.sorted()
            self.launches = ages.count
            freshAtLaunch = ages.isEmpty ? 0 : Double(launches.filter(\.isFresh).count) / Double(ages.count)
            medianAge = ages.isEmpty ? nil : ages[(ages.count - 1) / 2]
        }
    }

    /// Each launch of `outcome` with the popularity bucket of its app.
    static func popularity(of outcome: UserOutcome) -> [(LaunchOutcome, PopularityBucket)] {
        let buckets = buckets(of: outcome)
        return outcome.launches.map { ($0, buckets[$0.app]!) }
    }

    /// The popularity bucket of each app `outcome` launched: the app's launches a day for that user (an app
    /// never launched is in none; `spendingByPopularity` counts it as rare).
    static func buckets(of outcome: UserOutcome) -> [BundleID: PopularityBucket] {
        var counts: [BundleID: Int] = [:]
        for launch in outcome.launches { counts[launch.app, default: 0] += 1 }
        let days = max(outcome.days, 1)
        return counts.mapValues { PopularityBucket(launchesPerDay: Double($0) / days) }
    }

    /// What `outcomes` spent in the background on the apps of each popularity bucket, per user-day of `days`.
    static func spendingByPopularity(of outcomes: [UserOutcome], days: Double) -> [PopularityBucket: Spending] {
        var spending = Dictionary(uniqueKeysWithValues: PopularityBucket.allCases.map { ($0, Spending()) })
        guard days > 0 else { return spending }
        for outcome in outcomes {
            let buckets = buckets(of: outcome)
            for app in outcome.spending {
                let bucket = buckets[app.app] ?? .rare
                spending[bucket]!.refreshRunsPerDay += Double(app.refreshRuns) / days
                spending[bucket]!.batteryPerDay += app.drawnFromBattery / outcome.batteryJoules / days
            }
        }
        return spending
    }

    /// What a policy spent in the background on some apps, per user-day: refresh runs, and energy drawn from the
    /// battery as a fraction of it.
    public struct Spending: Hashable, Sendable, Codable {
        public var refreshRunsPerDay: Double = 0
        public var batteryPerDay: Double = 0
    }

    /// The table's rows, in the order of `policies`. Per-day figures are per user-day.
    public var rows: [Row] {
        policies.map { policy in
            let mine = outcomes.filter { $0.policy == policy.name }
            let days = mine.reduce(0) { $0 + $1.days }
            let launches = mine.flatMap(\.launches)
            let bucketed = mine.flatMap(Self.popularity)
            let all = Freshness(launches)
            let wakes = mine.reduce(0) { $0 + $1.wakeUps }
            let perDay = { (value: Double) in days > 0 ? value / days : 0 }
            let fromBackground = launches.filter(\.isFreshFromBackground).count
            return Row(
                policy: policy.name, launches: all.launches, freshAtLaunch: all.freshAtLaunch, medianAge: all.medianAge,
                freshFromBackground: launches.isEmpty ? 0 : Double(fromBackground) / Double(launches.count),
                byClass: Dictionary(
                    uniqueKeysWithValues: LaunchClass.allCases.map { kind in
                        (kind, Freshness(launches.filter { $0.launchClass == kind }))
                    }),
                byPopularity: Dictionary(
                    uniqueKeysWithValues: PopularityBucket.allCases.map { bucket in
                        (bucket, Freshness(bucketed.filter { $0.1 == bucket }.map(\.0)))
                    }),
                spendingByPopularity: Self.spendingByPopularity(of: mine, days: days),
                launchesWhileOff: mine.reduce(0) { $0 + $1.launchesWhileOff },
                refreshRunsPerDay: perDay(Double(mine.reduce(0) { $0 + $1.refreshRuns })),
                wakeUpsPerDay: perDay(Double(wakes)),
                batteryPerDay: perDay(mine.reduce(0) { $0 + $1.drawnFromBattery / $1.batteryJoules }),
                worstUserBatteryPerDay: mine.map(\.batteryPerDay).max() ?? 0,
                chargerEnergyPerDay: perDay(mine.reduce(0) { $0 + $1.chargerJoules / $1.batteryJoules }),
                cellularBytesPerDay: perDay(Double(mine.reduce(0) { $0 + $1.cellularBytes })),
                freshPerWakeUp: wakes > 0 ? Double(fromBackground) / Double(wakes) : nil)
        }
    }

    /// Warnings about the replay: launches lost because the simulated device was off, per policy.
    public var warnings: [String] {
        rows.filter { $0.launchesWhileOff > 0 }.map { row in
            "warning: under \(row.policy), \(RunReport.count(row.launchesWhileOff, "launch", "launches")) of the trace "
                + "came while the simulated device was off (its battery empty off the charger) and were ignored; "
                + "a trace with battery levels should say when the device charges (column charging)"
        }
    }

    /// The tables as text: one line per policy for the launches and their cost, then fresh and spent by app popularity,
    /// then the comparisons with the references.
    public func table() -> String {
        let rows = rows
        let users = Set(outcomes.map(\.user)).count
        let days = outcomes.filter { $0.policy == policies.first?.name }.reduce(0) { $0 + $1.days }
        let classes: [LaunchClass] = [.reopened, .lowBattery, .first]
        let header =
            ["policy", "launches", "cold", "all launches"] + classes.map(\.heading) + [
                "background only", "median age", "median cold", "refresh/day", "wake-ups/day", "battery/day",
                "worst user", "charger/day", "cellular/day", "fresh per wake-up",
            ]
        let lines = rows.map { row in
            [
                row.policy, "\(row.launches)", Self.percent(row.freshAtColdLaunch, digits: 1),
                Self.percent(row.freshAtLaunch, digits: 1),
            ]
                + classes.map { Self.percent(row.byClass[$0]?.freshAtLaunch ?? 0, digits: 1) } + [
                    Self.percent(row.freshFromBackground, digits: 1), row.medianAge.map(RunReport.age) ?? "—",
                    row.byClass[.cold]?.medianAge.map(RunReport.age) ?? "—",
                    Self.fixed(row.refreshRunsPerDay, 1), Self.fixed(row.wakeUpsPerDay, 1),
                    Self.percent(row.batteryPerDay, digits: 2), Self.percent(row.worstUserBatteryPerDay, digits: 2),
                    Self.percent(row.chargerEnergyPerDay, digits: 2),
                    Self.fixed(row.cellularBytesPerDay / 1_000_000, 1) + " MB",
                    row.freshPerWakeUp.map { Self.fixed($0, 2) } ?? "—",
                ]
        }
        let popularityHeader = ["by app popularity"] + PopularityBucket.allCases.map(\.rawValue)
        let popularityLines = rows.map { row in
            [row.policy]
                + PopularityBucket.allCases.map { Self.percent(row.byPopularity[$0]?.freshAtLaunch ?? 0, digits: 1) }
        }
        let spendingHeader = ["battery/day by popularity"] + PopularityBucket.allCases.map(\.rawValue)
        let spendingLines = rows.map { row in
            [row.policy]
                + PopularityBucket.allCases.map { bucket in
                    let spending = row.spendingByPopularity[bucket] ?? Spending()
                    return Self.percent(spending.batteryPerDay, digits: 2) + " ("
                        + Self.fixed(spending.refreshRunsPerDay, 0)
                        + " runs)"
                }
        }
        var text = [
            "Evaluation of \(trace): \(RunReport.count(users, "user", "users")), \(Self.fixed(days, 0)) user-day"
                + (Self.fixed(days, 0) == "1" ? " " : "s ")
                + "(fresh: what the user sees was refreshed within \(Int(Self.freshWithin / 60)) min before the launch, "
                + "in the background or while the app was on screen; per day: per user-day; battery: background energy "
                + "drawn from the battery, as a share of it; charger: drawn on the charger, which does not drain it)"
        ]
        if let first = rows.first {
            text.append(
                "Launches by class: "
                    + LaunchClass.allCases.map { "\($0.rawValue) \(first.byClass[$0]?.launches ?? 0)" }
                    .joined(separator: ", ")
                    + "; by app popularity (the app's launches a day): "
                    + PopularityBucket.allCases.map { "\($0.rawValue) \(first.byPopularity[$0]?.launches ?? 0)" }
                    .joined(separator: ", "))
        }
        text += Self.aligned([header] + lines)
        text.append("")
        text += Self.aligned([popularityHeader] + popularityLines)
        text.append("")
        text += Self.aligned([spendingHeader] + spendingLines)
        text += Self.comparisons(of: rows)
        text += warnings
        return text.joined(separator: "\n")
    }

    /// Lines of cells in columns: the first left-aligned, the others right-aligned, two spaces apart.
    static func aligned(_ lines: [[String]]) -> [String] {
        let widths = lines[0].indices.map { column in lines.map { $0[column].count }.max()! }
        return lines.map { cells in
            cells.enumerated().map { column, cell in
                column == 0
                    ? cell.padding(toLength: widths[0], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }
    }

    /// The policies' fresh cold launches (the headline) against the two references a policy is judged by, when
    /// both were measured: how many times the fixed 1-hour period's, and what share of the oracle that keeps
    /// `earliestBeginDate`'s.
    static func comparisons(of rows: [Row]) -> [String] {
        let references = [EvaluatedPolicy.hourlyTimer.name, EvaluatedPolicy.oracleInContract.name]
        guard let timer = rows.first(where: { $0.policy == references[0] }),
            let ceiling = rows.first(where: { $0.policy == references[1] }),
            timer.freshAtColdLaunch > 0, ceiling.freshAtColdLaunch > 0
        else { return [] }
        return rows.filter { !references.contains($0.policy) }.map { row in
            "\(row.policy): \(Self.fixed(row.freshAtColdLaunch / timer.freshAtColdLaunch, 2))× the fresh cold launches "
                + "of fixed 1 h, \(Self.percent(row.freshAtColdLaunch / ceiling.freshAtColdLaunch, digits: 0)) of the "
                + "oracle in contract's"
        }
    }

    /// The evaluation as JSON (sorted keys): every outcome's raw figures, which `merged` reads back, and the
    /// table's rows (split by launch class), which it ignores.
    public func json() throws -> Data {
        try Self.encode(Document(evaluation: self, rows: rows))
    }

    /// Every launch of every outcome as a JSON array of {user, policy, time, app, contentAge, sinceLastUse, class}.
    public func launchesJSON() throws -> Data {
        try Self.encode(
            outcomes.flatMap { outcome in
                outcome.launches.map { launch in
                    LaunchLine(
                        user: outcome.user, policy: outcome.policy,
                        time: TraceEvent.timestamp(epoch: launch.epoch, utcOffset: 0), app: launch.app,
                        contentAge: launch.contentAge, sinceLastUse: launch.sinceLastUse,
                        launchClass: launch.launchClass)
                }
            })
    }

    /// The JSON document: the evaluation's own fields beside its rows.
    private struct Document: Encodable {
        var evaluation: Evaluation
        var rows: [Row]
        enum Keys: String, CodingKey { case rows }
        func encode(to encoder: any Encoder) throws {
            try evaluation.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(rows, forKey: .rows)
        }
    }

    /// One launch in `launchesJSON`.
    private struct LaunchLine: Encodable {
        var user, policy, time: String
        var app: BundleID
        var contentAge: Double?
        var sinceLastUse: Double?
        var launchClass: LaunchClass
        enum CodingKeys: String, CodingKey {
            case user, policy, time, app, contentAge, sinceLastUse
            case launchClass = "class"
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(user, forKey: .user)
            try container.encode(policy, forKey: .policy)
            try container.encode(time, forKey: .time)
            try container.encode(app, forKey: .app)
            // null for never-refreshed content, kept rather than left out.
            try container.encode(contentAge, forKey: .contentAge)
            try container.encode(sinceLastUse, forKey: .sinceLastUse)
            try container.encode(launchClass, forKey: .launchClass)
        }
    }

    private static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(value)
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
