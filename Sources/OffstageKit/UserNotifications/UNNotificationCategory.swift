public import Foundation

// The actionable-notification and attachment surface of UserNotifications. Nothing draws a notification here, so
// the actions and categories are kept for the app to read back and the attachments checked as iOS checks them:
// their file must exist when the attachment is made.

/// `UNNotificationActionOptions`, with iOS's raw values.
public struct UNNotificationActionOptions: OptionSet, Sendable {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)
    public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
    public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)
}

/// `UNNotificationAction`: a button a notification of a category shows.
public class UNNotificationAction: NSObject, @unchecked Sendable {
    public let identifier: String
    public let title: String
    public let options: UNNotificationActionOptions

    public init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.identifier = identifier
        self.title = title
        self.options = options
    }
}

/// `UNNotificationCategoryOptions`, with iOS's raw values.
public struct UNNotificationCategoryOptions: OptionSet, Sendable {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
    public static let allowInCarPlay = UNNotificationCategoryOptions(rawValue: 1 << 1)
    public static let hiddenPreviewsShowTitle = UNNotificationCategoryOptions(rawValue: 1 << 2)
    public static let hiddenPreviewsShowSubtitle = UNNotificationCategoryOptions(rawValue: 1 << 3)
}

/// `UNNotificationCategory`: the actions of the notifications whose content names this category.
public final class UNNotificationCategory: NSObject, @unchecked Sendable {
    public let identifier: String
    public let actions: [UNNotificationAction]
    public let intentIdentifiers: [String]
    public let hiddenPreviewsBodyPlaceholder: String?
    public let options: UNNotificationCategoryOptions

    public init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
        hiddenPreviewsBodyPlaceholder: String? = nil, options: UNNotificationCategoryOptions = []
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.options = options
    }
}

/// `UNNotificationAttachment`: an image, sound or video shown with a notification, made from a local file. As on
/// iOS, a file that does not exist is refused with `UNError.attachmentInvalidURL`.
public final class UNNotificationAttachment: NSObject, @unchecked Sendable {
    public let identifier: String
    public let url: URL
    /// The file's type as a filename extension (iOS gives a uniform type identifier).
    public let type: String

    public init(identifier: String, url: URL, options: [AnyHashable: Any]? = nil) throws {
        guard url.isFileURL, FileManager.default.fileExists(atPath: url.path) else {
            throw UNError(.attachmentInvalidURL)
        }
        self.identifier = identifier
        self.url = url
        self.type = url.pathExtension
    }
}

extension UNUserNotificationCenter {
    /// Registers the app's notification categories, replacing those registered before.
    public func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        categoryStorage.value = categories
    }

    /// The app's registered categories, on a background queue as on iOS.
    public func getNotificationCategories(
        completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void
    ) {
        let categories = categoryStorage.value
        DispatchQueue.global().async { completionHandler(categories) }
    }

    public func notificationCategories() async -> Set<UNNotificationCategory> { categoryStorage.value }
}
