/// One value of `UIBackgroundModes` in an app's Info.plist, kept as its raw string.
/// Unknown values are kept too, so a manifest round-trips and newer modes are not lost.
public struct BackgroundMode: RawRepresentable, Hashable, Comparable, Sendable, Codable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let fetch = BackgroundMode(rawValue: "fetch")
    public static let processing = BackgroundMode(rawValue: "processing")
    public static let remoteNotification = BackgroundMode(rawValue: "remote-notification")
    public static let audio = BackgroundMode(rawValue: "audio")
    public static let location = BackgroundMode(rawValue: "location")
    public static let voip = BackgroundMode(rawValue: "voip")
    public static let externalAccessory = BackgroundMode(rawValue: "external-accessory")
    public static let bluetoothCentral = BackgroundMode(rawValue: "bluetooth-central")
    public static let bluetoothPeripheral = BackgroundMode(rawValue: "bluetooth-peripheral")
    public static let newsstandContent = BackgroundMode(rawValue: "newsstand-content")
    public static let nearbyInteraction = BackgroundMode(rawValue: "nearby-interaction")
    public static let pushToTalk = BackgroundMode(rawValue: "push-to-talk")

    /// The modes iOS documents; others are accepted but reported as unknown by validators.
    public static let known: Set<BackgroundMode> = [
        .fetch, .processing, .remoteNotification, .audio, .location, .voip, .externalAccessory,
        .bluetoothCentral, .bluetoothPeripheral, .newsstandContent, .nearbyInteraction, .pushToTalk,
    ]

    public static func < (lhs: BackgroundMode, rhs: BackgroundMode) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Entitlements the system checks.
public enum Entitlement {
    /// Lets continued-processing tasks use the GPU in the background (iOS 26).
    public static let continuedProcessingGPU = "com.apple.developer.background-tasks.continued-processing.gpu"
    /// `BGHealthResearchTaskRequest` needs it: apps of health research studies only.
    public static let healthResearch = "com.apple.developer.backgroundtasks.healthresearch"
}
