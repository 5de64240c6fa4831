/// Local notifications (`UNUserNotificationCenter`): the system holds each app's scheduled requests and delivers
/// them at their time whatever the app's state; in the foreground the app's delegate gets `willPresent`, else the
/// system shows it, and a tap opens (or launches) the app with `didReceive`. `notification APP` steps and usage
/// traces' notification rows are deliveries too.
extension BackgroundSystem {
    /// Answers the app's `UNUserNotificationCenter` calls: `add(_:)` keeps the request for its first valid time, or
    /// refuses (and logs) it when it has none; `removePendingNotificationRequests` drops the ones named, or all.
    mutating func answerNotifications(_ call: AppCall, from id: BundleID) -> AppCallResult {
        switch call {
        case .scheduleNotification(let schedule):
            guard let fact = localNotifications.add(schedule, of: id, at: now, on: wallClock) else {
                record(
                    id, .log,
                    reason: "notification \"\(schedule.identifier)\" has no valid delivery time: not scheduled")
                return .ok
            }
            record(id, .notification, task: schedule.identifier, .notification(fact))
        case .removePendingNotifications(let identifiers):
            let removed = localNotifications.removePending(identifiers, of: id)
            record(id, .notification, .notification(removed))
        default: preconditionFailure("not a notification call: \(call)")
        }
        return .ok
    }

    /// Delivers every notification whose time has come (after every entry point, before the review).
    mutating func deliverDueNotifications() {
        for (app, shown) in localNotifications.takeDue(by: now) {
            precondition(apps.contains(app), "a local notification of \(app), which is not installed")  // added by its calls
            deliverNotification(app, shown)
        }
    }

    /// A notification of the app comes up: the app in the foreground gets `willPresent`; otherwise the system
    /// shows it (in Notification Center, for a tap), which wakes a sleeping device and tells the launch model.
    mutating func deliverNotification(_ id: BundleID, _ shown: LocalNotifications.Shown) {
        let identifier = shown.identifier
        let inForeground = foregroundApp == id && apps[id].state.hasProcess
        record(
            id, .notification, task: identifier,
            .notification(.delivered(identifier: identifier, inForeground: inForeground)))
        if inForeground {
            emit(.presentNotification(id, .willPresent(identifier: identifier)))
            return
        }
        localNotifications.noteShown(shown, of: id)
        // Showing it wakes the sleeping device (ours): for the maintenance window work starts as if the device
        // were awake anyway, without a wake of its own.
        if !isDeviceAwake { noteDeviceWokeForUser() }
    }

    /// The user tapped a notification of the app in Notification Center (the one named, or the newest): the app
    /// opens as from its icon, and its delegate gets `didReceive` once it has launched.
    mutating func tapNotification(_ id: BundleID, identifier: String?) {
        guard let tapped = localNotifications.takeDelivered(identifier, of: id) else {
            let which = identifier.map { "\"\($0)\"" } ?? "any"
            return record(id, .log, reason: "tap: no delivered notification \(which) of the app to tap")
        }
        record(id, .user, task: tapped.identifier, .notification(.tapped(identifier: tapped.identifier)))
        if device.isLocked { unlockToOpen() }
        bringToForeground(id)
        emit(.presentNotification(id, .didReceive(identifier: tapped.identifier, text: tapped.text)))
    }
}

extension BackgroundSystem {
    /// The identifier of a notification a scenario's `notification APP` step or a usage trace shows: it stands for
    /// a notification the app's server sent, which its center knows only by this identifier.
    public static let scenarioNotificationIdentifier = "offstage.notification"
}
