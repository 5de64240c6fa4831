public import Foundation
import OffstageCore

/// `UIBackgroundFetchResult`, with iOS's raw values: what a push or fetch handler reports to its completion handler.
public enum UIBackgroundFetchResult: UInt, Sendable {
    case newData = 0
    case noData = 1
    case failed = 2
}

extension UIApplication {
    /// The smallest fetch interval the system supports (0, as on iOS); the system applies its own minimum.
    public nonisolated static let backgroundFetchIntervalMinimum: TimeInterval = 0
    /// An interval so large that no fetch happens: iOS's default (`Double.greatestFiniteMagnitude`).
    public nonisolated static let backgroundFetchIntervalNever: TimeInterval = .greatestFiniteMagnitude

    /// Asks for legacy background fetches at most this often (deprecated in iOS 13 for `BGAppRefreshTask`).
    /// Needs the `fetch` mode; has no effect when the Info.plist has `BGTaskSchedulerPermittedIdentifiers`.
    public func setMinimumBackgroundFetchInterval(_ minimumBackgroundFetchInterval: TimeInterval) {
        requestMinimumBackgroundFetchInterval(minimumBackgroundFetchInterval)
    }

    /// `setMinimumBackgroundFetchInterval(_:)` from any thread: for the simulator's declarative apps, whose
    /// actions run wherever their callback runs (an app's own code calls the main-actor method, as on iOS).
    package nonisolated func requestMinimumBackgroundFetchInterval(_ minimumBackgroundFetchInterval: TimeInterval) {
        let never = minimumBackgroundFetchInterval >= UIApplication.backgroundFetchIntervalNever
        runtime.send(.setMinimumBackgroundFetchInterval(never ? nil : max(0, minimumBackgroundFetchInterval)))
    }
}

extension UIApplicationDelegate {
    /// Default: calls the `async` form (`application(_:didReceiveRemoteNotification:) async`), whose answer goes to
    /// the completion handler, as iOS calls whichever form the delegate implements.
    public func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        // Unchecked: `userInfo` is not `Sendable` (UIKit's type); it goes to the main-actor task alone.
        nonisolated(unsafe) let userInfo = userInfo
        answerAsynchronously(completionHandler) {
            await self.application(application, didReceiveRemoteNotification: userInfo)
        }
    }

    /// Default: reports `.noData` at once (see the push default for why it answers).
    public func application(
        _ application: UIApplication,
        performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) { completionHandler(.noData) }
}

/// The work of a continuous background mode that has no small Apple type here: audio playing, a VoIP call,
/// an external accessory or Bluetooth session in use. Not an Apple API: on iOS the frameworks tell the system
/// (`AVAudioSession`, CallKit, `EAAccessory`…); here the app says when the work starts and ends.
/// While the work lasts (and the mode is in `UIBackgroundModes`) the app keeps running in the background.
/// For location, use `CLLocationManager` with `allowsBackgroundLocationUpdates`.
public enum OffstageBackgroundActivity: String, Sendable, CaseIterable {
    case audio
    case voip
    case externalAccessory = "external-accessory"
    case bluetoothCentral = "bluetooth-central"
    case bluetoothPeripheral = "bluetooth-peripheral"
    case nearbyInteraction = "nearby-interaction"
    case pushToTalk = "push-to-talk"

    /// The work starts (audio starts playing, a call connects…).
    public func begin() { AppRuntime.current.send(.setBackgroundActivity(mode, active: true)) }

    /// The work ends: with nothing else to do in the background, the app is suspended.
    public func end() { AppRuntime.current.send(.setBackgroundActivity(mode, active: false)) }

    var mode: BackgroundMode { BackgroundMode(rawValue: rawValue) }
}
