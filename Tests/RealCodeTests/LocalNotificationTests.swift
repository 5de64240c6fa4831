import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// A test app that notes what it sees and, as it finishes launching, sets itself as the notification delegate
/// (as iOS asks: before launching ends) and lets the subclass add its requests.
class NotificationTestApp: SightingsResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        sightings.note("launched at \(Int(Date().timeIntervalSince1970))")
        let center = UNUserNotificationCenter.current()
        center.delegate = self as? any UNUserNotificationCenterDelegate
        center.requestAuthorization(options: [.alert]) { _, _ in }
        addRequests(to: center)
        return true
    }

    /// Adds the app's requests as it launches (none by default).
    func addRequests(to center: UNUserNotificationCenter) {}
}

/// An app that schedules a reminder 60 s after launch (and a request it removes at once), and notes what its
/// notification delegate hears: `willPresent` in the foreground, `didReceive` (completion-handler form) for a tap.
final class ReminderNotifyingApp: NotificationTestApp, UNUserNotificationCenterDelegate {
    nonisolated static let reminder = "reminder"

    override func addRequests(to center: UNUserNotificationCenter) {
        let content = UNMutableNotificationContent()
        content.title = "Stand up"
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 60, repeats: false)
        center.add(UNNotificationRequest(identifier: Self.reminder, content: content, trigger: trigger))
        let soon = UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: false)
        center.add(UNNotificationRequest(identifier: "cancelled", content: content, trigger: soon))
        center.removePendingNotificationRequests(withIdentifiers: ["cancelled"])
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) {
        sightings.note(
            "willPresent \(notification.request.identifier) at \(Int(Date().timeIntervalSince1970)), main: \(Thread.isMainThread)"
        )
        completionHandler([.banner])
    }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) {
        sightings.note(
            "didReceive \(response.notification.request.identifier) \"\(response.notification.request.content.title)\" "
                + "\(response.actionIdentifier == UNNotificationDefaultActionIdentifier ? "default action" : "other"), "
                + "main: \(Thread.isMainThread)")
        completionHandler()
    }
}

/// An app whose delegate implements only the `async` forms, as Swift concurrency code writes it.
final class AsyncNotificationApp: NotificationTestApp, UNUserNotificationCenterDelegate {
    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions
    {
        sightings.note("async willPresent \(notification.request.identifier)")
        return [.list]
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        sightings.note("async didReceive \(response.notification.request.identifier)")
    }
}

/// Local notifications known to the system: they fire in virtual time at their trigger whatever the app's state,
/// show in the records as typed facts, go to `willPresent` in the foreground and, tapped, open or launch the app
/// with `didReceive`. `notification APP` and `tap-notification APP` scenario steps take the same path.
@Suite struct LocalNotificationTests {
    let app = BundleID("com.example.reminder")

    /// A stepping device with the reminder app installed.
    func device(_ sightings: Sightings) throws -> TestDevice {
        let catalog = SwiftAppCatalog(["Reminder": { ReminderNotifyingApp(sightings: sightings) }])
        let device = try TestDevice(catalog: catalog)
        try device.install(
            ScenarioApp(manifest: AppManifest(bundleIdentifier: app, backgroundModes: []), code: "Reminder"))
        return device
    }

    /// The app opened at 0 s and sent home at 10 s, on a new device.
    func deviceWithTheAppSentHome(_ sightings: Sightings) throws -> TestDevice {
        let device = try device(sightings)
        device.open(app)
        device.advance(by: 10)
        device.home()
        return device
    }

    /// The notification facts of the app in `records`.
    func facts(_ records: [Record]) -> [NotificationFact] {
        records.compactMap { record in
            guard record.app == app, case .notification(let fact) = record.detail else { return nil }
            return fact
        }
    }

    @Test func aLocalNotificationFiresAtItsTriggerInVirtualTimeWhileTheAppIsSuspended() throws {
        let sightings = Sightings()
        let device = try deviceWithTheAppSentHome(sightings)
        defer { device.finish() }
        let mark = device.mark()
        device.advance(by: 120)
        #expect(device.state(of: app) == .suspended)
        let delivered = device.records(since: mark, of: app).filter { $0.kind == .notification }
        #expect(delivered.map(\.detail) == [.notification(.delivered(identifier: "reminder", inForeground: false))])
        #expect(delivered.first?.at == Instant(seconds: 60))
        #expect(!sightings.lines.contains { $0.hasPrefix("willPresent") })
    }

