public import OffstageCore

extension AppRuntime {
    /// Hands a notification the system delivered or the user tapped to the app's `UNUserNotificationCenter`,
    /// whose delegate hears of it (called on the app's main queue by the host).
    public func presentNotification(_ presentation: NotificationPresentation) {
        notificationCenter.present(presentation)
    }
}
