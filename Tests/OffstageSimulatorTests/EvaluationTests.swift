import Foundation
import OffstageCore
import Testing

@testable import OffstageSimulator

/// Policy evaluation on usage traces (`offstage evaluate`): the baselines do what they say, the oracle
/// bounds the rest, Offstage's policy earns more fresh launches per wake-up than fixed periods, shards merge.
@Suite struct EvaluationTests {
    /// A small generated trace: 3 users, 4 days, 3 apps.
    static let small = TraceGenerator.generate(TraceModel(users: 3, days: 4, apps: 3, seed: 5))

    /// The example trace of the repository, evaluated once for the tests that read it.
    static let example = Task {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/traces/four-users-two-weeks.csv").path
        return await Evaluation.run(try! TraceLoader.load(contentsOf: path))
    }

    func row(_ evaluation: Evaluation, _ name: String) -> Evaluation.Row {
        evaluation.rows.first { $0.policy == name }!
    }

    @Test func oracleIsFreshAtEveryLaunchButEachAppsFirst() {
        let oracle = EvaluatedPolicy.standard.last!
        for user in Self.small.users {
            let outcome = Evaluation.replay(user, of: Self.small, under: oracle)
            let apps = Set(Self.small.events(of: user).map(\.app)).count
            // Before its first launch an app has never run, so nothing was submitted to refresh.
            #expect(outcome.contentAges.prefix { $0 == nil }.count <= apps)
            #expect(outcome.contentAges.filter { $0 == nil }.count == apps)
            #expect(outcome.contentAges.compactMap { $0 }.allSatisfy { $0 <= 60 })
        }
    }

    @Test func fixedPeriodRefreshesAboutEveryPeriod() {
        let user = Self.small.users[0]
        let outcome = Evaluation.replay(user, of: Self.small, under: EvaluatedPolicy.standard[1])
        let apps = Double(Set(Self.small.events(of: user).map(\.app)).count)
        // At most 96 runs a day per app; a little less, as an app on screen is not refreshed.
        let perAppDay = Double(outcome.refreshRuns) / outcome.days / apps
        #expect(perAppDay <= 96 && perAppDay > 80)
    }

    @Test func oracleIsNeverBeatenOnTheExampleTrace() async {
        let example = await Self.example.value
        let oracle = row(example, "oracle")
        for other in example.rows {
            #expect(oracle.freshAtLaunch >= other.freshAtLaunch, "\(other.policy)")
            #expect(oracle.medianAge! <= other.medianAge!, "\(other.policy)")
        }
    }

    @Test func offstageEarnsMoreFreshLaunchesPerWakeUpThanFixedPeriods() async {
        let example = await Self.example.value
        let offstage = row(example, "Offstage").freshPerWakeUp!
        #expect(offstage > row(example, "fixed 15 min").freshPerWakeUp!)
        #expect(offstage > row(example, "fixed 1 h").freshPerWakeUp!)
    }

    @Test func shardsMergeToTheUnshardedResultExactly() async throws {
        let whole = await Evaluation.run(Self.small)
        let users = Self.small.users
        let first = await Evaluation.run(Self.small, users: [users[0], users[2]], parallelism: 1)
        let second = await Evaluation.run(Self.small, users: [users[1]])
        // Through JSON, as separate jobs would hand them over.
        let merged = try Evaluation.decode(second.json()).merged(with: [Evaluation.decode(first.json())])
        #expect(merged == whole)
        #expect(merged.table() == whole.table())
        #expect(throws: EvaluationError.self) { try first.merged(with: [first]) }
    }

    @Test func evaluationIsDeterministic() async {
        let a = await Evaluation.run(Self.small, parallelism: 1)
        let b = await Evaluation.run(Self.small, parallelism: 4)
        #expect(a == b)
    }

    @Test func strategiesParseAsScenariosWriteThem() {
        #expect(SchedulingStrategy(text: "judgement") == .judgement)
        #expect(SchedulingStrategy(text: "fixed 15m") == .fixedPeriod(seconds: 900))
        #expect(SchedulingStrategy(text: "oracle") == .oracle(lead: 60))
        #expect(SchedulingStrategy(text: "fixed") == nil)
    }
}
