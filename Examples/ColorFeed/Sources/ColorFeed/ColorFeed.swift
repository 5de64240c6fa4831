// What a host needs to run ColorFeed: its manifest and a way to make its delegate; plus the
// one control the simulated user taps (the export dialog's confirm button).
import OffstageKit

/// ColorFeed as a host sees it.
public enum ColorFeed {
    /// ColorFeed's bundle identifier.
    public static let bundleIdentifier = "com.colorfeed.wwdc25"

    /// Makes the app's delegate for a new launch.
    public static func makeDelegate() -> any UIApplicationDelegate { AppDelegate() }

    /// Makes the delegate of the 2019 sample's OperationQueue style (same identifiers, same Info.plist).
    public static func makeOperationsDelegate() -> any UIApplicationDelegate { OperationsAppDelegate() }

    /// ColorFeed's Info.plist (XML), as a real iOS project ships it.
    public static var infoPlist: [UInt8] { PackageResources.ColorFeed_Info_plist }
}

extension AppDelegate: OffstageUserActions {
    /// "export": the user confirms the export dialog, which registers and submits the continued task.
    public func performUserAction(_ action: String) {
        guard action == "export" else { return }
        handleDialogConfirmation()
        submitContinuedProcessingTaskRequest()
    }
}
