// Scheduler benchmarks (not tests): a simulated year of a 50-app device, and the cost of one scheduling
// decision as the number of pending requests grows; and a month of 10 async apps (AsyncApps.swift).
// Run: swift run -c release scheduler-benchmarks [DAYS | async [DAYS] | network [DAYS]]
import Foundation
import OffstageBenchmarkFixtures
import OffstageCore
import OffstageSimulator

/// Wall-clock seconds `body` takes.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

// MARK: A year of a 50-app device

func benchmarkYear(days: Int) throws {
    let scenario = try deviceScenario(apps: 50, days: days)
    var records = 0
    let elapsed = try seconds {
        let simulation = try Simulation(scenario: scenario)
        records = simulation.run().count
    }
    let opens = scenario.timeline.filter { if case .system(.open) = $0.action { true } else { false } }.count
    print(
        "\(days) days of a 50-app device: \(String(format: "%.2f", elapsed)) s "
            + "(\(opens) user sessions, \(records) records)")
}

// MARK: Decision cost against the number of pending requests

func benchmarkDecisions() {
    for pending in [1_000, 10_000, 100_000] {
        var system = systemWithPending(pending)
        var ticks = 0
        var tickTime = 0.0
        while ticks < 500, let due = system.nextDueTime {
            ticks += 1
            var effects: [Effect] = []
            tickTime += seconds { effects = system.handle(.tick, at: due) }
            drive(&system, effects, registering: [])
        }
        let id = benchmarkApp(pending / 11 / 2)
        let submits = 500
        let submitTime = seconds {
            for number in 0..<submits {
                _ = system.call(
                    .submit(
                        TaskRequest(
                            identifier: "\(id).processing\(1 + number % 10)", kind: .processing,
                            requiresNetworkConnectivity: number % 2 == 0)),
                    from: id, at: system.now)
            }
        }
        print(
            "\(pending) pending: \(String(format: "%.1f", tickTime / Double(max(1, ticks)) * 1e6)) µs per tick "
                + "(\(ticks) ticks were due), \(String(format: "%.1f", submitTime / Double(submits) * 1e6)) µs per submit"
        )
    }
}

// `scheduler-benchmarks DAYS` runs only the device simulation, for DAYS days; `scheduler-benchmarks async [DAYS]`
// only the async apps (30 days by default); `network [DAYS]` the same apps fetching with `URLSession`.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "async" || arguments.first == "network" {
    let days = arguments.dropFirst().first.flatMap { Int($0) } ?? 30
    try benchmarkAsyncApps(days: days, network: arguments.first == "network")
} else if let days = arguments.first.flatMap({ Int($0) }) {
    try benchmarkYear(days: days)
} else {
    try benchmarkYear(days: 365)
    benchmarkDecisions()
}