    @Test func aNotificationDueInTheForegroundGoesToWillPresentOnTheMainThread() throws {
        let sightings = Sightings()
        let device = try device(sightings)
        defer { device.finish() }
        device.open(app)
        device.advance(by: 120)
        let records = device.finish()
        #expect(facts(records).contains(.delivered(identifier: "reminder", inForeground: true)))
        #expect(sightings.lines.contains { $0.hasPrefix("willPresent reminder at ") && $0.hasSuffix("main: true") })
    }

    @Test func tappingADeliveredNotificationOpensTheAppAndCallsDidReceiveWithIt() throws {
        let sightings = Sightings()
        let device = try deviceWithTheAppSentHome(sightings)
        defer { device.finish() }
        device.advance(by: 100)
        device.tapNotification(app)
        device.runUntilIdle()
        #expect(device.state(of: app) == .active)
        #expect(sightings.lines.contains("didReceive reminder \"Stand up\" default action, main: true"))
        #expect(facts(device.finish()).contains(.tapped(identifier: "reminder")))
    }

    @Test func tappingANotificationOfAnAppThatIsNotRunningLaunchesItThenCallsDidReceive() throws {
        let sightings = Sightings()
        let device = try device(sightings)
        defer { device.finish() }
        device.open(app)
        device.advance(by: 10)
        device.forceQuit(app)  // the system keeps delivering the app's local notifications
        device.advance(by: 100)
        #expect(device.state(of: app) == .notRunning)
        device.tapNotification(app, identifier: ReminderNotifyingApp.reminder)
        device.runUntilIdle()
        #expect(device.state(of: app) == .active)
        let lines = sightings.lines
        let relaunch = try #require(lines.lastIndex { $0.hasPrefix("launched at") })
        let received = try #require(lines.firstIndex { $0.hasPrefix("didReceive reminder") })
        #expect(relaunch < received)  // the delegate was set while launching, then heard of the tap
        #expect(lines[received] == "didReceive reminder \"Stand up\" default action, main: true")
    }

    @Test func aTapWithNoDeliveredNotificationOpensNothing() throws {
        let sightings = Sightings()
        let device = try device(sightings)
        defer { device.finish() }
        device.open(app)
        device.home()
        device.tapNotification(app, identifier: "never-added")
        device.runUntilIdle()
        #expect(device.state(of: app) == .suspended)
        #expect(!sightings.lines.contains { $0.hasPrefix("didReceive") })
    }

    @Test func aRemovedPendingNotificationIsNeverDelivered() throws {
        let device = try deviceWithTheAppSentHome(Sightings())
        device.advance(by: 100)
        let facts = facts(device.finish())
        #expect(facts.contains(.scheduled(identifier: "cancelled", at: Instant(seconds: 30))))
        #expect(facts.contains(.removed(identifiers: ["cancelled"])))
        #expect(
            facts.filter { if case .delivered = $0 { true } else { false } } == [
                .delivered(identifier: "reminder", inForeground: false)
            ])
    }

    @Test func notificationAndTapStepsOfAScenarioReachTheAsyncDelegateForms() throws {
        let sightings = Sightings()
        let asyncApp = BundleID("com.example.asyncnotify")
        let records = try RealCodeRun(
            apps: [
                (
                    AppManifest(bundleIdentifier: asyncApp, backgroundModes: []),
                    { @Sendable in AsyncNotificationApp(sightings: sightings) }
                )
            ],
            timeline: [
                at(1, .open(asyncApp)), at(5, .notificationShown(asyncApp)), at(10, .home),
                at(20, .notificationShown(asyncApp)), at(30, .notificationTapped(asyncApp, identifier: nil)),
            ],
            duration: 60
        ).run()
        #expect(
            sightings.lines.filter { !$0.hasPrefix("launched") } == [
                "async willPresent \(BackgroundSystem.scenarioNotificationIdentifier)",
                "async didReceive \(BackgroundSystem.scenarioNotificationIdentifier)",
            ])
        let kinds = records.filter { $0.app == asyncApp && $0.kind == .notification }.map(\.detail)
        #expect(
            kinds == [
                .notification(
                    .delivered(identifier: BackgroundSystem.scenarioNotificationIdentifier, inForeground: true)),
                .notification(
                    .delivered(identifier: BackgroundSystem.scenarioNotificationIdentifier, inForeground: false)),
            ])
    }

    @Test func theTapNotificationCommandNamesTheAppAndOptionallyTheIdentifier() throws {
        let device = DeviceState()
        #expect(
            try UserCommand.parse("tap-notification com.x", device: device)
                == .system(.notificationTapped(BundleID("com.x"), identifier: nil)))
        #expect(
            try UserCommand.parse("tap-notification com.x soon", device: device)
                == .system(.notificationTapped(BundleID("com.x"), identifier: "soon")))
        #expect(throws: UserCommandError.self) { try UserCommand.parse("tap-notification", device: device) }
    }
}

