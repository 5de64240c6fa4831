import UIKit
import UserNotifications

/// Stands in for the app's dependencies: the services the app delegate's debug accessors reach, the
/// notification authorization controller under trial, and a save that runs under a background task.
@MainActor
final class AppDependencies: NotificationsPermissionsControllerDelegate {
    let reportingService = ReportingService()
    let remoteMessagingService = RemoteMessagingService()
    let notifications = NotificationsAuthorizationController()

    init() { notifications.delegate = self }

    nonisolated func authorizationStateDidChange(toStatus status: UNAuthorizationStatus) {
        print("DuckDuckGo trial: notification authorization is now \(status.rawValue)")
    }

    /// Begins a background task, saves for two seconds, and ends the task.
    func saveUnderBackgroundTask() {
        var identifier = UIBackgroundTaskIdentifier.invalid
        identifier = UIApplication.shared.beginBackgroundTask(withName: "save") {
            UIApplication.shared.endBackgroundTask(identifier)
        }
        DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
            UIApplication.shared.endBackgroundTask(identifier)
        }
    }
}

/// Stands in for the app's reporting service.
final class ReportingService {
    var privacyProDataReporter: PrivacyProDataReporting? { nil }
}

/// Stands in for the app's privacy-pro reporter protocol.
protocol PrivacyProDataReporting {}

/// Stands in for the app's remote messaging service.
final class RemoteMessagingService {
    func refreshRemoteMessages() {}
}
