import OffstageCore
import Testing

@testable import OffstageSimulator

/// §9: the system measures a process as it runs, so the work of an app killed in the middle of it (watchdog,
/// crash, jetsam, the user's swipe) is charged for the part done, not lost with the process.
@Suite struct KilledWorkEnergyTests {
    /// The app saves for 20 s at half a core when it leaves the screen (an assertion's work).
    static let saveOnLeaving = """
              onEnterBackground:
                - backgroundTask: { name: save, work: 20s, cpu: 50% }
        """

    @Test func appKilledMidTaskHasItsBackgroundEnergyInTheLedger() throws {
        // The refresh ignores its expiration (at 30 s): the watchdog kills the app 5 s later, 35 s into 2 minutes.
        let simulation = try EnergySimulationTests.run(
            EnergySimulationTests.scenario(
                behaviour: """
                          register: [com.example.app.refresh]
                          onEnterBackground:
                            - submit: { refresh: com.example.app.refresh }
                          tasks:
                            com.example.app.refresh: { work: 2m, cpu: 1, bytes: 12MB, onExpiration: ignore }
                    """))
        #expect(
            simulation.records.contains {
                if case .terminated(_, .watchdog) = $0.detail { true } else { false }
            })
        // 35 s of the 2 minutes: 35 CPU-seconds and 35/120 of the bytes.
        let power = simulation.system.policy.power
        let expected = 35 * power.cpuWattsPerCore + 3.5e6 * power.wifiJoulesPerByte
        let charged = EnergySimulationTests.backgroundJoules(simulation)
        #expect(abs(charged - expected) < 1e-6)
    }

    @Test func assertionWorkOfASwipedAwayAppIsChargedForThePartDone() throws {
        let simulation = try EnergySimulationTests.run(
            EnergySimulationTests.scenario(
                behaviour: Self.saveOnLeaving,
                timeline: EnergySimulationTests.openThenHome + """

                      - { at: 125s, do: switcher }
                      - { at: 130s, do: swipe com.example.app }
                    """))
        let power = simulation.system.policy.power
        let charged = EnergySimulationTests.backgroundJoules(simulation)
        // 10 of the 20 seconds at half a core.
        #expect(abs(charged - 5 * power.cpuWattsPerCore) < 1e-6)
    }

    @Test func workOfAProcessThatExitsOnItsOwnIsChargedForThePartDone() throws {
        var scenario = try EnergySimulationTests.scenario(
            behaviour: Self.saveOnLeaving)
        scenario.timeline.append(
            TimelineEntry(at: 128, action: .system(.processExited("com.example.app", reason: "segfault"))))
        let simulation = try EnergySimulationTests.run(scenario)
        let power = simulation.system.policy.power
        let charged = EnergySimulationTests.backgroundJoules(simulation)
        // 8 of the 20 seconds at half a core.
        #expect(abs(charged - 4 * power.cpuWattsPerCore) < 1e-6)
    }

    /// Finding 4 of issue 26: an app playing audio (so never suspended) that starts 4 minutes of work at a full core
    /// when it leaves the screen is killed by the CPU monitor a window (60 s) later, while the work runs, and is
    /// charged for the 60 s done.
    @Test func theCPUMonitorStopsACPUBoundPieceOfWorkWhenItCrossesTheLimit() throws {
        let scenario = try ScenarioLoader.parse(
            yaml: """
                name: cpu-bound
                duration: 10m
                apps:
                  - manifest: { CFBundleIdentifier: com.example.app, UIBackgroundModes: [audio] }
                    behaviour:
                      onEnterBackground:
                        - startMode: audio
                        - backgroundTask: { name: crunch, work: 4m, cpu: 1 }
                timeline:
                  - { at: 1s, do: open com.example.app }
                  - { at: 10s, do: home }
                """, source: "cpu-bound.yaml")
        let simulation = try EnergySimulationTests.run(scenario)
        let limit = try #require(simulation.records.first { $0.kind == .resourceLimit })
        #expect(limit.at.seconds == 70)
        #expect(
            simulation.records.contains {
                if case .terminated(_, .resourceLimit) = $0.detail { $0.at.seconds == 70 } else { false }
            })
        #expect(simulation.system.app("com.example.app").totalUsage.cpuSeconds == 60)
    }
}