/// An app that registers a category with actions (NetNewsWire's pattern), reads it back, attaches files to a
/// notification's content (one that exists and one that does not), and makes a mutable copy of a request's content
/// (Home Assistant's snooze pattern).
final class CategoriesApp: NotificationTestApp {
    override func addRequests(to center: UNUserNotificationCenter) {
        let read = UNNotificationAction(identifier: "MARK_AS_READ", title: "Mark as Read", options: [])
        let open = UNNotificationAction(identifier: "OPEN_ARTICLE", title: "Open", options: [.foreground])
        center.setNotificationCategories([
            UNNotificationCategory(
                identifier: "NEW_ARTICLE", actions: [open, read], intentIdentifiers: [],
                hiddenPreviewsBodyPlaceholder: "", options: [])
        ])
        let sightings = sightings
        center.getNotificationCategories { categories in
            let actions = categories.flatMap { $0.actions.map(\.identifier) }.sorted()
            sightings.note("categories \(categories.map(\.identifier)) actions \(actions)")
        }
        let missing = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("no-such-icon.png")
        do {
            _ = try UNNotificationAttachment(identifier: "icon", url: missing)
        } catch {
            sightings.note("missing file refused: \((error as? UNError)?.code == .attachmentInvalidURL)")
        }
        let icon = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("offstage-icon.png")
        guard FileManager.default.createFile(atPath: icon.path, contents: Data([1, 2, 3])) else {
            sightings.note("cannot write \(icon.path)")
            return
        }
        let content = UNMutableNotificationContent()
        content.title = "New article"
        content.categoryIdentifier = "NEW_ARTICLE"
        if let attachment = try? UNNotificationAttachment(identifier: "icon", url: icon) {
            content.attachments.append(attachment)
        }
        let request = UNNotificationRequest(identifier: "article", content: content, trigger: nil)
        sightings.note("request attachments \(request.content.attachments.map(\.type))")
        let again = request.content.mutableCopy() as? UNMutableNotificationContent
        again?.title = "Snoozed: " + (again?.title ?? "")
        sightings.note("mutable copy \(again?.title ?? "none"), original \(request.content.title)")
    }
}

@Suite struct NotificationCategoryTests {
    @Test func categoriesAndActionsAreKeptAndAnAttachmentNeedsAnExistingFile() throws {
        let sightings = Sightings()
        let app = "com.example.articles"
        let run = RealCodeRun(
            apps: [(manifest(app, identifiers: []), { @Sendable in CategoriesApp(sightings: sightings) })],
            timeline: [at(1, .open(BundleID(app)))], duration: 10)
        _ = try run.run()
        #expect(sightings.lines.contains("missing file refused: true"))
        #expect(sightings.lines.contains("request attachments [\"png\"]"))
        #expect(sightings.lines.contains("mutable copy Snoozed: New article, original New article"))
        #expect(sightings.lines.contains("categories [\"NEW_ARTICLE\"] actions [\"MARK_AS_READ\", \"OPEN_ARTICLE\"]"))
    }
}
