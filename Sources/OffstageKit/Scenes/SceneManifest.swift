import Foundation

/// The Info.plist's `UIApplicationSceneManifest`: an app that has one is scene-based, and iOS sends its
/// foreground and background callbacks to the delegate of its scene. Not an Apple type: iOS reads the key itself.
public struct OffstageSceneManifest: Hashable, Sendable {
    /// One entry of `UISceneConfigurations`: a configuration's name and the classes it names.
    public struct Configuration: Hashable, Sendable {
        public var name: String?
        /// `UISceneDelegateClassName`, as `NSClassFromString` reads it (`Module.SceneDelegate`).
        public var delegateClassName: String?
        /// `UISceneClassName`; nil means `UIWindowScene`.
        public var sceneClassName: String?

        public init(name: String? = nil, delegateClassName: String? = nil, sceneClassName: String? = nil) {
            self.name = name
            self.delegateClassName = delegateClassName
            self.sceneClassName = sceneClassName
        }
    }

    /// `UIApplicationSupportsMultipleScenes`.
    public var supportsMultipleScenes: Bool
    /// `UISceneConfigurations`, by session role (`UIWindowSceneSessionRoleApplication`).
    public var configurations: [String: [Configuration]]

    public init(supportsMultipleScenes: Bool = false, configurations: [String: [Configuration]] = [:]) {
        self.supportsMultipleScenes = supportsMultipleScenes
        self.configurations = configurations
    }

    /// The Info.plist key.
    public static let key = "UIApplicationSceneManifest"

    /// Reads the manifest from an Info.plist's top-level dictionary: nil when the app has none (not scene-based).
    /// A value of the wrong type is an error naming its key path.
    public init?(infoDictionary: [String: Any]) throws(OffstageSceneManifestError) {
        guard let value = infoDictionary[Self.key] else { return nil }
        guard let manifest = value as? [String: Any] else { throw .init(keyPath: Self.key, expected: "a dictionary") }
        let multiple = manifest["UIApplicationSupportsMultipleScenes"] ?? false
        guard let supports = multiple as? Bool else {
            throw .init(keyPath: "\(Self.key).UIApplicationSupportsMultipleScenes", expected: "a Boolean")
        }
        var configurations: [String: [Configuration]] = [:]
        let configurationsPath = "\(Self.key).UISceneConfigurations"
        guard let roles = (manifest["UISceneConfigurations"] ?? [String: Any]()) as? [String: Any] else {
            throw .init(keyPath: configurationsPath, expected: "a dictionary of session roles")
        }
        for (role, entries) in roles {
            guard let entries = entries as? [Any] else {
                throw .init(keyPath: "\(configurationsPath).\(role)", expected: "an array of configurations")
            }
            configurations[role] = try entries.enumerated().map { index, entry throws(OffstageSceneManifestError) in
                let path = "\(configurationsPath).\(role)[\(index)]"
                guard let entry = entry as? [String: Any] else { throw .init(keyPath: path, expected: "a dictionary") }
                func string(_ key: String) throws(OffstageSceneManifestError) -> String? {
                    guard let value = entry[key] else { return nil }
                    guard let text = value as? String else {
                        throw .init(keyPath: "\(path).\(key)", expected: "a string")
                    }
                    return text
                }
                return Configuration(
                    name: try string("UISceneConfigurationName"),
                    delegateClassName: try string("UISceneDelegateClassName"),
                    sceneClassName: try string("UISceneClassName"))
            }
        }
        self.init(supportsMultipleScenes: supports, configurations: configurations)
    }

    /// The configuration of a role with this name, or the role's first when `name` is nil.
    func configuration(named name: String?, role: String) -> Configuration? {
        let entries = configurations[role] ?? []
        guard let name else { return entries.first }
        return entries.first { $0.name == name }
    }
}

/// A `UIApplicationSceneManifest` value of the wrong type, named by its key path.
public struct OffstageSceneManifestError: Error, Hashable, Sendable, CustomStringConvertible {
    public var keyPath: String
    public var expected: String

    public init(keyPath: String, expected: String) {
        self.keyPath = keyPath
        self.expected = expected
    }

    public var description: String { "\(keyPath): expected \(expected)" }
}
