import Foundation

// A stand-in for NetNewsWire's `Articles` module (ours): an article and its read status.

/// An article's read and starred status.
public final class ArticleStatus {
    public enum Key: String { case read, starred }
    public var read = false
    public init() {}
}

/// One article of a feed.
public final class Article: Hashable {
    public let articleID: String
    public let title: String
    public let status = ArticleStatus()
    public init(articleID: String, title: String) {
        self.articleID = articleID
        self.title = title
    }
    public static func == (lhs: Article, rhs: Article) -> Bool { lhs.articleID == rhs.articleID }
    public func hash(into hasher: inout Hasher) { hasher.combine(articleID) }
}
