/// What the system knows of an app before it runs: the keys of its Info.plist that matter here.
/// Permitted identifiers are exact strings or `<bundle-id>.<context>.*` wildcards.
public struct AppManifest: Hashable, Sendable, Codable {
    public var bundleIdentifier: BundleID
    public var executable: String?
    public var backgroundModes: Set<BackgroundMode>
    public var permittedIdentifiers: [String]
    public var entitlements: Set<String>
    /// For an app extension, its Info.plist's `NSExtension` → `NSExtensionPointIdentifier` (e.g.
    /// `com.apple.widgetkit-extension`); nil for an app.
    public var extensionPoint: String?
    /// The Info.plist has a `UIApplicationSceneManifest`: a scene-based app, whose foreground and background
    /// callbacks go to its scene's delegate (the records name those).
    public var usesScenes: Bool
    /// A keyboard extension's `NSExtensionAttributes` → `RequestsOpenAccess`: it asks the user for full access.
    public var requestsOpenAccess: Bool

    /// `NSExtensionPointIdentifier` of a custom keyboard.
    public static let keyboardExtensionPoint = "com.apple.keyboard-service"

    /// The app an extension belongs to: its bundle identifier less the last component, as Apple requires an
    /// extension's to begin with its host's; nil for an app.
    public var hostApp: BundleID? {
        guard extensionPoint != nil, let dot = bundleIdentifier.rawValue.lastIndex(of: ".") else { return nil }
        return BundleID(String(bundleIdentifier.rawValue[..<dot]))
    }

    public init(
        bundleIdentifier: BundleID,
        executable: String? = nil,
        backgroundModes: Set<BackgroundMode> = [],
        permittedIdentifiers: [String] = [],
        entitlements: Set<String> = [],
        extensionPoint: String? = nil,
        usesScenes: Bool = false,
        requestsOpenAccess: Bool = false
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.executable = executable
        self.backgroundModes = backgroundModes
        self.permittedIdentifiers = permittedIdentifiers
        self.entitlements = entitlements
        self.extensionPoint = extensionPoint
        self.usesScenes = usesScenes
        self.requestsOpenAccess = requestsOpenAccess
    }

    private enum CodingKeys: String, CodingKey {
        case bundleIdentifier, executable, backgroundModes, permittedIdentifiers, entitlements, extensionPoint
        case usesScenes, requestsOpenAccess
    }

    /// Decodes a manifest; the keys added since the first stored manifests may be missing (false).
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            bundleIdentifier: try values.decode(BundleID.self, forKey: .bundleIdentifier),
            executable: try values.decodeIfPresent(String.self, forKey: .executable),
            backgroundModes: try values.decode(Set<BackgroundMode>.self, forKey: .backgroundModes),
            permittedIdentifiers: try values.decode([String].self, forKey: .permittedIdentifiers),
            entitlements: try values.decode(Set<String>.self, forKey: .entitlements),
            extensionPoint: try values.decodeIfPresent(String.self, forKey: .extensionPoint),
            usesScenes: try values.decodeIfPresent(Bool.self, forKey: .usesScenes) ?? false,
            requestsOpenAccess: try values.decodeIfPresent(Bool.self, forKey: .requestsOpenAccess) ?? false)
    }

    /// Whether the app is an extension (it has no app delegate and no `beginBackgroundTask`).
    public var isExtension: Bool { extensionPoint != nil }

    /// A custom keyboard that lacks open access: its Info.plist does not request it, or the user did not allow
    /// full access (`granted`). `BGTaskScheduler` refuses its requests with `unavailable`.
    public func isKeyboardWithoutOpenAccess(granted: Set<BundleID>) -> Bool {
        extensionPoint == Self.keyboardExtensionPoint && !(requestsOpenAccess && granted.contains(bundleIdentifier))
    }

    /// How an identifier is allowed by `BGTaskSchedulerPermittedIdentifiers`.
    public enum Permission: Hashable, Sendable {
        /// Listed exactly.
        case exact
        /// Matched by a `<bundle>.<context>.*` wildcard: dynamic, continued-processing only.
        case wildcard(String)
        /// Not listed.
        case notPermitted
    }

    /// Whether `identifier` is permitted, exactly or through a wildcard whose prefix holds the bundle ID.
    public func permission(for identifier: String) -> Permission {
        if permittedIdentifiers.contains(identifier) { return .exact }
        for pattern in permittedIdentifiers where Self.isWildcard(pattern) {
            let prefix = String(pattern.dropLast(1))  // keeps the trailing "."
            guard prefix.hasPrefix(bundleIdentifier.rawValue + "."), identifier.hasPrefix(prefix) else { continue }
            let suffix = identifier.dropFirst(prefix.count)
            if !suffix.isEmpty && !suffix.contains(".") { return .wildcard(pattern) }
        }
        return .notPermitted
    }

    /// Whether a permitted-identifier entry is a wildcard (`….*`).
    public static func isWildcard(_ pattern: String) -> Bool { pattern.hasSuffix(".*") }
}
