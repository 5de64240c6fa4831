import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// An app refresh as iOS apps write it: the launch handler starts a `Task` that awaits `URLSession.shared`'s
/// `data(from:)`; the expiration handler cancels the `Task`, which cancels the fetch.
nonisolated final class FeedRefreshApp: UIApplicationDelegate, @unchecked Sendable {
    static let refresh = "com.example.feed.refresh"
    static let feed = URL(string: "https://api.example.com/feed.json")!
    let sightings: Sightings
    private var refreshTask: Task<Void, Never>?

    init(sightings: Sightings) { self.sightings = sightings }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            self.handleAppRefresh(task: task as! BGAppRefreshTask)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        try? BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: Self.refresh))
    }

    func handleAppRefresh(task: BGAppRefreshTask) {
        let started = Date()
        refreshTask = Task {
            do {
                let (data, response) = try await URLSession.shared.data(from: Self.feed)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                sightings.note("fetched \(data.count) bytes, status \(status), after \(Self.since(started)) s")
                task.setTaskCompleted(success: true)
            } catch let error as URLError {
                sightings.note("failed \(error.code.rawValue) after \(Self.since(started)) s")
                task.setTaskCompleted(success: false)
            } catch {
                sightings.note("failed \(error)")
                task.setTaskCompleted(success: false)
            }
        }
        task.expirationHandler = { self.refreshTask?.cancel() }
    }

    /// Seconds since `start` on the app's clock, to the millisecond.
    static func since(_ start: Date) -> Double { (Date().timeIntervalSince(start) * 1000).rounded() / 1000 }
}

/// A legacy fetch (iOS 7–12) that completes from a `dataTask` completion handler.
nonisolated final class LegacyFetchApp: UIApplicationDelegate, @unchecked Sendable {
    let sightings: Sightings
    init(sightings: Sightings) { self.sightings = sightings }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        MainActor.assumeIsolated {
            application.setMinimumBackgroundFetchInterval(UIApplication.backgroundFetchIntervalMinimum)
        }
        return true
    }

    func application(
        _ application: UIApplication,
        performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        let started = Date()
        let sightings = sightings
        nonisolated(unsafe) let completionHandler = completionHandler
        URLSession.shared.dataTask(with: FeedRefreshApp.feed) { data, response, error in
            let after = FeedRefreshApp.since(started)
            let fetched = data.map(\.count)
            let failure = (error as? URLError)?.code.rawValue ?? 0
            // The session's queue is a background one; `applicationState` is read on the main queue.
            DispatchQueue.main.async {
                if let fetched, error == nil {
                    let state = UIApplication.shared.applicationState.rawValue
                    sightings.note("fetched \(fetched) bytes in state \(state) after \(after) s")
                    completionHandler(.newData)
                } else {
                    sightings.note("failed: \(failure)")
                    completionHandler(.failed)
                }
            }
        }.resume()
    }
}

/// The suites whose apps use `URLSession`, run one test at a time: `URLSession.shared` is one per process, and
/// simulations running at once would run its serial queues' work on their own threads at once (README, "what does
/// not work yet").
@Suite(.serialized) enum URLSessionSuites {}

extension URLSessionSuites {
    @Suite struct NetworkTests {
        let app = "com.example.feed"
        let refresh = FeedRefreshApp.refresh

        func refreshRun(_ network: SimulatedNetwork, on kind: NetworkKind = .wifi, sightings: Sightings) -> RealCodeRun
        {
            RealCodeRun(
                apps: [(manifest(app, identifiers: [refresh]), { @Sendable in FeedRefreshApp(sightings: sightings) })],
                network: network, deviceNetwork: kind,
                timeline: [at(1, .open(BundleID(app))), at(10, .home)], duration: 400)
        }

        @Test func asyncRefreshAwaitsAURLSessionFetchInVirtualTime() throws {
            let sightings = Sightings()
            // 40 ms of Wi-Fi latency, 2 s at the server, 625 kB at 6.25 MB/s (0.1 s): 2.14 s.
            let network = SimulatedNetwork.serving("api.example.com", bytes: 625_000, serverTime: 2)
            let records = try refreshRun(network, sightings: sightings).run()
            #expect(sightings.lines == ["fetched 625000 bytes, status 200, after 2.14 s"])
            // The request goes in the background the app enters at 10 s: nothing holds it back.
            #expect(records.of(.started, app, task: refresh).map(\.at.seconds) == [10])
            let completed = records.of(.completed, app, task: refresh)
            #expect(completed.map(\.at.seconds) == [12.14])
            #expect(completed.first?.succeeded == true)
            #expect(records.of(.killed, app).isEmpty)
        }

