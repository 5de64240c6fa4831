// What the scheduler benchmarks set up, shared by the `scheduler-benchmarks` executable and the ordo-one/benchmark
// suite (`Benchmarks/Suite`): the 50-app device's scenario, a core with many pending requests and an app that
// answers every callback at once, and a small generated usage trace.
public import OffstageCore
public import OffstageSimulator

/// A scenario of `count` declarative apps refreshing themselves, each opened one to four times a day by a routine
/// with jitter, the device charged every night, for `days` days: the simulated year's device.
public func deviceScenario(apps count: Int, days: Int) throws -> Scenario {
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

/// The bundle identifier of the benchmark's app number `index` (`systemWithPending`, `deviceScenario`).
public func benchmarkApp(_ index: Int) -> BundleID { BundleID("com.bench.app\(index)") }

/// A core with `pending` requests spread over apps of 10 processing + 1 refresh requests each, all waiting:
/// processing for an idle device, refresh for their earliest begin dates, one app a second. Each app is launched
/// in the background by a push (an event about one app), so setting up stays linear; it submits its requests
/// while it handles the push.
public func systemWithPending(_ pending: Int) -> BackgroundSystem {
    var policy = Policy.iOS
    policy.judgement.energyBudgetCapacity = 1e12
    var system = BackgroundSystem(policy: policy)
    for index in 0..<max(1, pending / 11) {
        let id = benchmarkApp(index)
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

/// Answers every delivered callback at once, registering `identifiers` in `didFinishLaunching`; submits `requests`
/// when handed a push, then calls its completion handler; completes every task it is handed.
public func drive(
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

/// A small generated usage trace for the evaluation benchmarks: `users` users of 20 apps over `days` days
/// (`offstage trace generate --users USERS --days DAYS --apps 20 --seed 28`).
public func smallUsageTrace(users: Int = 2, days: Int = 3) -> UsageTrace {
    TraceGenerator.generate(TraceModel(users: users, days: days, apps: 20, seed: 28))
}
