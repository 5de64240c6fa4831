import OffstageCore
import Testing

@testable import OffstageSimulator

/// §9 in the simulator: a scenario whose battery runs empty shows the device shutting down and every app
/// ending, then starting up when the timeline plugs the charger in.
@Suite struct EmptyBatteryScenarioTests {
    @Test func timelineShowsTheDeviceShuttingDownAndStartingUpOnTheCharger() throws {
        let scenario = try EnergySimulationTests.scenario(
            behaviour: "      register: []",
            device: "battery: { capacity: 1Wh, level: 2% }",
            timeline: """
                  - { at: 10s, do: open com.example.app }
                  - { at: 2m, do: open com.example.app }
                  - { at: 5m, do: plug }
                  - { at: 6m, do: unlock }
                  - { at: 6m 10s, do: open com.example.app }
                """, duration: "10m")
        let report = try Simulation(scenario: scenario).report()
        let text = report.timeline(verbose: false)
        #expect(text.contains("battery empty: the device shuts down until the charger is connected"))
        #expect(text.contains("active → not running: the battery is empty: the device shut down"))
        #expect(text.contains("ignored: the device is off (its battery is empty) until the charger is connected"))
        #expect(text.contains("the charger is connected: the device starts up (locked)"))
        let launches = report.records.filter { $0.kind == .launched && $0.app == "com.example.app" }
        #expect(launches.count == 2)
        #expect((launches.last?.at.seconds ?? 0) >= 360)
    }
}
