/// An app's bundle identifier, e.g. `com.example.ColorFeed`: the app's identity everywhere.
/// A distinct type so an app can never be confused with a task identifier.
public struct BundleID: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    /// A digest of `rawValue`, made once: bundle identifiers key the system's hottest tables, and hashing
    /// the whole text at every lookup was a large share of a decision's cost.
    let digest: UInt64

    public init(rawValue: String) {
        self.rawValue = rawValue
        digest = Self.digest(of: rawValue)
    }
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    public static func < (lhs: BundleID, rhs: BundleID) -> Bool { lhs.rawValue < rhs.rawValue }
    public static func == (lhs: BundleID, rhs: BundleID) -> Bool {
        lhs.digest == rhs.digest && lhs.rawValue == rhs.rawValue
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(digest) }
    public var description: String { rawValue }

    /// FNV-1a over the UTF-8 bytes: equal texts get equal digests, so hashing by digest is consistent with `==`.
    private static func digest(of text: String) -> UInt64 {
        text.utf8.reduce(14_695_981_039_346_656_037) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
