import OffstageCore
import Testing

/// The system's side of local notifications: it delivers them at their times whatever the app's state, repeats
/// them by their interval, and refuses times an app could choose to break it (the daemon takes them from a socket).
@Suite struct LocalNotificationScheduleTests {
    let app = BundleID("com.example.notes")

    /// A system with the app installed and open at 0 s.
    func system() -> BackgroundSystem {
        var system = BackgroundSystem()
        _ = system.install(AppManifest(bundleIdentifier: app, backgroundModes: []), at: .zero)
        _ = system.handle(.open(app), at: .zero)
        return system
    }

    /// Ticks at every due time up to `end`, returning when each notification was delivered, and to whom.
    func deliveries(_ system: inout BackgroundSystem, until end: Double) -> [(Double, NotificationFact)] {
        var seen: [(Double, NotificationFact)] = []
        while let due = system.nextDueTime, due.seconds <= end {
            for effect in system.handle(.tick, at: due) {
                guard case .record(let record) = effect, case .notification(let fact) = record.detail,
                    case .delivered = fact
                else { continue }
                seen.append((record.at.seconds, fact))
            }
        }
        return seen
    }

    @Test func aRepeatingNotificationIsDeliveredEveryIntervalEvenAfterTheAppLeaves() {
        var system = system()
        let schedule = LocalNotificationSchedule(identifier: "water", fireEpochs: [100], repeatEvery: 120)
        #expect(system.call(.scheduleNotification(schedule), from: app, at: .zero).0 == .ok)
        _ = system.handle(.home, at: Instant(seconds: 10))
        let seen = deliveries(&system, until: 400)
        #expect(seen.map(\.0) == [100, 220, 340])
        #expect(seen.allSatisfy { $0.1 == .delivered(identifier: "water", inForeground: false) })
    }

    @Test func timesAnAppChoseThatAreNotFiniteOrRepeatTooOftenAreRefusedWithoutATrap() {
        var system = system()
        let broken = LocalNotificationSchedule(identifier: "broken", fireEpochs: [.nan, .infinity], repeatEvery: 1)
        #expect(system.call(.scheduleNotification(broken), from: app, at: .zero).0 == .ok)
        let tooOften = LocalNotificationSchedule(identifier: "often", fireEpochs: [5], repeatEvery: .nan)
        _ = system.call(.scheduleNotification(tooOften), from: app, at: .zero)
        // "broken" is never delivered; "often" once, as its repeat is not kept.
        let seen = deliveries(&system, until: 1000)
        #expect(seen.map(\.0) == [5])
        #expect(seen.map(\.1) == [.delivered(identifier: "often", inForeground: true)])
    }
}
