import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// An app that downloads with a background session, as Apple's "Downloading files in the background" describes:
/// it starts the download on screen and leaves; the system carries it on; the app is woken with
/// `handleEventsForBackgroundURLSession`, keeps the completion handler, gets the file in `didFinishDownloadingTo`,
/// and calls the handler from `urlSessionDidFinishEvents(forBackgroundURLSession:)`.
nonisolated final class BackgroundDownloadApp: NSObject, UIApplicationDelegate, URLSessionDownloadDelegate,
    @unchecked Sendable
{
    static let session = "com.example.bgdownload.session"
    let sightings: Sightings
    let discretionary: Bool
    /// Seconds the app takes, once the session's events are delivered, before it calls the kept completion handler.
    let finishDelay: Double
    private var finishEvents: (() -> Void)?
    private var madeSession: URLSession?
    /// The app's background session, made on first use (as apps make it lazily).
    private var urlSession: URLSession {
        if let madeSession { return madeSession }
        let configuration = URLSessionConfiguration.background(withIdentifier: Self.session)
        configuration.isDiscretionary = discretionary
        configuration.sessionSendsLaunchEvents = true
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        madeSession = session
        return session
    }

    init(sightings: Sightings, discretionary: Bool = false, finishDelay: Double = 0) {
        self.sightings = sightings
        self.discretionary = discretionary
        self.finishDelay = finishDelay
    }

    /// Notes what happened, when, and the app's state, read on the main queue: `applicationState` is main-actor,
    /// and the session's delegate queue is a background one.
    func note(_ what: String) {
        let at = Int(Date().timeIntervalSince1970) % 100_000
        let sightings = sightings
        DispatchQueue.main.async {
            sightings.note("\(what) at \(at), state \(UIApplication.shared.applicationState.rawValue)")
        }
    }

    func applicationDidBecomeActive(_ application: UIApplication) {
        urlSession.downloadTask(with: URL(string: "https://cdn.example.com/episode.mp3")!).resume()
        note("download started")
    }

    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        note("handleEvents for \(identifier)")
        finishEvents = completionHandler
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        note("finished: \(DownloadApp.describe(location))")
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        note("completed, error \((error as? URLError)?.code.rawValue ?? 0)")
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        note("all events delivered")
        DispatchQueue.main.asyncAfter(deadline: .now() + finishDelay) { self.finishEvents?() }
    }
}

extension URLSessionSuites {
    @Suite struct BackgroundSessionTests {
        let app = "com.example.bgdownload"

        func run(
            sightings: Sightings, discretionary: Bool = false, finishDelay: Double = 0, timeline: [TimelineEntry]
        ) -> RealCodeRun {
            var network = SimulatedNetwork.serving("cdn.example.com", bytes: 50_000, serverTime: 120)
            network.routes[0].match = .host("cdn.example.com")
            return RealCodeRun(
                apps: [
                    (
                        AppManifest(bundleIdentifier: BundleID(app)),
                        { @Sendable in
                            BackgroundDownloadApp(
                                sightings: sightings, discretionary: discretionary, finishDelay: finishDelay)
                        }
                    )
                ], network: network, deviceNetwork: .wifi,
                timeline: [at(0, .setBattery(level: 0.8, charging: false)), at(1, .open(BundleID(app))), at(5, .home)]
                    + timeline, duration: 600)
        }

        @Test func backgroundDownloadFinishesWhileTheAppIsSuspendedAndWakesItWithHandleEvents() throws {
            let sightings = Sightings()
            let records = try run(sightings: sightings, timeline: []).run()
            #expect(records.of(.suspended, app).first.map(\.at.seconds) == 5)
            let start = sightings.lines.first ?? ""
            #expect(start.hasPrefix("download started") && start.hasSuffix("state 0"))
            // Woken at 121.x s (server time and transfer), in the background (state 2), handled in Apple's order.
            #expect(
                sightings.lines.dropFirst().map {
                    $0.replacingOccurrences(of: #" at \d+"#, with: "", options: .regularExpression)
                } == [
                    "handleEvents for com.example.bgdownload.session, state 2",
                    "finished: 50000 bytes in the temporary directory: true, state 2",
                    "completed, error 0, state 2",
                    "all events delivered, state 2",
                ])
            #expect(records.of(.resumed, app).count == 1)
            let handled = records.of(.handled, app)
            guard case .handlerCalled(let result, _) = handled.first?.detail else {
                Issue.record("no completion handler call was recorded: \(handled)")
                return
            }
            #expect(result == .noData)
            #expect(records.of(.killed, app).isEmpty && records.of(.crashed, app).isEmpty)
        }

        @Test func theSystemGoesOnWithoutABackgroundSessionHandlerCalledTooLateAndSuspendsTheApp() throws {
            // The app takes 60 s after its events to call the handler; the system gives it 30 s, then goes on
            // without it (ours: Apple gives no figure and kills no app for it) and suspends the app.
            let records = try run(sightings: Sightings(), finishDelay: 60, timeline: []).run()
            let delivered = try #require(records.of(.delivered, app).first)
            let handled = records.of(.handled, app)
            #expect(handled.map(\.at.seconds) == [delivered.at.seconds + 30])
            #expect(
                handled.map(\.reason) == ["completion handler not called within 30 s: the system goes on without it"])
            #expect(records.of(.suspended, app).map(\.at.seconds) == [5, delivered.at.seconds + 30])
            #expect(records.of(.killed, app).isEmpty && records.of(.terminated, app).isEmpty)
        }

        @Test func discretionaryBackgroundDownloadWaitsForPower() throws {
            let sightings = Sightings()
            let records = try run(
                sightings: sightings, discretionary: true, timeline: [at(300, .setCharging(true))]
            ).run()
            let transfers = records.of(.transfer, app).map(\.reason)
            #expect(transfers.contains("background transfer waits for power"))
            let delivered = records.of(.delivered, app).map(\.at.seconds)
            #expect(delivered.count == 1 && delivered[0] > 300)
            #expect(sightings.lines.count == 5)
        }

        @Test func backgroundDownloadGivesTheSameRecordsInTwentyRuns() throws {
            let texts = try run(sightings: Sightings(), timeline: []).texts(runs: 20)
            #expect(Set(texts).count == 1)
        }
    }
}
