/// Local notifications (`UNUserNotificationCenter`): the system holds each app's scheduled requests and delivers
/// them at their time whatever the app's state; in the foreground the app's delegate gets `willPresent`, else the
/// system shows it, and a tap opens (or launches) the app with `didReceive`. `notification APP` steps and usage
/// traces' notification rows are deliveries too. `LocalNotifications` decides; this hands it what happened and
/// carries out what it returns.
extension BackgroundSystem {
    /// Hands the local notifications an app's request or removal, a notification shown or tapped, or the time
    /// passing (the deliveries due by now, after every entry point, before the review), with the app on screen,
    /// and carries out what they return, in order.
    mutating func handleNotifications(_ input: NotificationInput) {
        let actions = localNotifications.take(input, now: now, wallClock: wallClock) { app in
            // Its calls added it, or the router checked the app the event names.
            precondition(apps.contains(app), "a local notification of \(app), which is not installed")
            return foregroundApp == app && apps[app].state.hasProcess
        }
        for action in actions {
            switch action {
            case .note(let id, let kind, let task, let fact): record(id, kind, task: task, .notification(fact))
            case .log(let id, let words): record(id, .log, reason: words)
            case .present(let id, let presentation): emit(.presentNotification(id, presentation))
            // Showing it wakes the sleeping device (ours): for the maintenance window work starts as if the device
            // were awake anyway, without a wake of its own.
            case .wakeDevice: if !isDeviceAwake { noteDeviceWokeForUser() }
            case .open(let id):
                if device.isLocked { unlockToOpen() }
                bringToForeground(id)
            }
        }
    }
}

extension BackgroundSystem {
    /// The identifier of a notification a scenario's `notification APP` step or a usage trace shows: it stands for
    /// a notification the app's server sent, which its center knows only by this identifier.
    public static let scenarioNotificationIdentifier = "offstage.notification"
}
