import BackgroundTasks
import Shared
import UIKit
import UserNotifications

/// Drives Home Assistant's background code as its app delegate and lifecycle manager do: the background task
/// runner set at launch, notifications allowed, the refresh registered, and scheduled again on leaving the screen; after a refresh the
/// local notification dispatcher tells the user, and snoozes a reminder by ten minutes.
final class HomeAssistantAppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        Current.backgroundTask = ApplicationBackgroundTaskRunner()
        UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound]) { _, _ in }
        BackgroundRefreshManager.register()
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        BackgroundRefreshManager.scheduleAppRefresh()
        LocalNotificationDispatcher().send(
            .init(id: .backgroundFetchDone, title: "Sensors will update in the background"))
        let reminder = UNMutableNotificationContent()
        reminder.title = "Check the sensors"
        LocalNotificationDispatcher().reschedule(reminder, after: 10 * 60)
    }
}
