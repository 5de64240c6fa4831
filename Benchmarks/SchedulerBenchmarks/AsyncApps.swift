// The async benchmark: 10 apps written as iOS apps are (an `async` refresh that awaits its fetch, with
// `Task.sleep` standing in for the network), simulated for 30 days with their queues and sleeps in virtual time.
import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator

/// An app that refreshes every `interval` seconds: the launch handler starts a `Task` that awaits its fetch,
/// completes the task, and asks for the next refresh; the expiration handler cancels the `Task`.
nonisolated final class AsyncRefresher: UIApplicationDelegate, @unchecked Sendable {
    let identifier: String
    let interval: Double
    let fetchSeconds: Double
    /// Where the fetch goes with `URLSession.shared` (the scenario's network answers); nil: `Task.sleep` stands in.
    let feed: URL?

    init(identifier: String, interval: Double, fetchSeconds: Double, feed: URL? = nil) {
        self.identifier = identifier
        self.interval = interval
        self.fetchSeconds = fetchSeconds
        self.feed = feed
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            let work = Task {
                do {
                    _ = try await self.fetchLatestEntries()
                    task.setTaskCompleted(success: true)
                } catch {
                    task.setTaskCompleted(success: false)
                }
                self.scheduleRefresh()
            }
            task.expirationHandler = { work.cancel() }
        }
        scheduleRefresh()
        return true
    }

    func scheduleRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: interval)
        try? BGTaskScheduler.shared.submit(request)
    }

    func fetchLatestEntries() async throws -> Int {
        if let feed { return try await URLSession.shared.data(from: feed).0.count }
        try await Task.sleep(for: .seconds(fetchSeconds))
        return await decode()
    }

    func decode() async -> Int { 3 }
}

/// `count` async apps opened by a daily routine, the device charged every night, for `days` days.
/// With `network`, each app's fetch is a `URLSession` request its own host answers after the fetch's seconds.
func asyncScenario(apps count: Int, days: Int, network: Bool = false) throws -> (Scenario, SwiftAppCatalog) {
    var yaml =
        "name: \(count) async apps for \(days) days\nseed: 3\nduration: \(days)d\ndevice: { screen: off }\napps:\n"
    var routine =
        "routine:\n  - { at: \"23:30\", jitter: 30m, do: plug }\n  - { at: \"07:05\", jitter: 15m, do: unplug }\n"
    var catalog: [String: @MainActor @Sendable () -> any UIApplicationDelegate] = [:]
    var networkRoutes: [NetworkRoute] = []
    for index in 0..<count {
        let id = "com.bench.async\(index)"
        let refresh = "\(id).refresh"
        let interval = [900.0, 1800, 3600, 7200, 14400][index % 5]
        let fetch = Double(1 + index % 5)
        let feed = network ? URL(string: "https://\(id)/feed.json") : nil
        catalog[id] = { AsyncRefresher(identifier: refresh, interval: interval, fetchSeconds: fetch, feed: feed) }
        let answer = OffstageNetworkResponse(body: Data(count: 20_000))
        networkRoutes.append(NetworkRoute(match: .host(id), answer: .response(answer), serverTime: fetch))
        yaml += """
              - code: \(id)
                manifest:
                  CFBundleIdentifier: \(id)
                  UIBackgroundModes: [fetch]
                  BGTaskSchedulerPermittedIdentifiers: [\(refresh)]

            """
        for session in 0..<(1 + index % 4) {
            let hour = 7 + (index * 5 + session * 4) % 16
            routine += "  - { at: \"\(hour):\(10 + index % 40)\", jitter: 20m, open: \(id), for: 3m }\n"
        }
    }
    var scenario = try ScenarioLoader.parse(yaml: yaml + routine, source: "benchmark")
    scenario.network.routes = networkRoutes
    return (scenario, SwiftAppCatalog(catalog))
}

func benchmarkAsyncApps(days: Int, network: Bool = false) throws {
    let (scenario, catalog) = try asyncScenario(apps: 10, days: days, network: network)
    var records: [Record] = []
    let elapsed = try seconds {
        let simulation = try Simulation(scenario: scenario, catalog: catalog)
        records = simulation.run()
    }
    let completed = records.filter { $0.kind == .completed }.count
    print(
        "\(days) days of 10 async apps\(network ? " fetching with URLSession" : ""): "
            + "\(String(format: "%.2f", elapsed)) s "
            + "(\(completed) refreshes completed, \(records.count) records)")
}
