public import Foundation
import OffstageCore

/// `UNUserNotificationCenter`: the app's local notifications: authorization, the requests waiting for their
/// trigger (the system holds their times and delivers them, virtual time in the simulator), and the delegate:
/// `willPresent` for one that comes due in the foreground, `didReceive` when the user taps one.
public final class UNUserNotificationCenter: Sendable {
    /// A request waiting for its trigger: when it was added and when it is next delivered.
    private struct Entry {
        var request: UNNotificationRequest
        var added: Date
        var next: Date
    }

    /// Authorization, requests waiting and notifications delivered (newest last).
    private struct State {
        var status = UNAuthorizationStatus.notDetermined
        var options: UNAuthorizationOptions = []
        var waiting: [Entry] = []
        var delivered: [UNNotification] = []
    }

    private let state = LockedValue(State())
    private unowned let runtime: AppRuntime
    private let delegateStorage = LockedValue<WeakDelegate>(WeakDelegate())
    /// The categories the app registered (`setNotificationCategories`).
    let categoryStorage = LockedValue<Set<UNNotificationCategory>>([])
    /// The delegate, held weakly as UIKit holds it.
    private struct WeakDelegate { weak var object: (any UNUserNotificationCenterDelegate)? }

    init(runtime: AppRuntime) { self.runtime = runtime }

    /// The center of the app whose code is running.
    public class func current() -> UNUserNotificationCenter { AppRuntime.current.notificationCenter }

    /// Hears of notifications delivered in the foreground and of the user's taps.
    public var delegate: (any UNUserNotificationCenterDelegate)? {
        get { delegateStorage.value.object }
        set {
            delegateStorage.value = WeakDelegate(object: newValue)
            if let newValue { answerWaitingResponse(to: newValue) }
        }
    }
    /// A tap the system delivered before the app set its delegate (a tap that launched the app).
    private let waitingResponse = LockedValue<UNNotificationResponse?>(nil)

    // MARK: Authorization

    /// Asks the user to allow notifications; the simulated user allows them (Offstage's choice: there is no
    /// prompt). The completion handler runs on a background queue, as on iOS.
    public func requestAuthorization(
        options: UNAuthorizationOptions = [], completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let granted = authorize(options)
        onBackgroundQueue { completionHandler(granted, nil) }
    }

    public func requestAuthorization(options: UNAuthorizationOptions = []) async throws -> Bool { authorize(options) }

    private func authorize(_ options: UNAuthorizationOptions) -> Bool {
        state.withValue {
            $0.status = .authorized
            $0.options.formUnion(options)
        }
        return true
    }

    public func getNotificationSettings(completionHandler: @escaping @Sendable (UNNotificationSettings) -> Void) {
        let settings = notificationSettingsNow()
        onBackgroundQueue { completionHandler(settings) }
    }

    public func notificationSettings() async -> UNNotificationSettings { notificationSettingsNow() }

    private func notificationSettingsNow() -> UNNotificationSettings {
        let (status, options) = state.withValue { ($0.status, $0.options) }
        return UNNotificationSettings(authorizationStatus: status, options: options)
    }

    /// Calls a completion handler on a background queue, as the center does on iOS. The handlers are `@Sendable`,
    /// as in Apple's SDK: a closure written in a main-actor delegate is then not main-actor code, which would
    /// trap when run off the main thread.
    private func onBackgroundQueue(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async { work() }
    }

    /// Sets the number on the app's icon (`UIApplication.applicationIconBadgeNumber` reads it back).
    public func setBadgeCount(
        _ newBadgeCount: Int, withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        runtime.application.setBadge(newBadgeCount)
        if let completionHandler { onBackgroundQueue { completionHandler(nil) } }
    }

    public func setBadgeCount(_ newBadgeCount: Int) async throws {
        runtime.application.setBadge(newBadgeCount)
    }

    // MARK: Requests

    /// Schedules a request (replacing one with the same identifier). A time interval of 0 or less, or under 60 s
    /// for a repeating trigger, is refused with `UNError.notificationInvalidNoDate` (iOS raises an exception).
    public func add(
        _ request: UNNotificationRequest,
        withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        let error = schedule(request)
        if let completionHandler { onBackgroundQueue { completionHandler(error) } }
    }

    public func add(_ request: UNNotificationRequest) async throws {
        if let error = schedule(request) { throw error }
    }

    public func getPendingNotificationRequests(
        completionHandler: @escaping @Sendable ([UNNotificationRequest]) -> Void
    ) {
        let pending = pendingNow()
        onBackgroundQueue { completionHandler(pending) }
    }

    public func pendingNotificationRequests() async -> [UNNotificationRequest] { pendingNow() }

