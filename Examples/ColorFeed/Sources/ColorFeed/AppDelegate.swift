// The WWDC25 "Finish tasks in the background" samples (9:45 "Register a processing task" and
// 10:51 "Begin and end background task"), with Apple's real signatures. Only the imports differ
// from iOS (`import BackgroundTasks` / `import UIKit` → `import OffstageKit`); the fixes to the
// slides' typos are listed in Examples/ColorFeed/README.md.
import OffstageKit

public class AppDelegate: UIResponder, UIApplicationDelegate {
    var backgroundTaskID: UIBackgroundTaskIdentifier = .invalid
    /// How long the next cleaning waits: nothing at first, a day once the database has been cleaned.
    var cleaningDelay: TimeInterval?

    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(
            forTaskWithIdentifier: "com.example.apple-samplecode.ColorFeed.db_cleaning",
            using: nil
        ) { task in
            self.handleAppRefresh(task: task as! BGProcessingTask)
        }
        BGTaskScheduler.shared.register(
            forTaskWithIdentifier: "com.colorfeed.wwdc25.appRefresh",
            using: nil
        ) { task in
            self.handleAppRefresh(task: task as! BGAppRefreshTask)
        }
        submitProcessingTaskRequest()
        return true
    }

    public func applicationDidEnterBackground(_ application: UIApplication) {
        handlePersistence()
        scheduleAppRefresh()
    }

    func submitProcessingTaskRequest() {
        let request = BGProcessingTaskRequest(
            identifier: "com.example.apple-samplecode.ColorFeed.db_cleaning"
        )
        request.requiresNetworkConnectivity = true
        request.requiresExternalPower = true
        request.earliestBeginDate = cleaningDelay.map { Date(timeIntervalSinceNow: $0) }

        try? BGTaskScheduler.shared.submit(request)
    }

    func saveState() { Feed.saveState() }

    func handlePersistence() {
        let app = UIApplication.shared
        guard backgroundTaskID == .invalid else { return }
        backgroundTaskID = app.beginBackgroundTask(withName: "Finish Export") {
            app.endBackgroundTask(self.backgroundTaskID)
            self.backgroundTaskID = .invalid
        }

        self.saveState()

        app.endBackgroundTask(backgroundTaskID)
        backgroundTaskID = .invalid
    }
}
