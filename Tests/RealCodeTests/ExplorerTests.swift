import ExplorerExamples
import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// The explorer on the example apps: it finds each classic bug within its default number of histories, shrinks
/// it, and passes the corrected app; the same seed gives the same history and records byte for byte.
extension URLSessionSuites {
    @Suite struct ExplorerTests {
        @Test(arguments: [
            (ExplorerExample.noCompletionOnError, "an expiration handler ends its task"),
            (.unendedBackgroundTask, "every beginBackgroundTask is ended"),
            (.noExpirationHandler, "no work after the task ended"),
            (.lateRegistration, "no crash"),
            (.saveOnlyInWillTerminate, "no item the user saved is lost across a kill"),
            (.workAfterExpiration, "no work after expiration"),
        ])
        func theExplorerFindsEachClassicBugWithinItsDefaultRunsAndShrinksIt(
            example: ExplorerExample, invariant: String
        ) throws {
            let explorer = try example.explorer()
            let result = explorer.explore()
            let failure = try #require(result.failure, "\(example) passed \(result.histories) histories")
            #expect(failure.invariant == invariant, "\(failure)")
            #expect(result.histories <= explorer.runs)
            #expect(failure.shrunk.count < failure.drawn.count)
            // The shrunk history alone still breaks it, replayed from its timeline's commands.
            let replay = explorer.run(failure.shrunk)
            let broken = explorer.invariants.first { $0.name == invariant }?.check(replay)
            #expect(broken != nil)
            #expect(failure.timelineYAML.hasPrefix("timeline:\n  - { at: "))
        }

        @Test func theCorrectedAppPassesEveryInvariantInTheDefaultRuns() throws {
            let explorer = try ExplorerExample.correct.explorer()
            let result = explorer.explore()
            #expect(result.passed, "\(result)")
            #expect(result.histories == explorer.runs)
        }

        @Test func theSameSeedGivesTheSameHistoryAndRecordsByteForByte() throws {
            let explorer = try ExplorerExample.correct.explorer()
            let history = explorer.history(seed: 42)
            #expect(history == explorer.history(seed: 42))
            #expect(history != explorer.history(seed: 43))
            let first = explorer.run(history).records.map { "\($0)" }
            let second = explorer.run(history).records.map { "\($0)" }
            #expect(first.count > 20)
            #expect(first == second)
        }

        @Test func aFailuresSeedReplaysIt() throws {
            var explorer = try ExplorerExample.unendedBackgroundTask.explorer()
            let failure = try #require(explorer.explore().failure)
            explorer.seed = failure.seed
            explorer.runs = 1
            let replayed = try #require(explorer.explore().failure)
            #expect(replayed.drawn == failure.drawn)
            #expect(replayed.shrunk == failure.shrunk)
        }
    }
}

@Suite struct ExplorerInputTests {
    @Test func everyDisturbanceReadsBackAsTheSameTimelineCommand() throws {
        let app = BundleID("com.example.sync")
        let disturbances: [Disturbance] = [
            .open, .home, .lock, .unlock, .plug, .unplug, .network(.none), .network(.cellular), .lowPowerMode(true),
            .lowPowerMode(false), .thermal(.critical), .forceQuit, .jetsam, .launchTask("a.b"), .expireTask("a.b"),
            .tap("add"),
        ]
        for disturbance in disturbances {
            let parsed = try UserCommand.parse(disturbance.command(for: app), device: DeviceState())
            #expect(parsed == disturbance.action(for: app), "\(disturbance)")
        }
    }

    @Test func exploringAnAppNotInTheScenarioIsAClearError() throws {
        let scenario = ExplorerExample.correct.scenario
        let error = #expect(throws: ScenarioError.self) {
            try Explorer(
                scenario: scenario, catalog: ExplorerExample.catalog(disk: ExampleDisk()),
                app: BundleID("com.example.none"))
        }
        #expect(error?.message.contains("no app 'com.example.none'") == true)
        #expect(error?.field == "app")
    }
}
