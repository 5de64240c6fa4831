// A sample for the trial, written as for iOS (imports unchanged): replace or join it with the files under trial.
import BackgroundTasks
import UIKit
import os

/// Schedules an app refresh when it leaves the screen and completes it after a two-second fetch.
final class SampleRefreshAppDelegate: UIResponder, UIApplicationDelegate {
    static let refresh = "com.example.trial.refresh"
    let logger = Logger(subsystem: "com.example.trial", category: "refresh")

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            let work = Task {
                try? await Task.sleep(for: .seconds(2))
                task.setTaskCompleted(success: !Task.isCancelled)
            }
            task.expirationHandler = { work.cancel() }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let request = BGAppRefreshTaskRequest(identifier: Self.refresh)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            logger.error("could not schedule the refresh: \(error.localizedDescription)")
        }
    }
}
