// Apps written as for iOS, with Apple's imports and nothing else: on Linux the target's module aliases
// (`appleFrameworkAliases` in Package.swift) map each framework onto Offstage's module of it.
import AVFoundation
import BackgroundTasks
import Combine
import Foundation
import SwiftUI
import UIKit
import UserNotifications
import os

/// A reminders app: asks for notifications, schedules local ones, registers for pushes and handles them with the
/// `async` callback, sets its quick actions and logs with `Logger`. Its delegate has `override init()`, as UIKit
/// apps write it.
final class RemindersAppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
    /// What the app saw, in order. `nonisolated(unsafe)`: the app's code writes it one piece at a time (the
    /// simulator's threads), and the test reads it only before and after the run.
    nonisolated(unsafe) static var sightings: [String] = []
    static let logger = Logger(subsystem: "com.example.reminders", category: "launch")
    let startedAt: Date

    override init() {
        startedAt = Date()
        super.init()
    }

    /// Notes a sighting with the seconds since launch. `nonisolated`: the notification center calls its completion
    /// handlers on a queue of its own, as on iOS; the simulator runs an app's work one piece at a time, so the
    /// `nonisolated(unsafe)` list is never written from two threads at once.
    nonisolated func note(_ line: String) {
        Self.sightings.append("\(Int(Date().timeIntervalSince(startedAt).rounded())) s: \(line)")
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        Self.logger.info("launched, \(3, privacy: .public) reminders")
        let center = UNUserNotificationCenter.current()
        center.delegate = self
        center.requestAuthorization(options: [.alert, .sound, .badge]) { granted, _ in
            self.note("authorization granted: \(granted)")
        }
        application.registerForRemoteNotifications()
        application.shortcutItems = [
            UIApplicationShortcutItem(type: "com.example.reminders.new", localizedTitle: "New Reminder")
        ]
        schedule("soon", after: 5)
        schedule("later", after: 120)
        schedule("cancelled", after: 60)
        schedule("too often", after: 30, repeats: true)
        let morning = UNCalendarNotificationTrigger(dateMatching: DateComponents(hour: 9, minute: 0), repeats: true)
        center.add(UNNotificationRequest(identifier: "daily", content: content("Daily review"), trigger: morning))
        center.removePendingNotificationRequests(withIdentifiers: ["cancelled"])
        return true
    }

    func content(_ title: String) -> UNMutableNotificationContent {
        let content = UNMutableNotificationContent()
        content.title = title
        content.sound = .default
        return content
    }

    func schedule(_ identifier: String, after seconds: TimeInterval, repeats: Bool = false) {
        let trigger = UNTimeIntervalNotificationTrigger(timeInterval: seconds, repeats: repeats)
        let request = UNNotificationRequest(identifier: identifier, content: content(identifier), trigger: trigger)
        UNUserNotificationCenter.current().add(request) { error in
            if let error = error as? UNError { self.note("add \(identifier) refused: \(error.code)") }
        }
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        note("device token of \(deviceToken.count) bytes")
    }

    func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
        -> UNNotificationPresentationOptions
    {
        note("willPresent \(notification.request.identifier)")
        return [.banner, .sound]
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        UNUserNotificationCenter.current().getPendingNotificationRequests { pending in
            self.note("pending \(pending.map(\.identifier).sorted())")
        }
    }

    func application(_ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]) async
        -> UIBackgroundFetchResult
    {
        let delivered = await UNUserNotificationCenter.current().deliveredNotifications()
        try? await UNUserNotificationCenter.current().setBadgeCount(delivered.count)
        note(
            "push; delivered \(delivered.map(\.request.identifier)); shortcuts \(application.shortcutItems?.count ?? 0); "
                + "badge \(application.applicationIconBadgeNumber)")
        return .newData
    }
}

/// A podcast player: plays in a `.playback` session when it leaves the screen, stops 10 minutes later.
final class PodcastAppDelegate: UIResponder, UIApplicationDelegate {
    var player: AVAudioPlayer?

    func applicationDidEnterBackground(_ application: UIApplication) {
        do {
            try AVAudioSession.sharedInstance().setCategory(.playback, mode: .spokenAudio)
            try AVAudioSession.sharedInstance().setActive(true)
            let player = try AVAudioPlayer(data: Data(count: 1024))
            player.numberOfLoops = -1
            player.play()
            self.player = player
        } catch {
            Logger().error("audio failed: \(error.localizedDescription)")
        }
        let player = self.player
        DispatchQueue.main.asyncAfter(deadline: .now() + 600) { player?.stop() }
    }
}

/// A SwiftUI app whose delegate is a plain `NSObject`: a view model published through Combine, `@State`,
/// `@StateObject`, `@ObservedObject` and `@Environment(\.scenePhase)`, and a refresh in `.backgroundTask`.
struct HeadlinesApp: App {
    nonisolated static let refresh = "com.example.headlines.refresh"
    nonisolated(unsafe) static var sightings: [String] = []

    @UIApplicationDelegateAdaptor(HeadlinesAppDelegate.self) var appDelegate
    @StateObject private var feed = NewsFeed()
    @State private var opened = 0
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
        WindowGroup { HeadlinesView(feed: feed) }
            .onChange(of: scenePhase) { phase in
                if phase == .active { opened += 1 }
                if phase == .background {
                    Self.sightings.append("background after \(opened) opening(s)")
                    let request = BGAppRefreshTaskRequest(identifier: Self.refresh)
                    request.earliestBeginDate = Date(timeIntervalSinceNow: 60)
                    try? BGTaskScheduler.shared.submit(request)
                }
            }
            .backgroundTask(.appRefresh(Self.refresh)) {
                await NewsFeed.shared.refresh()
            }
    }
}

/// The news app's delegate: an `NSObject`, not a `UIResponder`, as many SwiftUI apps write it.
final class HeadlinesAppDelegate: NSObject, UIApplicationDelegate {
    var cancellables: Set<AnyCancellable> = []

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        // `object: application`: Foundation's default center is one per process, shared with other tests' apps.
        NotificationCenter.default.publisher(for: UIApplication.didEnterBackgroundNotification, object: application)
            .sink { _ in HeadlinesApp.sightings.append("didEnterBackground published") }
            .store(in: &cancellables)
        NewsFeed.shared.$headlines.dropFirst()
            .sink { HeadlinesApp.sightings.append("headlines \($0)") }
            .store(in: &cancellables)
        return true
    }
}

/// The news app's model: headlines fetched in the background, published to its views.
final class NewsFeed: ObservableObject, @unchecked Sendable {
    static let shared = NewsFeed()
    /// How long a fetch takes: 2 s, or longer than a refresh's time when a test sets it so.
    nonisolated(unsafe) static var fetchSeconds = 2.0
    @Published var headlines = 0

    /// Fetches new headlines through a Combine pipeline (its delay stands in for the network) and awaits its
    /// values; when the awaiting task is cancelled, the pipeline is cancelled with it.
    func refresh() async {
        let fetch = Just(5).delay(for: .seconds(Self.fetchSeconds), scheduler: DispatchQueue.main)
            .handleEvents(receiveCancel: { HeadlinesApp.sightings.append("fetch cancelled") })
        for await stories in fetch.values { headlines += stories }
    }
}

/// The app's one view: never drawn by Offstage, but it compiles as SwiftUI code does.
struct HeadlinesView: View {
    @ObservedObject var feed: NewsFeed

    var body: some View {
        VStack {
            Text("Headlines: \(feed.headlines)")
            Button("Refresh") { Task { await feed.refresh() } }
        }
    }
}