    public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        state.withValue { $0.waiting.removeAll { identifiers.contains($0.request.identifier) } }
        runtime.send(.removePendingNotifications(identifiers: identifiers))
    }

    public func removeAllPendingNotificationRequests() {
        state.withValue { $0.waiting.removeAll() }
        runtime.send(.removePendingNotifications(identifiers: nil))
    }

    public func getDeliveredNotifications(completionHandler: @escaping @Sendable ([UNNotification]) -> Void) {
        let delivered = deliveredNow()
        onBackgroundQueue { completionHandler(delivered) }
    }

    public func deliveredNotifications() async -> [UNNotification] { deliveredNow() }

    public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        state.withValue { $0.delivered.removeAll { identifiers.contains($0.request.identifier) } }
    }

    public func removeAllDeliveredNotifications() { state.withValue { $0.delivered.removeAll() } }

    private func pendingNow() -> [UNNotificationRequest] {
        deliverDue()
        return state.value.waiting.map(\.request)
    }

    private func deliveredNow() -> [UNNotification] {
        deliverDue()
        return state.value.delivered
    }

    // MARK: Delivery

    /// Keeps the request and hands its delivery times to the system, which delivers it in its own time
    /// (virtual in the simulator) whatever the app's state; nil, or why it is refused. Without authorization
    /// the request is kept but never delivered, as on iOS.
    private func schedule(_ request: UNNotificationRequest) -> (any Error)? {
        let now = Date()
        if let interval = request.trigger as? UNTimeIntervalNotificationTrigger {
            guard interval.timeInterval > 0, !interval.repeats || interval.timeInterval >= 60 else {
                return UNError(.notificationInvalidNoDate)
            }
            interval.added.value = now
        }
        let next: Date? = request.trigger.map { $0.nextDelivery(after: now, addedAt: now) } ?? now
        guard let next else { return UNError(.notificationInvalidNoDate) }
        let authorized = state.withValue {
            $0.waiting.removeAll { $0.request.identifier == request.identifier }
            $0.waiting.append(Entry(request: request, added: now, next: next))
            return $0.status == .authorized
        }
        if authorized {
            runtime.send(.scheduleNotification(systemSchedule(of: request, first: next, addedAt: now)))
        }
        return nil
    }

    /// The request's delivery times on the system's clock: the first; for a repeating calendar trigger the next
    /// ones the system keeps ahead; for a repeating time interval, its period.
    private func systemSchedule(of request: UNNotificationRequest, first: Date, addedAt added: Date)
        -> LocalNotificationSchedule
    {
        var dates = [first]
        if let calendar = request.trigger as? UNCalendarNotificationTrigger, calendar.repeats {
            while dates.count < Self.calendarDeliveriesAhead,
                let later = calendar.nextDelivery(after: dates[dates.count - 1], addedAt: added)
            {
                dates.append(later)
            }
        }
        let interval = request.trigger as? UNTimeIntervalNotificationTrigger
        return LocalNotificationSchedule(
            identifier: request.identifier, fireEpochs: dates.map { runtime.link.systemEpoch(forAppDate: $0) },
            repeatEvery: interval?.repeats == true ? interval?.timeInterval : nil,
            text: NotificationText(
                title: request.content.title, subtitle: request.content.subtitle, body: request.content.body))
    }

    /// How many deliveries of a repeating calendar trigger are handed to the system at once (as many as iOS keeps
    /// pending requests); later ones are lost, a limit of ours.
    private static let calendarDeliveriesAhead = 64

    /// Moves the requests whose time has come to the delivered list (a repeating one stays, with its next date)
    /// and returns the notifications delivered now: the app's own account, for its lists.
    @discardableResult
    private func deliverDue() -> [UNNotification] {
        let now = Date()
        return state.withValue { state in
            var due: [UNNotification] = []
            state.waiting = state.waiting.compactMap { entry in
                guard entry.next <= now else { return entry }
                due.append(UNNotification(request: entry.request, date: entry.next))
                guard entry.request.trigger?.repeats == true,
                    let next = entry.request.trigger?.nextDelivery(after: now, addedAt: entry.added)
                else { return nil }
                return Entry(request: entry.request, added: entry.added, next: next)
            }
            guard state.status == .authorized else { return [] }
            state.delivered += due
            return due
        }
    }

    /// The system delivered a notification while the app is in the foreground (`willPresent`), or the user tapped
    /// one (`didReceive`): the delegate hears of it on the main queue. A tap that launched the app waits for the
    /// delegate, which the app sets before it finishes launching.
    func present(_ presentation: NotificationPresentation) {
        deliverDue()
        switch presentation {
        case .willPresent(let identifier):
            guard let delegate else { return }
            let shown = notification(identifier, text: NotificationText())
            MainActor.assumeIsolated { delegate.userNotificationCenter(self, willPresent: shown) { _ in } }
        case .didReceive(let identifier, let text):
            let response = UNNotificationResponse(
                notification: notification(identifier, text: text),
                actionIdentifier: UNNotificationDefaultActionIdentifier)
            guard let delegate else {
                waitingResponse.value = response
                return
            }
            MainActor.assumeIsolated { delegate.userNotificationCenter(self, didReceive: response) {} }
        }
    }

    /// The app's notification with this identifier, newest delivered first; one this process did not add (added
    /// before a relaunch, a server's alert, a scenario's `notification APP`) has the `text` the system kept.
    private func notification(_ identifier: String, text: NotificationText) -> UNNotification {
        let known = state.withValue { state in
            state.delivered.last { $0.request.identifier == identifier }
                ?? state.waiting.first { $0.request.identifier == identifier }
                .map { UNNotification(request: $0.request, date: Date()) }
        }
        if let known { return known }
        let content = UNNotificationContent()
        (content.title, content.subtitle, content.body) = (text.title, text.subtitle, text.body)
        return UNNotification(
            request: UNNotificationRequest(identifier: identifier, content: content, trigger: nil), date: Date())
    }

    /// Hands a tap that came before the delegate was set to the delegate, after the code that set it returns.
    private func answerWaitingResponse(to delegate: any UNUserNotificationCenterDelegate) {
        guard
            let response = waitingResponse.withValue({ held in
                defer { held = nil }
                return held
            })
        else { return }
        // Unchecked: the delegate protocol is not `Sendable` (as Apple's); it is only called on the main queue.
        nonisolated(unsafe) let mainQueueDelegate = delegate
        DispatchQueue.main.async {
            MainActor.assumeIsolated { mainQueueDelegate.userNotificationCenter(self, didReceive: response) {} }
        }
    }
}

