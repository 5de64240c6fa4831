// The WWDC25 "Finish tasks in the background" samples (9:45 "Register a processing task" and
// 10:51 "Begin and end background task"), with Apple's real signatures. Only the imports differ
// from iOS (`import BackgroundTasks` / `import UIKit` → `import OffstageKit`); the fixes to the
// slides' typos are listed in Examples/ColorFeed/README.md.
import Foundation
import OffstageKit

public class AppDelegate: UIResponder, UIApplicationDelegate {
    var backgroundTaskID: UIBackgroundTaskIdentifier = .invalid
    /// When the database was last cleaned in this process: the next cleaning waits a day.
    var lastCleaning: Date?

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
        request.earliestBeginDate = lastCleaning.map { $0.addingTimeInterval(24 * 60 * 60) }

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
