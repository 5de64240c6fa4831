// Tried as a new user would: an app delegate written as for iOS 17+ (only `import UIKit` and
// `import BackgroundTasks` changed to `import OffstageKit`), run through a YAML scenario as the README shows.
import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

nonisolated final class NewsAppDelegate: UIResponder, UIApplicationDelegate, @unchecked Sendable {
    private let refreshIdentifier = "com.example.news.refresh"
    private var saveTask: UIBackgroundTaskIdentifier = .invalid
    private var lastRefresh: Date?
    private(set) var headlines: [String] = []

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshIdentifier, using: nil) { task in
            self.handleAppRefresh(task as! BGAppRefreshTask)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleAppRefresh()
        saveTask = application.beginBackgroundTask(withName: "Save headlines") { [weak self] in
            guard let self else { return }
            application.endBackgroundTask(self.saveTask)
            self.saveTask = .invalid
        }
        Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(1500))  // writing the cache
            application.endBackgroundTask(self.saveTask)
            self.saveTask = .invalid
        }
    }

    private func scheduleAppRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: refreshIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 30 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("Could not schedule app refresh: \(error)")
        }
    }

    private func handleAppRefresh(_ task: BGAppRefreshTask) {
        scheduleAppRefresh()
        let refresh = Task {
            do {
                let fresh = try await fetchHeadlines()
                await MainActor.run {
                    self.headlines = fresh + self.headlines
                    self.lastRefresh = Date()
                }
                task.setTaskCompleted(success: true)
            } catch {
                task.setTaskCompleted(success: false)
            }
        }
        task.expirationHandler = { refresh.cancel() }
    }

    private func fetchHeadlines() async throws -> [String] {
        try await Task.sleep(for: .seconds(3))  // the request, until the network lands
        try Task.checkCancellation()
        return ["Headline at \(Date().formatted(.iso8601))"]
    }
}

@Suite struct NewUserTrialTests {
    @Test func newUsersAsyncAppDelegateRunsFromAYAMLScenario() throws {
        let scenario = try ScenarioLoader.parse(
            yaml: """
                name: news
                apps:
                  - code: News
                    manifest:
                      CFBundleIdentifier: com.example.news
                      UIBackgroundModes: [fetch]
                      BGTaskSchedulerPermittedIdentifiers: [com.example.news.refresh]
                timeline:
                  - { at: 1m, do: open com.example.news }
                  - { at: 2m, do: home }
                  - { at: 3h, do: open com.example.news }
                """, source: "inline")
        let report = try Simulation(scenario: scenario, catalog: SwiftAppCatalog(["News": { NewsAppDelegate() }]))
            .report()
        let completed = report.records.filter { $0.kind == .completed && $0.task == "com.example.news.refresh" }
        #expect(!completed.isEmpty)
        #expect(completed.allSatisfy { $0.reason == "setTaskCompleted(success: true) after 3.0 s" })
        #expect(report.records.contains { $0.kind == .assertionEnded && $0.at.seconds == 121.5 })
        #expect(report.records.allSatisfy { $0.kind != .crashed && $0.kind != .terminated })
    }
}
