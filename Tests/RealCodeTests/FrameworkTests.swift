import Foundation
import OffstageCore
import OffstageSimulator
import Testing

@testable import OffstageKit

/// Apps written with Apple's imports alone (FrameworkApps.swift), run in scenarios.
@Suite(.serialized) struct FrameworkTests {
    @Test func localNotificationsFireInVirtualTimeAndReachTheForegroundDelegate() throws {
        RemindersAppDelegate.sightings = []
        let app = "com.example.reminders"
        let manifest = AppManifest(bundleIdentifier: BundleID(app), backgroundModes: [.remoteNotification])
        let records = try RealCodeRun(
            apps: [(manifest, { @Sendable in RemindersAppDelegate() })],
            timeline: [
                at(0, .open(BundleID(app))), at(30, .home), at(200, .backgroundPush(BundleID(app), payload: "{}")),
            ],
            duration: 400
        ).run()
        // "soon" comes due in the foreground and reaches the delegate; "later" (120 s) comes due while the app is
        // suspended: the system shows it, and the app, resumed for the push (with `didEnterBackground` again, the
        // resume order Apple documents), finds it delivered and no longer pending.
        #expect(
            RemindersAppDelegate.sightings == [
                "0 s: authorization granted: true", "0 s: device token of 32 bytes",
                "0 s: add too often refused: notificationInvalidNoDate", "5 s: willPresent soon",
                "30 s: pending [\"daily\", \"later\"]", "200 s: pending [\"daily\"]",
                "200 s: push; delivered [\"soon\", \"later\"]; shortcuts 1; badge 2",
            ])
        #expect(
            records.contains {
                guard $0.app?.rawValue == app, case .handlerCalled(.newData, _) = $0.detail else { return false }
                return true
            })
    }

    @Test func timeIntervalTriggersComeDueEveryIntervalFromWhenTheyWereAdded() throws {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 30, repeats: true)
        let epoch = Date(timeIntervalSince1970: 0)
        #expect(trigger.nextDelivery(after: epoch, addedAt: epoch) == Date(timeIntervalSince1970: 30))
        let hourly = UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: true)
        #expect(
            hourly.nextDelivery(after: Date(timeIntervalSince1970: 7300), addedAt: epoch)
                == Date(timeIntervalSince1970: 10800))
    }

    @Test func playingAudioInAPlaybackSessionKeepsTheAppRunningUntilItStops() throws {
        let app = "com.example.podcast"
        let manifest = AppManifest(bundleIdentifier: BundleID(app), backgroundModes: [.audio])
        let records = try RealCodeRun(
            apps: [(manifest, { @Sendable in PodcastAppDelegate() })],
            timeline: [at(1, .open(BundleID(app))), at(10, .home)], duration: 1200
        ).run()
        #expect(
            records.of(.backgroundMode, app).map(\.reason) == [
                "audio started: the app keeps running in the background while it lasts", "audio stopped",
            ])
        #expect(records.of(.suspended, app).map(\.at.seconds) == [610])
    }

    /// Runs the news app (opened at 1 s, home at 10 s) with fetches that take `fetchSeconds`.
    func runHeadlines(fetchSeconds: Double) throws -> [Record] {
        HeadlinesApp.sightings = []
        NewsFeed.fetchSeconds = fetchSeconds
        defer { NewsFeed.fetchSeconds = 2 }
        let app = "com.example.headlines"
        return try RealCodeRun(
            apps: [
                (manifest(app, identifiers: [HeadlinesApp.refresh]), { @Sendable in SwiftUIAppHost<HeadlinesApp>() })
            ],
            timeline: [at(1, .open(BundleID(app))), at(10, .home)], duration: 600
        ).run()
    }

    @Test func aSwiftUIAppWithAnNSObjectDelegateRefreshesAndPublishesThroughCombine() throws {
        let app = "com.example.headlines"
        let records = try runHeadlines(fetchSeconds: 2)
        // UIKit's notification is published after the delegate's method (which moves the scene phase), and again
        // when the app is resumed for its refresh (Apple's documented resume order).
        #expect(
            HeadlinesApp.sightings == [
                "background after 1 opening(s)", "didEnterBackground published", "didEnterBackground published",
                "headlines 5",
            ])
        #expect(records.of(.completed, app, task: HeadlinesApp.refresh).first?.succeeded == true)
    }

    @Test func aCombineRefreshThatOutlivesItsAllowanceIsExpiredAndItsPipelineCancelled() throws {
        let app = "com.example.headlines"
        let refresh = HeadlinesApp.refresh
        let records = try runHeadlines(fetchSeconds: 200)
        // A refresh has 30 s; the fetch needs 200. At expiry the system cancels `.backgroundTask`'s Swift task,
        // whose `for await` over the pipeline's `values` cancels the pipeline: no headlines are published.
        let started = try #require(records.of(.started, app, task: refresh).first)
        #expect(records.of(.expired, app, task: refresh).map(\.at.seconds) == [started.at.seconds + 30])
        #expect(
            HeadlinesApp.sightings == [
                "background after 1 opening(s)", "didEnterBackground published", "didEnterBackground published",
                "fetch cancelled",
            ])
        #expect(records.of(.completed, app, task: refresh).first?.succeeded == false)
        #expect(records.of(.killed, app).isEmpty && records.of(.terminated, app).isEmpty)
    }

    @Test func loggerHidesPrivateValuesAsADeviceDoes() {
        let logger = Logger(subsystem: "com.example", category: "sync")
        let secret = "token-123"
        #expect(
            logger.line(level: .info, "sent \(4, privacy: .public) items with \(secret), \(secret, privacy: .public)")
                == "com.example[sync] info: sent 4 items with <private>, token-123")
        #expect(logger.line(level: .error, "count \(7)") == "com.example[sync] error: count 7")
    }

    @Test func remoteNotificationTokensAreTheSameInEveryRun() {
        let token = UIApplication.deviceToken(for: "com.example.reminders")
        #expect(token.count == 32)
        #expect(token == UIApplication.deviceToken(for: "com.example.reminders"))
        #expect(token != UIApplication.deviceToken(for: "com.example.other"))
    }
}