/// `UNUserNotificationCenterDelegate`: hears of notifications in the foreground and of the user's responses.
/// Each method has a completion-handler form and an `async` form; implement either, as on iOS. Main-actor
/// isolated, so the main-actor app delegate that usually adopts it conforms (Apple's Objective-C protocol is
/// imported as pre-concurrency, which allows the same); the system calls it on the main queue.
@preconcurrency @MainActor public protocol UNUserNotificationCenterDelegate: AnyObject {
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void)
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void)
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async
}

extension UNUserNotificationCenterDelegate {
    /// Default: calls the `async` form, whose answer goes to the completion handler.
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        answerAsynchronously(completionHandler) { await self.userNotificationCenter(center, willPresent: notification) }
    }

    /// Default: the notification is not presented in the foreground, as on iOS without the method.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification)
        async -> UNNotificationPresentationOptions
    { [] }

    /// Default: calls the `async` form, then the completion handler.
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        answerAsynchronously(completionHandler) { await self.userNotificationCenter(center, didReceive: response) }
    }

    /// Default: nothing.
    public func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse)
        async
    {}
}

/// `UNAuthorizationOptions`, with iOS's raw values.
public struct UNAuthorizationOptions: OptionSet, Sendable {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
    public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
    public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
    public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
    public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
}

/// `UNAuthorizationStatus`, with iOS's raw values.
public enum UNAuthorizationStatus: Int, Sendable {
    case notDetermined = 0
    case denied = 1
    case authorized = 2
    case provisional = 3
    case ephemeral = 4
}

/// `UNNotificationSettings`, reduced to the authorization and what it allows.
public final class UNNotificationSettings: NSObject, @unchecked Sendable {
    public let authorizationStatus: UNAuthorizationStatus
    let options: UNAuthorizationOptions

    init(authorizationStatus: UNAuthorizationStatus, options: UNAuthorizationOptions) {
        self.authorizationStatus = authorizationStatus
        self.options = options
    }
}

/// `UNNotificationPresentationOptions`, with iOS's raw values.
public struct UNNotificationPresentationOptions: OptionSet, Sendable {
    public var rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
    public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
    public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)
    public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
    public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)
}

/// `UNError`: why the center refused a request.
public struct UNError: Error, Equatable, Sendable {
    /// `UNError.Code`, with iOS's raw values.
    public enum Code: Int, Sendable {
        case notificationsNotAllowed = 1
        case attachmentInvalidURL = 100
        case notificationInvalidNoDate = 1400
        case notificationInvalidNoContent = 1401
    }

    public let code: Code
    public init(_ code: Code) { self.code = code }

    public static let notificationsNotAllowed = Code.notificationsNotAllowed
    public static let attachmentInvalidURL = Code.attachmentInvalidURL
    public static let notificationInvalidNoDate = Code.notificationInvalidNoDate
}
