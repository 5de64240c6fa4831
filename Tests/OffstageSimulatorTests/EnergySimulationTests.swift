import OffstageCore
import Testing

@testable import OffstageCLI
@testable import OffstageSimulator

/// §8 Battery and §9 in the simulator: declarative work costs energy, the battery is modelled, the Battery
/// view reads the ledger; and the scenario fields for all of it, with errors naming line and field.
@Suite struct EnergySimulationTests {
    /// One declarative app, `com.example.app`, with this behaviour (indented YAML), on a quiet device.
    /// The user opens the app at 1 min and goes home at 2 min: the timeline most energy tests run.
    static let openThenHome = """
          - { at: 1m, do: open com.example.app }
          - { at: 2m, do: home }
        """

    /// One app with `behaviour`, on `device`, following `timeline` (by default `openThenHome`) for `duration`.
    static func scenario(
        behaviour: String, device: String = "network: wifi", timeline: String = openThenHome, duration: String = "1h"
    ) throws -> Scenario {
        try ScenarioLoader.parse(
            yaml: """
                name: energy
                duration: \(duration)
                policy:
                  power: { wakeUpJoules: 0 }
                device:
                  \(device)
                apps:
                  - manifest:
                      CFBundleIdentifier: com.example.app
                      UIBackgroundModes: [fetch]
                      BGTaskSchedulerPermittedIdentifiers: [com.example.app.refresh]
                    behaviour:
                \(behaviour)
                timeline:
                \(timeline)
                """, source: "energy.yaml")
    }

    static func run(_ scenario: Scenario) throws -> Simulation {
        let simulation = try Simulation(scenario: scenario)
        simulation.run()
        return simulation
    }

    static let app = EnergyConsumer.app("com.example.app")

    /// The background joules the ledger charged to the app.
    static func backgroundJoules(_ simulation: Simulation) -> Double {
        simulation.system.energy.totals[app]?.background ?? 0
    }

    @Test func declarativeWorkReportsItsCPUAndBytes() throws {
        let simulation = try Self.run(
            Self.scenario(
                behaviour: """
                          onEnterBackground:
                            - backgroundTask: { name: save, work: 10s, cpu: 50%, bytes: 1MB }
                            - work: { duration: 2s, cpu: 2, gpu: 0.5 }
                    """))
        let power = simulation.system.policy.power
        let expected =
            (10 * 0.5 + 2 * 2) * power.cpuWattsPerCore + 2 * 0.5 * power.gpuWatts + 1e6 * power.wifiJoulesPerByte
        #expect(abs((Self.backgroundJoules(simulation)) - expected) < 1e-9)
    }

    /// A `load:` goes on after the callback returns, where `work:` holds the callback: six seconds of work in
    /// `didEnterBackground` get the app killed (over the 5 s iOS allows), six seconds of load do not.
    @Test func aLoadGoesOnAfterTheCallbackReturnsWhereWorkHoldsIt() throws {
        func killedByWatchdog(_ action: String) throws -> Bool {
            let simulation = try Self.run(
                Self.scenario(
                    behaviour: """
                              onEnterBackground:
                                - \(action): { duration: 6s, cpu: 1 }
                        """))
            return simulation.records.contains {
                if case .terminated(_, .watchdog) = $0.detail { $0.app == "com.example.app" } else { false }
            }
        }
        #expect(try killedByWatchdog("work"))
        #expect(try !killedByWatchdog("load"))
    }

    @Test func summaryShowsEachAppsBackgroundEnergy() throws {
        let scenario = try Self.scenario(
            behaviour: """
                      onEnterBackground:
                        - backgroundTask: { name: save, work: 10s, cpu: 100% }
                """)
        let report = try Simulation(scenario: scenario).report()
        let joules = 10 * scenario.policy.power.cpuWattsPerCore
        #expect(report.apps.first?.backgroundJoules == joules)
        let row = try #require(report.summary().split(separator: "\n").first { $0.hasPrefix("    com.example.app ") })
        #expect(row.contains(BatteryReport.joules(joules)))
        #expect(report.summary().contains("bg energy"))
    }

    @Test func taskStoppedAtExpirationIsChargedForTheWorkDone() throws {
        let simulation = try Self.run(
            Self.scenario(
                behaviour: """
                          register: [com.example.app.refresh]
                          onEnterBackground:
                            - submit: { refresh: com.example.app.refresh }
                          tasks:
                            com.example.app.refresh: { work: 2m, cpu: 1, bytes: 4MB, onExpiration: stop }
                    """))
        #expect(simulation.records.contains { $0.kind == .expired })
        // 30 s of the 2 minutes: a quarter of the bytes, 30 CPU-seconds.
        let power = simulation.system.policy.power
        let expected = 30 * power.cpuWattsPerCore + 1e6 * power.wifiJoulesPerByte
        #expect(abs((Self.backgroundJoules(simulation)) - expected) < 1e-9)
    }

