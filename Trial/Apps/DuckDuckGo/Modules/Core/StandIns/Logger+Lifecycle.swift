import os

/// Stands in for DuckDuckGo's `Core` module: the one logger of it the app delegate uses.
extension Logger {
    /// The app's lifecycle log, as `Core` declares it.
    public static var lifecycle = Logger(subsystem: "Lifecycle", category: "")
}
