import Articles
import Foundation

// A stand-in for NetNewsWire's `Account` module (ours): the notifications an account posts and a feed.

/// An account (the app's local, Feedbin… accounts); only its notification keys are used.
public final class Account {
    public struct UserInfoKey {
        public static let newArticles = "newArticles"
        public static let articleIDs = "articleIDs"
        public static let statusKey = "statusKey"
        public static let statusFlag = "statusFlag"
    }
}

/// A subscribed feed.
public final class Feed {
    public let feedID: String
    public let nameForDisplay: String
    public var newArticleNotificationsEnabled = true
    public init(feedID: String, nameForDisplay: String) {
        self.feedID = feedID
        self.nameForDisplay = nameForDisplay
    }
}

extension Notification.Name {
    public static let AccountDidDownloadArticles = Notification.Name("AccountDidDownloadArticles")
    public static let StatusesDidChange = Notification.Name("StatusesDidChange")
}