        @Test func aFetchThatOutlastsItsTaskIsCancelledWhenTheTaskExpires() throws {
            let sightings = Sightings()
            let network = SimulatedNetwork.serving("api.example.com", bytes: 1000, serverTime: 120)
            let records = try refreshRun(network, sightings: sightings).run()
            let expired = records.of(.expired, app, task: refresh)
            #expect(expired.count == 1)
            let cancelled = URLError.Code.cancelled.rawValue
            #expect(sightings.lines.count == 1 && sightings.lines[0].hasPrefix("failed \(cancelled) after"))
            let completed = records.of(.completed, app, task: refresh)
            #expect(completed.map(\.at) == expired.map(\.at))
            #expect(completed.first?.succeeded == false)
            #expect(records.of(.killed, app).isEmpty)
        }

        @Test func offlineFetchFailsAtOnceWithNotConnectedToInternet() throws {
            let sightings = Sightings()
            let network = SimulatedNetwork.serving("api.example.com", bytes: 1000, serverTime: 1)
            let records = try refreshRun(network, on: .none, sightings: sightings).run()
            #expect(sightings.lines == ["failed \(URLError.Code.notConnectedToInternet.rawValue) after 0.0 s"])
            #expect(records.of(.completed, app, task: refresh).map(\.at.seconds) == [10])
        }

        @Test func cellularIsSlowerThanWiFiForTheSameFetch() throws {
            let sightings = Sightings()
            // 120 ms of latency, 1.25 MB at 1.25 MB/s: 1.12 s.
            let network = SimulatedNetwork.serving("api.example.com", bytes: 1_250_000, serverTime: 0)
            _ = try refreshRun(network, on: .cellular, sightings: sightings).run()
            #expect(sightings.lines == ["fetched 1250000 bytes, status 200, after 1.12 s"])
        }

        @Test func lowDataModeFailsRequestsThatRefuseConstrainedNetworks() {
            var network = SimulatedNetwork.serving("api.example.com", bytes: 10, serverTime: 0)
            network.routes.append(NetworkRoute(match: .host("x.example.com"), answer: .failure(.timedOut)))
            var request = OffstageNetworkRequest(url: FeedRefreshApp.feed)
            #expect(
                network.exchange(request, on: .wifi, lowDataMode: true) != .failure(.notConnectedToInternet, seconds: 0)
            )
            request.allowsConstrainedNetworkAccess = false
            #expect(
                network.exchange(request, on: .wifi, lowDataMode: true) == .failure(.notConnectedToInternet, seconds: 0)
            )
            request.allowsCellularAccess = false
            #expect(
                network.exchange(request, on: .cellular, lowDataMode: false)
                    == .failure(.notConnectedToInternet, seconds: 0))
            let other = OffstageNetworkRequest(url: URL(string: "https://x.example.com/a")!)
            #expect(network.exchange(other, on: .wifi, lowDataMode: false) == .failure(.timedOut, seconds: 0.04))
        }

        @Test func theBytesOfAFetchAreChargedToTheAppsBackgroundEnergy() throws {
            func backgroundJoules(bytes: Int) throws -> Double {
                let network = SimulatedNetwork.serving("api.example.com", bytes: bytes, serverTime: 1)
                let simulation = try refreshRun(network, on: .cellular, sightings: Sightings()).simulation()
                simulation.run()
                return simulation.system.energy.totals[.app(BundleID(app))]?.background ?? 0
            }
            #expect(try backgroundJoules(bytes: 5_000_000) > backgroundJoules(bytes: 0) + 1)
        }

        @Test func aHandlerInCodeAnswersWithWhatTheRequestAsked() throws {
            let sightings = Sightings()
            var network = SimulatedNetwork()
            network.route(.url("https://api.example.com/"), serverTime: 0.5) { request in
                OffstageNetworkResponse(statusCode: 201, body: Data(request.url.path.utf8))
            }
            _ = try refreshRun(network, sightings: sightings).run()
            // "/feed.json" is 10 bytes: 40 ms + 0.5 s + 10 bytes of transfer.
            #expect(sightings.lines == ["fetched 10 bytes, status 201, after 0.54 s"])
        }

        @Test func aLegacyFetchCompletesFromAURLSessionCallback() throws {
            let sightings = Sightings()
            let manifest = AppManifest(bundleIdentifier: BundleID("com.example.legacy"), backgroundModes: [.fetch])
            let run = RealCodeRun(
                apps: [(manifest, { @Sendable in LegacyFetchApp(sightings: sightings) })],
                network: .serving("api.example.com", bytes: 2000, serverTime: 3),
                timeline: [at(1, .open(BundleID("com.example.legacy"))), at(2, .home)], duration: 2000)
            let records = try run.run()
            #expect(sightings.lines.first?.hasPrefix("fetched 2000 bytes in state 2 after 3.04") == true)
            let handled = records.of(.handled, "com.example.legacy")
            #expect(handled.first?.reason == "completion handler called with .newData after 3.0 s")
            #expect(records.of(.killed, "com.example.legacy").isEmpty)
        }

        @Test func aRefreshThatFetchesGivesTheSameRecordsInTwentyRuns() throws {
            let network = SimulatedNetwork.serving("api.example.com", bytes: 625_000, serverTime: 2)
            let texts = try refreshRun(network, sightings: Sightings()).texts(runs: 20)
            #expect(Set(texts).count == 1)
            let slow = SimulatedNetwork.serving("api.example.com", bytes: 1000, serverTime: 120)
            #expect(Set(try refreshRun(slow, sightings: Sightings()).texts(runs: 20)).count == 1)
        }
    }
}