    @Test func simulatedBatteryDrainsOverARun() throws {
        let simulation = try Self.run(
            Self.scenario(
                behaviour: "      register: []", device: "battery: { capacity: 10Wh, level: 50% }\n  screen: off",
                timeline: "  - { at: 10h, do: lock }", duration: "10h"))
        // Asleep for 10 hours: the baseline only, 0.04 W × 36 000 s = 1440 J = 4 % of 10 Wh.
        #expect(abs(simulation.system.device.batteryLevel - 0.46) < 1e-9)
        #expect(BatteryReport(system: simulation.system).text().hasPrefix("Battery: 46%, not charging"))
    }

    @Test func pluggingInChargesTheSimulatedBatteryAlongTheCurve() throws {
        let simulation = try Self.run(
            Self.scenario(
                behaviour: "      register: []", device: "battery: 20%\n  screen: off",
                timeline: "  - { at: 1m, do: plug }", duration: "31m"))
        let battery = Battery()
        let charged = battery.level(afterCharging: 1800, from: 0.2 - 60 * 0.04 / battery.capacityJoules)
        let drawn = 1800 * 0.04 / battery.capacityJoules
        #expect(abs(simulation.system.device.batteryLevel - (charged - drawn)) < 1e-9)
        #expect(simulation.records.contains { $0.kind == .device && $0.reason == "battery 20%, plugged in" })
    }

    @Test func batteryViewShowsAppsThatAffectBatteryMostFirst() throws {
        let simulation = try Simulation(scenario: try DemoScenario.load(), catalog: .bundled)
        simulation.run()
        let view = BatteryReport(system: simulation.system)
        let rows = view.rows(simulation.system.energy.last10Days(at: simulation.system.now))
        #expect(rows.count == 4)
        #expect(rows.map(\.energy.total) == rows.map(\.energy.total).sorted(by: >))
        #expect(rows.allSatisfy { abs($0.ofBattery * view.battery.capacityJoules - $0.energy.total) < 1e-6 })
        let text = view.text()
        for line in ["Last 24 hours: ", "Last 10 days: ", "foreground", "background", "com.example.photosync"] {
            #expect(text.contains(line))
        }
    }

    // MARK: Scenario fields

    @Test func batteryMappingSetsCapacityLevelAndCurve() throws {
        let scenario = try Self.scenario(
            behaviour: "      register: []",
            device: "battery: { capacity: 15Wh, level: 35%, charging: true, chargingPower: 20W, taper: 0.9 }",
            timeline: "", duration: "1h")
        #expect(scenario.device.battery == Battery(capacityWattHours: 15, chargingWatts: 20, taperLevel: 0.9))
        #expect(scenario.device.batteryLevel == 0.35)
        #expect(scenario.device.isCharging)
    }

    @Test func energyFieldsAreCheckedWithLineAndField() {
        func error(device: String = "network: wifi", behaviour: String = "      register: []") -> String? {
            do {
                _ = try Self.scenario(behaviour: behaviour, device: device, timeline: "", duration: "1h")
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(
            error(device: "battery: { capacity: lots }")
                == "energy.yaml:6: field 'device.battery.capacity': expected a capacity like 12Wh, got \"lots\"")
        #expect(
            error(device: "battery: { level: 50%, charging: true }\n  charging: false")
                == "energy.yaml:6: field 'device.battery.charging': 'charging' is given twice: keep either "
                + "'device.charging' or 'device.battery.charging'")
        #expect(
            error(behaviour: "      onLaunch:\n        - work: { duration: 1s, cpu: lots }")
                == "energy.yaml:14: field 'apps[0].behaviour.onLaunch[0].work.cpu': expected CPU cores kept busy, "
                + "like 0.3 or 30% (of one core), up to 64, got \"lots\"")
        #expect(
            error(behaviour: "      onLaunch:\n        - work: { cpu: 1 }")
                == "energy.yaml:14: field 'apps[0].behaviour.onLaunch[0].work.duration': is required")
        #expect(
            error(behaviour: "      tasks:\n        com.example.app.refresh: { bytes: 3 apples }")
                == "energy.yaml:14: field 'apps[0].behaviour.tasks.com.example.app.refresh.bytes': "
                + "expected a size like 120MB, got \"3 apples\"")
    }

    @Test func policyPowerSetsThePowerModel() throws {
        let scenario = try ScenarioLoader.parse(
            yaml: """
                name: x
                policy:
                  power: { baselineWatts: 40mW, wifiJoulesPerByte: 2µJ, cellularTailSeconds: 12s, wakeUpJoules: 0.5 }
                """, source: "x.yaml")
        #expect(scenario.policy.power.baselineWatts == 0.04)
        #expect(scenario.policy.power.wifiJoulesPerByte == 2e-6)
        #expect(scenario.policy.power.cellularTailSeconds == 12)
        #expect(scenario.policy.power.wakeUpJoules == 0.5)
        do {
            _ = try ScenarioLoader.parse(yaml: "name: x\npolicy:\n  power: { screenWatts: bright }\n", source: "x.yaml")
            Issue.record("no error")
        } catch {
            #expect(
                error.description
                    == "x.yaml:3: field 'policy.power.screenWatts': expected a power like 1.5W or 40mW, got \"bright\"")
        }
    }

    @Test func powerTableCoversEveryPowerModelProperty() {
        let properties = Set(Mirror(reflecting: PowerModel()).children.compactMap(\.label))
        #expect(Set(ScenarioLoader.powerSettings.map(\.name)) == properties)
    }
}
