// Scheduler benchmarks (not tests): a simulated year of a 50-app device, and the cost of one scheduling
// decision as the number of pending requests grows; and a month of 10 async apps (AsyncApps.swift).
// Run: swift run -c release scheduler-benchmarks [DAYS | async [DAYS] | network [DAYS]]
import Foundation
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

/// A scenario of `count` declarative apps refreshing themselves, each opened one to four times a day
/// by a routine with jitter, the device charged every night, for `days` days.
func deviceScenario(apps count: Int, days: Int) throws -> Scenario {
    var yaml = "name: \(count) apps for \(days) days\nseed: 3\nduration: \(days)d\ndevice: { screen: off }\napps:\n"
    var routine =
        "routine:\n  - { at: \"23:30\", jitter: 30m, do: plug }\n  - { at: \"07:05\", jitter: 15m, do: unplug }\n"
    for index in 0..<count {
        let id = "com.bench.app\(index)"
        let refresh = "\(id).refresh"
        let after = ["15m", "30m", "1h", "2h", "4h"][index % 5]
        yaml += """
              - manifest:
                  CFBundleIdentifier: \(id)
                  UIBackgroundModes: [fetch]
                  BGTaskSchedulerPermittedIdentifiers: [\(refresh)]
                behaviour:
                  register: [\(refresh)]
                  onLaunch: [{ submit: { refresh: \(refresh), after: \(after) } }]
                  tasks:
                    \(refresh): { work: 1s..5s, then: [{ submit: { refresh: \(refresh), after: \(after) } }] }

            """
        for session in 0..<(1 + index % 4) {
            let hour = 7 + (index * 5 + session * 4) % 16
            routine += "  - { at: \"\(hour):\(10 + index % 40)\", jitter: 20m, open: \(id), for: 3m }\n"
        }
    }
    return try ScenarioLoader.parse(yaml: yaml + routine, source: "benchmark")
}

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

/// A core with `pending` requests spread over apps of 10 processing + 1 refresh requests each, all
/// waiting: processing for an idle device, refresh for their earliest begin dates, one app a second.
/// Each app is launched in the background by a push (an event about one app), so setting up stays
/// linear; it submits its requests while it handles the push.
func systemWithPending(_ pending: Int) -> BackgroundSystem {
    var policy = Policy.iOS
    policy.judgement.energyBudgetCapacity = 1e12
    var system = BackgroundSystem(policy: policy)
    for index in 0..<max(1, pending / 11) {
        let id = BundleID("com.bench.app\(index)")
        let ids = ["\(id).refresh"] + (1...10).map { "\(id).processing\($0)" }
        _ = system.install(
            AppManifest(
                bundleIdentifier: id, backgroundModes: [.fetch, .processing, .remoteNotification],
                permittedIdentifiers: ids),
            at: .zero)
        let requests =
            [TaskRequest(identifier: ids[0], kind: .appRefresh, earliestBeginDate: 1000 + Double(index))]
            + ids.dropFirst().map { TaskRequest(identifier: $0, kind: .processing) }
        drive(
            &system, system.handle(.backgroundPush(id, payload: ""), at: .zero), registering: ids, submitting: requests)
    }
    return system
}

/// Answers every delivered callback at once, registering `identifiers` in `didFinishLaunching`; submits
/// `requests` when handed a push, then calls its completion handler; completes every task it is handed.
func drive(
    _ system: inout BackgroundSystem, _ effects: [Effect], registering identifiers: [String],
    submitting requests: [TaskRequest] = []
) {
    var queue = effects
    while !queue.isEmpty {
        let effect = queue.removeFirst()
        let now = system.now
        switch effect {
        case .deliver(let app, let callback, let token):
            if callback == .didFinishLaunching {
                for identifier in identifiers {
                    queue += system.call(.register(identifier: identifier), from: app, at: now).1
                }
            }
            queue += system.call(.returned(token: token), from: app, at: now).1
        case .deliverBackgroundEvent(let app, _, let token):
            for request in requests { queue += system.call(.submit(request), from: app, at: now).1 }
            queue += system.call(.backgroundEventCompleted(token: token, result: .newData), from: app, at: now).1
        case .startTask(let app, let run):
            queue += system.call(.setTaskCompleted(taskID: run.id, success: true), from: app, at: now).1
        default:
            break
        }
    }
}

func benchmarkDecisions() {
    for pending in [1_000, 10_000, 100_000] {
        var system = systemWithPending(pending)
        let ticks = 500
        var tickTime = 0.0
        for _ in 0..<ticks {
            guard let due = system.nextDueTime else { break }
            var effects: [Effect] = []
            tickTime += seconds { effects = system.handle(.tick, at: due) }
            drive(&system, effects, registering: [])
        }
        let id = BundleID("com.bench.app\(pending / 11 / 2)")
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
            "\(pending) pending: \(String(format: "%.1f", tickTime / Double(ticks) * 1e6)) µs per tick that starts a "
                + "refresh, \(String(format: "%.1f", submitTime / Double(submits) * 1e6)) µs per submit")
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
