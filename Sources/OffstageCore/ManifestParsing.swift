public import Foundation

/// A manifest that could not be read, naming the file and the key at fault.
/// Bad input is reported, never trapped on: hosts print `description` as it is.
public struct ManifestError: Error, Hashable, Sendable, CustomStringConvertible {
    public var source: String
    public var field: String?
    public var message: String

    public init(source: String, field: String?, message: String) {
        self.source = source
        self.field = field
        self.message = message
    }

    public var description: String {
        if let field { return "\(source): field '\(field)': \(message)" }
        return "\(source): \(message)"
    }
}

extension AppManifest {
    /// Reads an Info.plist (XML, binary or OpenStep) with Foundation's `PropertyListSerialization`.
    /// `source` names the file in errors.
    public init(plist data: Data, source: String) throws(ManifestError) {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw ManifestError(
                source: source, field: nil, message: "not a property list (\(error.localizedDescription))")
        }
        guard let dictionary = object as? [String: Any] else {
            throw ManifestError(source: source, field: nil, message: "the top level must be a dictionary")
        }
        try self.init(dictionary: dictionary, source: source)
    }

    /// Builds a manifest from the Info.plist keys as a dictionary (from a plist, YAML or JSON).
    /// Unknown keys are ignored, as iOS does; wrong types are errors naming the key.
    public init(dictionary: [String: Any], source: String) throws(ManifestError) {
        func string(_ key: String) throws(ManifestError) -> String? {
            guard let value = dictionary[key] else { return nil }
            guard let text = value as? String, !text.isEmpty else {
                throw ManifestError(source: source, field: key, message: "must be a non-empty string")
            }
            return text
        }
        func strings(_ key: String) throws(ManifestError) -> [String] {
            guard let value = dictionary[key] else { return [] }
            guard let list = value as? [Any] else {
                throw ManifestError(source: source, field: key, message: "must be an array of strings")
            }
            var result: [String] = []
            for (index, element) in list.enumerated() {
                guard let text = element as? String, !text.isEmpty else {
                    throw ManifestError(
                        source: source, field: "\(key)[\(index)]", message: "must be a non-empty string")
                }
                result.append(text)
            }
            return result
        }
        guard let bundle = try string("CFBundleIdentifier") else {
            throw ManifestError(source: source, field: "CFBundleIdentifier", message: "is required")
        }
        var entitlements: Set<String> = []
        if let raw = dictionary["Entitlements"] {
            guard let table = raw as? [String: Any] else {
                throw ManifestError(source: source, field: "Entitlements", message: "must be a dictionary of booleans")
            }
            for (key, value) in table {
                guard let enabled = value as? Bool else {
                    throw ManifestError(source: source, field: "Entitlements.\(key)", message: "must be a boolean")
                }
                if enabled { entitlements.insert(key) }
            }
        }
        let identifiers = try strings("BGTaskSchedulerPermittedIdentifiers")
        for (index, pattern) in identifiers.enumerated() where Self.isWildcard(pattern) {
            guard pattern.hasPrefix(bundle + ".") else {
                throw ManifestError(
                    source: source, field: "BGTaskSchedulerPermittedIdentifiers[\(index)]",
                    message: "wildcard '\(pattern)' must start with the bundle identifier '\(bundle).'")
            }
        }
        var extensionPoint: String?
        var requestsOpenAccess = false
        if let raw = dictionary["NSExtension"] {
            let field = "NSExtension.NSExtensionPointIdentifier"
            guard let table = raw as? [String: Any] else {
                throw ManifestError(source: source, field: "NSExtension", message: "must be a dictionary")
            }
            guard let point = table["NSExtensionPointIdentifier"] as? String, !point.isEmpty else {
                throw ManifestError(source: source, field: field, message: "must be a non-empty string")
            }
            guard bundle.contains(".") else {
                throw ManifestError(
                    source: source, field: "CFBundleIdentifier",
                    message: "an app extension's must begin with its host app's bundle identifier and a '.'")
            }
            extensionPoint = point
            if let attributes = table["NSExtensionAttributes"] {
                let field = "NSExtension.NSExtensionAttributes"
                guard let attributes = attributes as? [String: Any] else {
                    throw ManifestError(source: source, field: field, message: "must be a dictionary")
                }
                if let open = attributes["RequestsOpenAccess"] {
                    guard let open = open as? Bool else {
                        throw ManifestError(
                            source: source, field: "\(field).RequestsOpenAccess", message: "must be a boolean")
                    }
                    requestsOpenAccess = open
                }
            }
        }
        self.init(
            bundleIdentifier: BundleID(bundle),
            executable: try string("CFBundleExecutable"),
            backgroundModes: Set(try strings("UIBackgroundModes").map(BackgroundMode.init(rawValue:))),
            permittedIdentifiers: identifiers,
            entitlements: entitlements,
            extensionPoint: extensionPoint,
            usesScenes: dictionary["UIApplicationSceneManifest"] != nil,
            requestsOpenAccess: requestsOpenAccess
        )
    }
}
