public import Foundation

/// `UNNotificationContent`: what a notification shows.
open class UNNotificationContent: NSObject, @unchecked Sendable {
    public internal(set) var title = ""
    public internal(set) var subtitle = ""
    public internal(set) var body = ""
    public internal(set) var badge: NSNumber?
    public internal(set) var sound: UNNotificationSound?
    public internal(set) var userInfo: [AnyHashable: Any] = [:]
    public internal(set) var categoryIdentifier = ""
    public internal(set) var threadIdentifier = ""
    public internal(set) var attachments: [UNNotificationAttachment] = []

    public override init() { super.init() }

    /// This content's values written into `copy`, which is returned.
    func copied<Content: UNNotificationContent>(into copy: Content) -> Content {
        copy.title = title
        copy.subtitle = subtitle
        copy.body = body
        copy.badge = badge
        copy.sound = sound
        copy.userInfo = userInfo
        copy.categoryIdentifier = categoryIdentifier
        copy.threadIdentifier = threadIdentifier
        copy.attachments = attachments
        return copy
    }
}

/// `copy()` gives an immutable content and `mutableCopy()` a `UNMutableNotificationContent`, as on iOS (apps copy a
/// delivered notification's content to schedule it again; Foundation's `NSObject.mutableCopy()` traps without it).
extension UNNotificationContent: NSCopying, NSMutableCopying {
    public func copy(with zone: NSZone? = nil) -> Any { copied(into: UNNotificationContent()) }
    public func mutableCopy(with zone: NSZone? = nil) -> Any { copied(into: UNMutableNotificationContent()) }
}

/// `UNMutableNotificationContent`: the content an app fills in for a local notification.
public final class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    public override var title: String {
        get { super.title }
        set { super.title = newValue }
    }
    public override var subtitle: String {
        get { super.subtitle }
        set { super.subtitle = newValue }
    }
    public override var body: String {
        get { super.body }
        set { super.body = newValue }
    }
    public override var badge: NSNumber? {
        get { super.badge }
        set { super.badge = newValue }
    }
    public override var sound: UNNotificationSound? {
        get { super.sound }
        set { super.sound = newValue }
    }
    public override var userInfo: [AnyHashable: Any] {
        get { super.userInfo }
        set { super.userInfo = newValue }
    }
    public override var categoryIdentifier: String {
        get { super.categoryIdentifier }
        set { super.categoryIdentifier = newValue }
    }
    public override var threadIdentifier: String {
        get { super.threadIdentifier }
        set { super.threadIdentifier = newValue }
    }
    public override var attachments: [UNNotificationAttachment] {
        get { super.attachments }
        set { super.attachments = newValue }
    }
}

/// `UNNotificationSound`: kept by name (nothing plays here).
public final class UNNotificationSound: NSObject, @unchecked Sendable {
    let name: String?
    init(name: String?) { self.name = name }

    public static let `default` = UNNotificationSound(name: nil)
    public static let defaultCritical = UNNotificationSound(name: "critical")

    public convenience init(named name: UNNotificationSoundName) { self.init(name: name.rawValue) }
}

/// `UNNotificationSoundName`.
public struct UNNotificationSoundName: RawRepresentable, Hashable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// `UNNotificationTrigger`: when a notification is delivered.
open class UNNotificationTrigger: NSObject, @unchecked Sendable {
    public let repeats: Bool
    init(repeats: Bool) { self.repeats = repeats }

    /// The first delivery after `date`, or nil when the trigger never fires again (the one the center uses).
    func nextDelivery(after date: Date, addedAt added: Date) -> Date? { nil }
}

/// `UNTimeIntervalNotificationTrigger`: delivers `timeInterval` seconds after the request is added, and again
/// every `timeInterval` seconds if it repeats (at least 60 s then, as iOS requires).
public final class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    public let timeInterval: TimeInterval
    /// When the request was added, for `nextTriggerDate()`; set by the center.
    let added = LockedValue<Date?>(nil)

    public init(timeInterval: TimeInterval, repeats: Bool) {
        self.timeInterval = timeInterval
        super.init(repeats: repeats)
    }

    /// The next delivery, counted from when the request was added (nil before it is).
    public func nextTriggerDate() -> Date? {
        added.value.flatMap { nextDelivery(after: Date(), addedAt: $0) }
    }

    override func nextDelivery(after date: Date, addedAt added: Date) -> Date? {
        let first = added.addingTimeInterval(timeInterval)
        guard repeats, first <= date else { return first > date ? first : nil }
        let periods = ((date.timeIntervalSince(first)) / timeInterval).rounded(.down) + 1
        return first.addingTimeInterval(periods * timeInterval)
    }
}

/// `UNCalendarNotificationTrigger`: delivers when the date matches the components (every time, if it repeats).
public final class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    public let dateComponents: DateComponents

    public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
        self.dateComponents = dateComponents
        super.init(repeats: repeats)
    }

    /// The next date that matches the components.
    public func nextTriggerDate() -> Date? { nextDelivery(after: Date(), addedAt: Date()) }

    override func nextDelivery(after date: Date, addedAt added: Date) -> Date? {
        let calendar = dateComponents.calendar ?? Calendar.current
        return calendar.nextDate(after: date, matching: dateComponents, matchingPolicy: .nextTime)
    }
}

/// `UNNotificationRequest`: a notification to deliver, by identifier (adding one with the same identifier
/// replaces it).
public final class UNNotificationRequest: NSObject, @unchecked Sendable {
    public let identifier: String
    public let content: UNNotificationContent
    public let trigger: UNNotificationTrigger?

    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        // The content is copied as the request is made, as `UNNotificationRequest` copies it.
        self.content = content.copied(into: UNNotificationContent())
        self.trigger = trigger
    }
}

/// `UNNotification`: a delivered notification: its request and when it was delivered.
public final class UNNotification: NSObject, @unchecked Sendable {
    public let request: UNNotificationRequest
    public let date: Date

    init(request: UNNotificationRequest, date: Date) {
        self.request = request
        self.date = date
    }
}

/// `UNNotificationResponse`: the user acted on a notification (tapped it: the default action).
public final class UNNotificationResponse: NSObject, @unchecked Sendable {
    public let notification: UNNotification
    public let actionIdentifier: String

    init(notification: UNNotification, actionIdentifier: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
    }
}

/// The action identifier of a tap on the notification itself.
public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
/// The action identifier of a dismissal (for categories with `.customDismissAction`).
public let UNNotificationDismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"
