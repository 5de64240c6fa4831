import Foundation
import UIKit
import UserNotifications

// Stand-ins for the rest of DuckDuckGo's Waitlist package (its storage and network request, in memory and with a
// one-second simulated server), a concrete waitlist as the app declares one, and an app delegate that drives it
// as the app does: register at launch, schedule on leaving the screen, ask for notification authorization.

/// Stands in for the package's `WaitlistStorage`: the user's token, timestamp and invite code.
public protocol WaitlistStorage {
    func getWaitlistToken() -> String?
    func getWaitlistTimestamp() -> Int?
    func getWaitlistInviteCode() -> String?
    func store(inviteCode: String)
}

extension WaitlistStorage {
    /// On the waitlist: a token and a timestamp, and no invite code yet (as the package defines it).
    var isOnWaitlist: Bool {
        getWaitlistToken() != nil && getWaitlistTimestamp() != nil && getWaitlistInviteCode() == nil
    }
}

/// Stands in for the package's response types.
public enum WaitlistResponse {
    public struct Status { public let timestamp: Int }
    public struct InviteCode { public let code: String }
    public enum StatusError: Error { case noData }
    public enum InviteCodeError: Error { case noCode }
}

/// Stands in for the package's `WaitlistRequest`, the two calls the background refresh makes.
public protocol WaitlistRequest {
    func getWaitlistStatus(
        completionHandler: @escaping (Result<WaitlistResponse.Status, WaitlistResponse.StatusError>) -> Void)
    func getInviteCode(
        token: String,
        completionHandler: @escaping (Result<WaitlistResponse.InviteCode, WaitlistResponse.InviteCodeError>) -> Void)
}

/// A user on the waitlist, kept in memory.
final class InMemoryWaitlistStorage: WaitlistStorage {
    private var inviteCode: String?
    func getWaitlistToken() -> String? { "token" }
    func getWaitlistTimestamp() -> Int? { 1 }
    func getWaitlistInviteCode() -> String? { inviteCode }
    func store(inviteCode: String) { self.inviteCode = inviteCode }
}

/// A server that answers after a second: the waitlist has moved past the user, and an invite code is ready.
struct SimulatedWaitlistRequest: WaitlistRequest {
    func getWaitlistStatus(
        completionHandler: @escaping (Result<WaitlistResponse.Status, WaitlistResponse.StatusError>) -> Void
    ) {
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { completionHandler(.success(.init(timestamp: 2))) }
    }
    func getInviteCode(
        token: String,
        completionHandler: @escaping (Result<WaitlistResponse.InviteCode, WaitlistResponse.InviteCodeError>) -> Void
    ) {
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { completionHandler(.success(.init(code: "INVITE"))) }
    }
}

/// A waitlist as the app declares one (the Windows browser's, in DuckDuckGo).
struct WindowsBrowserWaitlist: Waitlist {
    static let shared = WindowsBrowserWaitlist(store: InMemoryWaitlistStorage(), request: SimulatedWaitlistRequest())
    static let identifier = "windows"
    static let apiProductName = "windowsbrowser"
    static let downloadURL = URL(string: "https://duckduckgo.com/windows")!
    static let backgroundTaskName = "Windows Browser Waitlist Status Task"
    static let backgroundRefreshTaskIdentifier = "com.duckduckgo.app.windowsBrowserWaitlistStatus"
    static let notificationIdentifier = "com.duckduckgo.ios.windows-browser.invite-code-available"
    static let inviteAvailableNotificationTitle = "You're invited!"
    static let inviteAvailableNotificationBody = "Open your invite"

    let waitlistStorage: WaitlistStorage
    let waitlistRequest: WaitlistRequest
    var isAvailable: Bool { true }
    var isWaitlistRemoved: Bool { false }
    var settingsSubtitle: String { "" }
    var onBackgroundTaskSubmissionError: ((Error) -> Void)? { { print("Waitlist trial: submit failed: \($0)") } }

    init(store: WaitlistStorage, request: WaitlistRequest) {
        waitlistStorage = store
        waitlistRequest = request
    }
}

/// Drives the waitlist as DuckDuckGo's app delegate does.
final class WaitlistAppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        WindowsBrowserWaitlist.shared.registerBackgroundRefreshTaskHandler()
        Task {
            let service: NotificationService = UNUserNotificationCenter.current()
            if await service.authorizationStatus() == .notDetermined {
                _ = try? await service.requestAuthorization(options: [.alert, .sound])
            }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        WindowsBrowserWaitlist.shared.scheduleBackgroundRefreshTask()
    }
}