/// A sync as apps write it with a session of their own: `data(for:)` with a POST body, then a delegate-based
/// data task on a session of the app's own made with `URLSessionConfiguration.default`, as on iOS.
nonisolated final class UploadSyncApp: NSObject, UIApplicationDelegate, URLSessionDataDelegate, @unchecked Sendable {
    static let sync = "com.example.sync.processing"
    let sightings: Sightings
    private var received = 0
    private var task: BGTask?

    init(sightings: Sightings) { self.sightings = sightings }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.sync, using: nil) { task in
            self.task = task
            Task { await self.upload() }
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: Self.sync))
    }

    func upload() async {
        var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
        request.httpMethod = "POST"
        request.httpBody = Data(count: 300)
        let answer = try? await URLSession.shared.data(for: request)
        sightings.note("upload answered \(answer.map { String(decoding: $0.0, as: UTF8.self) } ?? "nothing")")
        let session = URLSession(configuration: .default, delegate: self, delegateQueue: nil)
        session.dataTask(with: URL(string: "https://api.example.com/changes")!).resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        received += data.count
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        sightings.note("changes: \(received) bytes, error \(error == nil ? "none" : "\(error!)")")
        self.task?.setTaskCompleted(success: error == nil)
        session.finishTasksAndInvalidate()
    }
}

extension URLSessionSuites {
    @Suite struct SessionOfItsOwnTests {
        @Test func dataForARequestAndADelegateSessionReachTheSimulatedNetwork() throws {
            let sightings = Sightings()
            var network = SimulatedNetwork()
            network.route(.url("https://api.example.com/upload")) { request in
                OffstageNetworkResponse(body: Data("\(request.method) \(request.body.count)".utf8))
            }
            network.routes.append(
                NetworkRoute(
                    match: .url("https://api.example.com/changes"),
                    answer: .response(OffstageNetworkResponse(body: Data(count: 7000))), serverTime: 1))
            let app = "com.example.sync"
            let manifest = AppManifest(
                bundleIdentifier: BundleID(app), backgroundModes: [.processing],
                permittedIdentifiers: [UploadSyncApp.sync])
            let run = RealCodeRun(
                apps: [(manifest, { @Sendable in UploadSyncApp(sightings: sightings) })], network: network,
                timeline: [
                    at(1, .open(BundleID(app))), at(10, .home), at(20, .lock),
                    at(30, .simulateLaunch(BundleID(app), identifier: UploadSyncApp.sync)),
                ],
                duration: 200)
            let records = try run.run()
            #expect(sightings.lines == ["upload answered POST 300", "changes: 7000 bytes, error none"])
            let completed = records.of(.completed, app, task: UploadSyncApp.sync)
            #expect(completed.count == 1 && completed[0].succeeded == true)
        }
    }
}

/// A sync that keeps nothing on disk, on leaving the screen under a background task: a session of its own made with
/// `URLSessionConfiguration.ephemeral`, then `URLSession.shared`, each answered by the simulated network.
final class EphemeralSyncApp: UIApplicationDelegate {
    let sightings: Sightings

