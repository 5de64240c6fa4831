import Testing

@testable import OffstageCore

/// The local notifications on their own: `take` is handed an app's call, a notification shown or tapped, or the
/// time passing, with `now` and whether the app is on screen, and returns what the system carries out.
@Suite struct LocalNotificationsTests {
    let app: BundleID = "com.example.notes"
    let clock = WallClock(epochAtZero: 0)

    func at(_ seconds: Double) -> Instant { Instant(seconds: seconds) }

    /// Hands `input` to the notifications at `seconds`, with the app on screen or not.
    func take(
        _ input: NotificationInput, _ notifications: inout LocalNotifications, at seconds: Double,
        onScreen: Bool = false
    ) -> [NotificationAction] {
        notifications.take(input, now: at(seconds), wallClock: clock) { _ in onScreen }
    }

    func schedule(_ identifier: String, at epoch: Double) -> NotificationInput {
        .schedule(
            LocalNotificationSchedule(identifier: identifier, fireEpochs: [epoch], text: NotificationText(title: "Hi")),
            from: app)
    }

    @Test func aNotificationComesUpAtItsTimeAndATapOpensTheAppWithIt() {
        var notifications = LocalNotifications()
        let added = take(schedule("water", at: 100), &notifications, at: 0)
        #expect(added == [.note(app, .notification, task: "water", .scheduled(identifier: "water", at: at(100)))])
        #expect(notifications.nextDueTime == at(100))
        #expect(take(.timePassed, &notifications, at: 99).isEmpty)
        let due = take(.timePassed, &notifications, at: 100)
        let shown = NotificationFact.delivered(identifier: "water", inForeground: false)
        #expect(due == [.note(app, .notification, task: "water", shown), .wakeDevice])
        #expect(notifications.nextDueTime == nil)
        let tapped = take(.tapped(app, identifier: nil), &notifications, at: 110)
        let text = NotificationText(title: "Hi")
        #expect(
            tapped == [
                .note(app, .user, task: "water", .tapped(identifier: "water")), .open(app),
                .present(app, .didReceive(identifier: "water", text: text)),
            ])
        let again = take(.tapped(app, identifier: nil), &notifications, at: 120)
        #expect(again == [.log(app, "tap: no delivered notification any of the app to tap")])
    }

    @Test func theAppOnScreenIsHandedTheNotificationAndNothingIsKeptForATap() {
        var notifications = LocalNotifications()
        let shown = take(.shown(app, identifier: "server"), &notifications, at: 5, onScreen: true)
        let fact = NotificationFact.delivered(identifier: "server", inForeground: true)
        #expect(
            shown == [
                .note(app, .notification, task: "server", fact), .present(app, .willPresent(identifier: "server")),
            ])
        let tapped = take(.tapped(app, identifier: "server"), &notifications, at: 6)
        #expect(tapped == [.log(app, "tap: no delivered notification \"server\" of the app to tap")])
    }

    @Test func aRequestWithNoValidTimeIsRefusedAndARemovedOneNeverComesUp() {
        var notifications = LocalNotifications()
        let broken = LocalNotificationSchedule(identifier: "broken", fireEpochs: [.nan])
        let refused = take(.schedule(broken, from: app), &notifications, at: 0)
        #expect(refused == [.log(app, "notification \"broken\" has no valid delivery time: not scheduled")])
        _ = take(schedule("a", at: 10), &notifications, at: 0)
        _ = take(schedule("b", at: 20), &notifications, at: 0)
        let removed = take(.removePending(["a"], from: app), &notifications, at: 1)
        #expect(removed == [.note(app, .notification, task: nil, .removed(identifiers: ["a"]))])
        #expect(notifications.nextDueTime == at(20))
        let due = take(.timePassed, &notifications, at: 30)
        #expect(due.first == .note(app, .notification, task: "b", .delivered(identifier: "b", inForeground: false)))
    }
}
