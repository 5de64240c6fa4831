public import Foundation
public import OffstageCore

/// The result of a simulation as people and machines read it: a timeline, a summary, and JSON.
/// Everything here is derived from the records, so it is as deterministic as they are.
public struct RunReport: Sendable {
    public var scenario: Scenario
    public var records: [Record]
    /// Requests still waiting at the end, with every constraint that blocks them.
    public var pendingAtEnd: [RequestStatus]
    /// What the system judged of each app by the end, in the scenario's order.
    public var apps: [AppFacts]
    /// Maintenance wakes in all.
    public var wakeUps: Int
    /// Background pushes still held at the end, with every reason they wait (§7).
    public var heldPushesAtEnd: [HeldPushStatus] = []

    public init(
        scenario: Scenario, records: [Record], pendingAtEnd: [RequestStatus], apps: [AppFacts] = [], wakeUps: Int = 0
    ) {
        self.scenario = scenario
        self.records = records
        self.pendingAtEnd = pendingAtEnd
        self.apps = apps
        self.wakeUps = wakeUps
    }

    /// What the system judged of one app at the end of a run.
    public struct AppFacts: Sendable {
        public var app: BundleID
        public var tier: UsageTier
        public var cooperation: Double
        public var wakeUps: Int
        /// Joules the ledger charged to the app while it was off screen.
        public var backgroundJoules: Double = 0
    }

    /// Record kinds the brief timeline leaves out (`--verbose` shows them).
    public static let detailKinds: Set<RecordKind> = [.callback, .register, .assertionBegan, .assertionEnded, .state]

    /// "2026-11-21 07:00:05Z": the scenario's wall clock (UTC) at `instant`, the notation of every time Offstage
    /// prints (timeline, explanations, the HTML report, the daemon's log) and `--until` accepts.
    public func clock(_ instant: Instant) -> String {
        WallClock(epochAtZero: scenario.startEpoch).timestamp(at: instant)
    }

    /// Per app: opens by the user (cold launches and from memory), background launches, tasks and how they ended,
    /// suspensions, crashes and terminations; the judgement (tier, runs, content age at the opens, wake-ups,
    /// cooperation); then what still waits.
    public func summary() -> String {
        var lines = ["Summary of \"\(scenario.name)\" (\(records.count) records)"]
        let apps = scenario.apps.map(\.manifest.bundleIdentifier)
        for app in apps {
            let mine = records.filter { $0.app == app }
            func count(_ kind: RecordKind, where test: (Record) -> Bool = { _ in true }) -> Int {
                mine.filter { $0.kind == kind && test($0) }.count
            }
            let background = count(.launched) {
                if case .launched(.backgroundTask, _) = $0.detail { true } else { false }
            }
            // Each open by the user records the content's age: a cold launch, or the app back from memory.
            let opens = count(.contentAge)
            let cold = count(.launched) - background
            lines.append(
                "  \(app): opened \(Self.count(opens, "time", "times")) by the user (\(Self.count(cold, "launch", "launches")), "
                    + "\(max(0, opens - cold)) from memory), \(Self.count(background, "background launch", "background launches")); "
                    + "\(Self.count(count(.started), "task", "tasks")) started: \(count(.completed)) completed, "
                    + "\(count(.expired)) expired, \(count(.killed)) killed with their app; "
                    + "\(Self.count(count(.suspended), "suspension", "suspensions")); "
                    + "\(Self.count(count(.crashed), "crash", "crashes")), "
                    + "\(Self.count(count(.terminated), "termination", "terminations"))")
        }
        lines += judgement()
        if pendingAtEnd.isEmpty {
            lines.append("  Nothing waits at the end.")
        } else {
            lines.append("  Waiting at the end:")
            for status in pendingAtEnd {
                let why =
                    status.blockers.isEmpty
                    ? "eligible"
                    : status.blockers.explained(on: WallClock(epochAtZero: scenario.startEpoch))
                lines.append("    \(status.app) [\(status.request.identifier)] \(status.request.kind.rawValue): \(why)")
            }
        }
        for held in heldPushesAtEnd {
            let clock = WallClock(epochAtZero: scenario.startEpoch)
            let why = held.blockers.explained(on: clock)
            lines.append("  Background push held for \(held.app) (payload \"\(held.payload)\"): \(why)")
        }
        return lines.joined(separator: "\n")
    }

    /// "1 launch", "2 launches".
    public static func count(_ number: Int, _ one: String, _ many: String) -> String {
        "\(number) \(number == 1 ? one : many)"
    }