    /// Made by the system when it launches the app, as UIKit makes the delegate.
    nonisolated init(sightings: Sightings) { self.sightings = sightings }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let sync = application.beginBackgroundTask(withName: "sync", expirationHandler: nil)
        let sightings = sightings
        Task {
            let started = Date()
            let session = URLSession(configuration: .ephemeral)
            let privately = try? await session.data(from: URL(string: "https://api.example.com/private")!)
            let shared = try? await URLSession.shared.data(from: URL(string: "https://api.example.com/public")!)
            for (name, answer) in [("ephemeral", privately), ("shared", shared)] {
                sightings.note("\(name): \(answer.map { String(decoding: $0.0, as: UTF8.self) } ?? "nothing")")
            }
            sightings.note("after \(Date().timeIntervalSince(started)) s")
            session.finishTasksAndInvalidate()
            application.endBackgroundTask(sync)
        }
    }
}

extension URLSessionSuites {
    @Suite struct EphemeralSessionTests {
        @Test func ephemeralAndSharedSessionsReachTheSimulatedNetworkInVirtualTime() throws {
            let sightings = Sightings()
            var network = SimulatedNetwork()
            for path in ["private", "public"] {
                network.routes.append(
                    NetworkRoute(
                        match: .url("https://api.example.com/\(path)"),
                        answer: .response(OffstageNetworkResponse(body: Data("simulated \(path)".utf8))),
                        serverTime: 2))
            }
            let app = "com.example.private"
            let records = try RealCodeRun(
                apps: [(manifest(app, identifiers: []), { @Sendable in EphemeralSyncApp(sightings: sightings) })],
                network: network, timeline: [at(1, .open(BundleID(app))), at(10, .home)], duration: 200
            ).run()
            // Two server times of 2 s, in virtual time: the real network would answer neither.
            #expect(sightings.lines.prefix(2) == ["ephemeral: simulated private", "shared: simulated public"])
            #expect(sightings.lines.last?.hasPrefix("after 4.") == true)
            #expect(records.of(.assertionEnded, app).map { $0.at.seconds > 14 && $0.at.seconds < 15 } == [true])
        }
    }
}

/// A download through the simulated network, by a delegate and by a completion handler.
nonisolated final class DownloadApp: NSObject, UIApplicationDelegate, URLSessionDownloadDelegate, @unchecked Sendable {
    let sightings: Sightings
    init(sightings: Sightings) { self.sightings = sightings }

    func applicationDidBecomeActive(_ application: UIApplication) {
        let configuration = URLSessionConfiguration.default
        configuration.protocolClasses = [OffstageURLProtocol.self]
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        session.downloadTask(with: URL(string: "https://api.example.com/archive.zip")!).resume()
        URLSession.shared.downloadTask(with: URL(string: "https://api.example.com/archive.zip")!) { url, _, error in
            self.sightings.note(
                "completion: \(Self.describe(url)), error \((error as? URLError)?.code.rawValue ?? 0)")
        }.resume()
    }

    /// What the app finds at a download's location: how many bytes, in which folder. It then removes the file, as
    /// apps move it away.
    static func describe(_ location: URL?) -> String {
        guard let location, let data = try? Data(contentsOf: location) else { return "no file" }
        defer { try? FileManager.default.removeItem(at: location) }
        let inTemporary =
            location.deletingLastPathComponent().standardizedFileURL.path
            == FileManager.default.temporaryDirectory.standardizedFileURL.path
        return "\(data.count) bytes in the temporary directory: \(inTemporary)"
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        sightings.note("delegate: finished, \(Self.describe(location))")
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) {
        sightings.note("delegate: wrote \(bytesWritten), \(totalBytesWritten) of \(totalBytesExpectedToWrite)")
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        sightings.note("delegate: error \((error as? URLError)?.code.rawValue ?? 0)")
    }
}

extension URLSessionSuites {
    @Suite struct DownloadTests {
        @Test func aDownloadsFileExistsWhenItsDelegateAndCompletionHandlerRun() throws {
            let sightings = Sightings()
            let app = "com.example.download"
            let run = RealCodeRun(
                apps: [
                    (AppManifest(bundleIdentifier: BundleID(app)), { @Sendable in DownloadApp(sightings: sightings) })
                ],
                network: .serving("api.example.com", bytes: 100, serverTime: 1),
                timeline: [at(1, .open(BundleID(app)))], duration: 60)
            let records = try run.run()
            #expect(
                Set(sightings.lines) == [
                    "delegate: wrote 100, 100 of 100",
                    "delegate: finished, 100 bytes in the temporary directory: true", "delegate: error 0",
                    "completion: 100 bytes in the temporary directory: true, error 0",
                ])
            // The delegate hears of the bytes written before it hears that the download finished.
            let delegateLines = sightings.lines.filter { $0.hasPrefix("delegate") }
            #expect(delegateLines.first == "delegate: wrote 100, 100 of 100")
            #expect(records.of(.crashed, app).isEmpty)
        }
    }
}
