import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// The background part of a SwiftUI app as Apple's "Keeping your app's content up to date" writes it: the scene
/// phase schedules the refresh, `.backgroundTask(.appRefresh)` awaits a fetch; a delegate adaptor for launch.
struct WeatherApp: App {
    nonisolated static let refresh = "com.example.weather.refresh"
    nonisolated(unsafe) static var sightings = Sightings()

    @UIApplicationDelegateAdaptor(WeatherAppDelegate.self) var appDelegate
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
        WindowGroup { Text("Weather") }
            .onChange(of: scenePhase) { newPhase in
                Self.sightings.note("phase \(newPhase)")
                if newPhase == .background { scheduleAppRefresh() }
            }
            .backgroundTask(.appRefresh(Self.refresh)) {
                await Self.fetchForecast()
            }
    }

    func scheduleAppRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: Self.refresh)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 60)
        try? BGTaskScheduler.shared.submit(request)
    }

    static func fetchForecast() async {
        let started = Date()
        do {
            let (data, _) = try await URLSession.shared.data(from: URL(string: "https://weather.example.com/today")!)
            sightings.note("forecast \(data.count) bytes after \(FeedRefreshApp.since(started)) s")
        } catch {
            sightings.note("forecast failed \((error as? URLError)?.code.rawValue ?? 0)")
        }
    }
}

final class WeatherAppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        WeatherApp.sightings.note("adaptor didFinishLaunching")
        return true
    }
}

extension URLSessionSuites {
    @Suite struct SwiftUITests {
        let app = "com.example.weather"

        func run(serverTime: Double) throws -> (records: [Record], seen: [String]) {
            WeatherApp.sightings = Sightings()
            let surface = RealCodeRun(
                apps: [
                    (manifest(app, identifiers: [WeatherApp.refresh]), { @Sendable in SwiftUIAppHost<WeatherApp>() })
                ],
                network: .serving("weather.example.com", bytes: 4000, serverTime: serverTime),
                timeline: [at(1, .open(BundleID(app))), at(10, .home)], duration: 600)
            let records = try surface.run()
            return (records, WeatherApp.sightings.lines)
        }

        @Test func aSwiftUIBackgroundTaskCompletesWhenItsActionReturns() throws {
            let (records, seen) = try run(serverTime: 2)
            #expect(
                seen == [
                    "adaptor didFinishLaunching", "phase active", "phase inactive", "phase background",
                    "forecast 4000 bytes after 2.041 s",
                ])
            let refresh = WeatherApp.refresh
            let started = try #require(records.of(.started, app, task: refresh).first)
            let completed = try #require(records.of(.completed, app, task: refresh).first)
            #expect(
                completed.at.seconds - started.at.seconds > 2.04 && completed.at.seconds - started.at.seconds < 2.05)
            #expect(completed.succeeded == true)
        }

        @Test func aSwiftUIBackgroundTaskThatOutlastsItsTimeIsCancelled() throws {
            let (records, seen) = try run(serverTime: 90)
            let refresh = WeatherApp.refresh
            #expect(records.of(.expired, app, task: refresh).count == 1)
            #expect(seen.last == "forecast failed \(URLError.Code.cancelled.rawValue)")
            #expect(records.of(.completed, app, task: refresh).first?.succeeded == false)
            #expect(records.of(.killed, app).isEmpty)
        }

        @Test func aSwiftUIAppGivesTheSameRecordsInTwentyRuns() throws {
            let texts = try (0..<20).map { _ in try run(serverTime: 2).records.map { "\($0)" }.joined(separator: "\n") }
            #expect(Set(texts).count == 1)
        }
    }
}
