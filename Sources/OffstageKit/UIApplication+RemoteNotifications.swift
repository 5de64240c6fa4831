public import Foundation
import OffstageCore

// Remote-notification registration, the `async` forms of the push callbacks and home-screen quick actions.

extension UIApplication {
    /// Asks for a device token for remote notifications: the delegate's
    /// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)` gets it on the main queue. The token is
    /// ours (no Apple push service here): 32 bytes derived from the bundle identifier, the same in every run.
    public func registerForRemoteNotifications() {
        let token = Self.deviceToken(for: runtime.bundleIdentifier.rawValue)
        remoteRegistration.value = true
        DispatchQueue.main.async {
            self.delegate?.application(self, didRegisterForRemoteNotificationsWithDeviceToken: token)
        }
    }

    /// Gives the token up: the app receives no remote notifications until it registers again.
    public func unregisterForRemoteNotifications() { remoteRegistration.value = false }

    /// Whether the app registered (and has not unregistered) for remote notifications.
    public var isRegisteredForRemoteNotifications: Bool { remoteRegistration.value }

    /// The app's home-screen quick actions set in code (`UIApplicationShortcutItems` in the Info.plist are not
    /// read); nothing presses them here, so they are kept for the app to read back.
    public var shortcutItems: [UIApplicationShortcutItem]? {
        get { shortcuts.value }
        set { shortcuts.value = newValue }
    }

    /// The number on the app's icon (deprecated in iOS 17 for `UNUserNotificationCenter.setBadgeCount(_:)`; both
    /// set the same number); 0 shows none.
    public var applicationIconBadgeNumber: Int {
        get { badge.value }
        set { setBadge(newValue) }
    }

    /// Sets the icon's number from any thread (`UNUserNotificationCenter.setBadgeCount` runs on the caller's).
    nonisolated func setBadge(_ number: Int) { badge.value = max(0, number) }

    /// A device token that stays the same for one app in every run: FNV-1a of the bundle identifier, spread over
    /// 32 bytes by a linear congruential step.
    nonisolated static func deviceToken(for bundleIdentifier: String) -> Data {
        var state: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bundleIdentifier.utf8 { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var bytes: [UInt8] = []
        for _ in 0..<4 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            withUnsafeBytes(of: state.bigEndian) { bytes += $0 }
        }
        return Data(bytes)
    }
}

/// `UIApplicationShortcutIcon`: the icon of a quick action, kept by name.
public final class UIApplicationShortcutIcon: NSObject, @unchecked Sendable {
    /// `UIApplicationShortcutIcon.IconType`, with iOS's raw values for the first ones.
    public enum IconType: Int, Sendable {
        case compose = 0
        case play = 1
        case pause = 2
        case add = 3
        case location = 4
        case search = 5
        case share = 6
    }

    /// The system icon's type, or nil for a named image.
    public let type: IconType?
    /// The SF Symbol or template image's name, or nil for a system icon type.
    public let imageName: String?

    public init(type: IconType) {
        self.type = type
        imageName = nil
    }

    public init(systemImageName: String) {
        type = nil
        imageName = systemImageName
    }

    public init(templateImageName: String) {
        type = nil
        imageName = templateImageName
    }
}

/// `UIApplicationShortcutItem`: a home-screen quick action of the app.
open class UIApplicationShortcutItem: NSObject, @unchecked Sendable {
    public let type: String
    public let localizedTitle: String
    public let localizedSubtitle: String?
    public let icon: UIApplicationShortcutIcon?
    public let userInfo: [String: any NSSecureCoding]?

    public init(
        type: String, localizedTitle: String, localizedSubtitle: String?, icon: UIApplicationShortcutIcon?,
        userInfo: [String: any NSSecureCoding]? = nil
    ) {
        self.type = type
        self.localizedTitle = localizedTitle
        self.localizedSubtitle = localizedSubtitle
        self.icon = icon
        self.userInfo = userInfo
    }

    public convenience init(type: String, localizedTitle: String) {
        self.init(type: type, localizedTitle: localizedTitle, localizedSubtitle: nil, icon: nil)
    }
}

extension UIApplicationDelegate {
    /// Default: reports `.noData` at once. iOS would not deliver pushes to a delegate without either form of this
    /// method; a Swift default cannot be told apart from an implementation, so it answers instead of being killed.
    /// It runs on its caller's actor (`nonisolated(nonsending)`): the main actor, UIKit's, for a Swift 6 delegate,
    /// and the caller's for a delegate compiled in Swift 5 mode, whose witness is nonisolated; either way `userInfo`
    /// (not `Sendable`) stays where it is instead of being sent to the main actor.
    nonisolated(nonsending) public func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]
    ) async -> UIBackgroundFetchResult { .noData }

    /// Default: nothing (a delegate that does not implement it on iOS is not told).
    public func application(
        _ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data
    ) {}

    /// Default: nothing. (Registration never fails here: there is no push service to refuse it.)
    public func application(
        _ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error
    ) {}
}
