public import OffstageKit

/// The real Swift apps a simulation can host, by the name a scenario's `code:` gives.
/// Each entry makes a fresh delegate for every launch of that app.
public struct SwiftAppCatalog: Sendable {
    public var apps: [String: @MainActor @Sendable () -> any UIApplicationDelegate]

    public init(_ apps: [String: @MainActor @Sendable () -> any UIApplicationDelegate] = [:]) { self.apps = apps }
}