    /// The judgement table: per app its tier, user opens, runs by kind, maintenance wakes, background
    /// energy, cooperation and the content's age at the opens, summarized; then the wakes in all.
    func judgement() -> [String] {
        guard !apps.isEmpty else { return [] }
        let width = max(3, apps.map(\.app.rawValue.count).max() ?? 0)
        func pad(_ text: String, _ count: Int) -> String { text.padding(toLength: count, withPad: " ", startingAt: 0) }
        var lines = [
            "  Judgement:",
            "    \(pad("app", width))  \(pad("tier", 11)) opens  refresh  processing  wakes  bg energy  cooperation  "
                + "content age at open",
        ]
        for facts in apps {
            let mine = records.filter { $0.app == facts.app }
            let ages = mine.filter { $0.kind == .contentAge }.map(\.value)
            func runs(_ kind: TaskKind) -> Int { mine.filter { $0.kind == .started && $0.taskKind == kind }.count }
            lines.append(
                "    \(pad(facts.app.rawValue, width))  \(pad(facts.tier.rawValue, 11)) \(pad("\(ages.count)", 6)) "
                    + "\(pad("\(runs(.appRefresh))", 8)) \(pad("\(runs(.processing))", 11)) \(pad("\(facts.wakeUps)", 6)) "
                    + "\(pad(BatteryReport.joules(facts.backgroundJoules), 10)) "
                    + "\(pad(Figures.percent(facts.cooperation), 12)) "
                    + Self.contentAge(ages))
        }
        lines.append("  Maintenance wakes: \(wakeUps) in all")
        return lines
    }

    /// The content's age at the opens in a few words: the median (a never-refreshed open counts as older than
    /// any), how many opens found it fresh (refreshed at most `Evaluation.freshWithin` before), how many never.
    static func contentAge(_ ages: [Double?]) -> String {
        guard !ages.isEmpty else { return "no opens" }
        let never = ages.filter { $0 == nil }.count
        guard never < ages.count else { return "never refreshed before an open" }
        let sorted = ages.map { $0 ?? .infinity }.sorted()
        let fresh = sorted.filter { $0 <= Evaluation.freshWithin }.count
        return "median \(age(sorted[(sorted.count - 1) / 2])), fresh at \(fresh) of \(ages.count)"
            + (never > 0 ? ", never refreshed at \(never)" : "")
    }

    /// "3m", "1h05m", "2d3h": a content age, short; "never" for an infinite age (content never refreshed).
    static func age(_ seconds: Double) -> String {
        guard seconds.isFinite, let minutes = Figures.whole(max(0, seconds) / 60) else { return "never" }
        if minutes < 60 { return "\(minutes)m" }
        let hours = minutes / 60
        if hours < 48 { return "\(hours)h" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)m" }
        return "\(hours / 24)d\(hours % 24)h"
    }

    /// Why the request with this identifier is where it is at the end, and its history: every record
    /// about it (submitted, deferred and why, started, expired, completed). Nil if no record names it.
    public func why(_ identifier: String) -> String? {
        let history = records.filter { $0.task == identifier }
        guard !history.isEmpty else { return nil }
        let wallClock = WallClock(epochAtZero: scenario.startEpoch)
        var lines = ["Why [\(identifier)]"]
        if let status = pendingAtEnd.first(where: { $0.request.identifier == identifier }) {
            switch status.phase {
            case .pending where status.blockers.isEmpty: lines.append("  now: pending and eligible")
            case .pending:
                lines.append("  now: pending, blocked by")
                lines += status.blockers.map { "    \($0.explained(on: wallClock))" }
            case .queued(let position): lines.append("  now: queued for room, place \(position)")
            case .running: lines.append("  now: running")
            }
        } else {
            lines.append("  now: not pending (it ran, was cancelled, or ended with its app)")
        }
        lines.append("  history (\(history.count) records):")
        lines += history.map { "    \(clock($0.at))  \($0.kind.rawValue): \($0.reason)" }
        return lines.joined(separator: "\n")
    }

    /// Every record as JSON (sorted keys, stable order): `{scenario, seed, records: [{at, app, kind, task, reason}]}`.
    public func json() throws -> Data {
        struct Document: Encodable {
            var scenario: String
            var source: String
            var seed: UInt64
            var startEpoch: Double
            var records: [Record]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(
            Document(
                scenario: scenario.name, source: scenario.source, seed: scenario.seed, startEpoch: scenario.startEpoch,
                records: records))
    }
}

extension Simulation {
    /// Runs the scenario and gathers its report.
    public func report(for duration: Double? = nil, progress: ((Double) -> Void)? = nil) -> RunReport {
        let records = run(for: duration, progress: progress)
        let waiting = system.explain().filter { if case .running = $0.phase { false } else { true } }
        let facts = scenario.apps.map(\.manifest.bundleIdentifier).map { app in
            let status = system.app(app)
            return RunReport.AppFacts(
                app: app, tier: status.usageTier, cooperation: status.cooperation.score, wakeUps: status.wakeUps,
                backgroundJoules: system.energy.backgroundJoules(of: app))
        }
        var report = RunReport(
            scenario: scenario, records: records, pendingAtEnd: waiting, apps: facts, wakeUps: system.wakeUps)
        report.heldPushesAtEnd = system.heldPushes()
        return report
    }
}
