import Account
import Articles
import BackgroundTasks
import UIKit

// Stand-ins for the NetNewsWire app's own helpers (ours) and an app delegate that starts the notification
// manager and, in a background refresh, posts the account's "downloaded articles" notification.

extension Article {
    /// The article's feed (the app finds it through the account).
    var feed: Feed? { Feed(feedID: "feed", nameForDisplay: "Daring Fireball") }
    /// Where the article is, for the notification's user info.
    var pathUserInfo: [String: String] { ["articleID": articleID] }
    /// The article's icon; none in a trial.
    func iconImageUrl(feed: Feed) -> URL? { nil }
}

/// The app's user-info keys.
struct UserInfoKey { static let articlePath = "articlePath" }

/// The app's text formatting for notifications.
final class ArticleStringFormatter {
    static let shared = ArticleStringFormatter()
    func truncatedTitle(_ article: Article) -> String { article.title }
    func truncatedSummary(_ article: Article) -> String { "" }
}

/// Starts the manager at launch; a refresh downloads one article and posts the account's notification.
final class NetNewsWireAppDelegate: UIResponder, UIApplicationDelegate {
    static let refresh = "com.ranchero.NetNewsWire.FeedRefresh"

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        MainActor.assumeIsolated { UserNotificationManager.shared.start() }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: .main) { task in
            let article = Article(articleID: "1", title: "New article")
            NotificationCenter.default.post(
                name: .AccountDidDownloadArticles, object: nil,
                userInfo: [Account.UserInfoKey.newArticles: Set([article])])
            task.setTaskCompleted(success: true)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: Self.refresh))
    }
}
