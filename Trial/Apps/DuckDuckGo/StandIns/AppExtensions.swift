import UIKit

/// Stands in for the app's `UIApplicationExtension.swift` and `PersistentStoresConfiguration.swift`: the
/// termination reasons, the settings link and the notification names the app delegate uses.
extension UIApplication {
    enum TerminationReason {
        case insufficientDiskSpace
        case unrecoverableState
    }

    /// Would open the app's notification settings; there is no Settings app in a trial.
    func openAppNotificationSettings() async -> Bool { false }
}

extension NSNotification.Name {
    static let databaseDidEncounterInsufficientDiskSpace = Notification.Name(
        "com.duckduckgo.database.insufficient.disk.space")
}

/// Stands in for the app's configuration fetch: a two-second fetch that finds updated assets.
final class AppConfigurationFetch {
    enum FetchResult {
        case noData
        case assetsUpdated
    }

    func start(isBackgroundFetch: Bool, completion: @escaping (FetchResult) -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) { completion(.assetsUpdated) }
    }
}
