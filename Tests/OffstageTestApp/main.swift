// offstage-testapp: a real app process for the daemon's tests. Its bundle's Info.plist lists the
// behaviours it shows (`OffstageTestBehaviours`); it writes what happens to $OFFSTAGE_TEST_DIR/<bundle>.events.
import Foundation
import OffstageKit
import Synchronization

/// The behaviours, from the bundle's Info.plist next to the executable.
let behaviours: Set<String> = {
    let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    guard let data = try? Data(contentsOf: folder.appendingPathComponent("Info.plist")),
        let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
    else { return [] }
    return Set(plist["OffstageTestBehaviours"] as? [String] ?? [])
}()
let bundle = ProcessInfo.processInfo.environment[OffstageApplication.bundleVariable] ?? "unknown"

/// Appends a line to the test's event file.
func note(_ line: String) {
    guard let folder = ProcessInfo.processInfo.environment["OFFSTAGE_TEST_DIR"] else { return }
    let path = "\(folder)/\(bundle).events"
    if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
    guard let handle = FileHandle(forWritingAtPath: path) else { return }
    handle.seekToEndOfFile()
    handle.write(Data("\(line)\n".utf8))
    handle.closeFile()
}

/// The test app's delegate: registers its tasks, submits them when it leaves the screen.
final class TestDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        note("launched pid \(getpid())")
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "\(bundle).refresh", using: nil) { task in
            note("refresh started")
            task.expirationHandler = { note("refresh expired") }
            Thread.sleep(forTimeInterval: 0.2)
            note("refresh completed")
            task.setTaskCompleted(success: true)
            note("refresh completion answered")
        }
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "\(bundle).stuck", using: nil) { task in
            note("stuck started")
            task.expirationHandler = { note("stuck ignores its expiration") }
            while true { Thread.sleep(forTimeInterval: 60) }
        }
        if behaviours.contains("onmain") {
            // Registered `using: .main`: the handler and its expiration run on the main thread, as on iOS.
            BGTaskScheduler.shared.register(forTaskWithIdentifier: "\(bundle).onmain", using: .main) { task in
                dispatchPrecondition(condition: .onQueue(.main))
                MainActor.assumeIsolated { note("onmain started, main thread: \(Thread.isMainThread)") }
                task.setTaskCompleted(success: true)
            }
        }
        if behaviours.contains("spin") {
            Thread.detachNewThread {
                var counter = 0
                while true { counter &+= 1 }
            }
        }
        if behaviours.contains("report") {
            // 1000 s of GPU that only the app can report (the daemon measures CPU, not GPU), and 1 s of CPU.
            OffstageWork.report(cpuSeconds: 1, gpuSeconds: 1000, over: 1)
            note("reported work")
        }
        if behaviours.contains("fork") {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: "/bin/sleep")
            child.arguments = ["1000"]
            try? child.run()
            note("child pid \(child.processIdentifier)")
        }
        if behaviours.contains("setsid") {
            // A child in a session (and process group) of its own, which a signal to the app's group misses.
            let child = Process()
            child.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
            child.arguments = [
                "-w", "/bin/sh", "-c", #"echo "session child pid $$" >> "$0"; exec /bin/sleep 1000"#,
                "\(ProcessInfo.processInfo.environment["OFFSTAGE_TEST_DIR"] ?? "/tmp")/\(bundle).events",
            ]
            try? child.run()
        }
        return true
    }

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        note("push received \(userInfo["payload"] as? String ?? "")")
        completionHandler(.newData)
    }

    func applicationWillEnterForeground(_ application: UIApplication) { note("will enter foreground") }

    func applicationWillTerminate(_ application: UIApplication) {
        note("will terminate")
        if behaviours.contains("slowend") { Thread.sleep(forTimeInterval: 1) }
    }

    func applicationDidBecomeActive(_ application: UIApplication) {
        note("became active")
        if behaviours.contains("hammer") { Thread.detachNewThread { hammer(on: application, threads: 8, rounds: 50) } }
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        note("entered background")
        for kind in ["refresh", "stuck", "later", "onmain"] where behaviours.contains(kind) {
            let request = BGAppRefreshTaskRequest(identifier: "\(bundle).\(kind == "later" ? "refresh" : kind)")
            if kind == "later" { request.earliestBeginDate = Date(timeIntervalSinceNow: 3600) }
            do {
                try BGTaskScheduler.shared.submit(request)
                note("submitted \(kind)")
            } catch {
                note("submit failed: \(error)")
            }
        }
    }
}

/// What the hammer saw, from many threads: the assertion identifiers it got and the answers that were wrong
/// (behind a `Mutex`: every hammering thread adds to it).
final class Tally: Sendable {
    /// The identifiers and wrong answers so far.
    private struct Seen {
        var identifiers: [Int] = []
        var wrong: [String] = []
    }

    private let seen = Mutex(Seen())

    func add(_ identifier: Int, problems: [String]) {
        seen.withLock {
            $0.identifiers.append(identifier)
            $0.wrong += problems
        }
    }

    var summary: (calls: Int, distinct: Int, wrong: [String]) {
        seen.withLock { ($0.identifiers.count, Set($0.identifiers).count, $0.wrong) }
    }
}

/// One round of the calls UIKit lets any thread make: begin an assertion, submit a request, end the assertion.
/// A crossed answer shows as an invalid identifier or a failed submit. Returns the problems seen.
func hammerRound(_ name: String, on app: UIApplication) -> (identifier: Int, problems: [String]) {
    let identifier = app.beginBackgroundTask(withName: name) {}
    var problems: [String] = []
    if identifier == .invalid { problems.append("\(name): invalid identifier") }
    do {
        try BGTaskScheduler.shared.submit(BGAppRefreshTaskRequest(identifier: "\(bundle).refresh"))
    } catch { problems.append("\(name): submit failed: \(error)") }
    app.endBackgroundTask(identifier)
    return (identifier.rawValue, problems)
}

/// A round on the main actor, where UIKit's main-actor properties may be read too: the state and the time left,
/// whose answers would be wrong if crossed with another thread's.
@MainActor func mainHammerRound(_ name: String, on app: UIApplication) -> (identifier: Int, problems: [String]) {
    var (identifier, problems) = hammerRound(name, on: app)
    if app.applicationState != .active { problems.append("\(name): state \(app.applicationState)") }
    if app.backgroundTimeRemaining < 1e300 { problems.append("\(name): time \(app.backgroundTimeRemaining)") }
    return (identifier, problems)
}

/// Calls the system from `threads` threads at once, and from the main queue, `rounds` times each; then
/// notes how many calls were made, how many distinct identifiers came back and how many answers were wrong.
func hammer(on app: UIApplication, threads: Int, rounds: Int) {
    let tally = Tally()
    let done = DispatchGroup()
    for thread in 0..<threads {
        done.enter()
        Thread.detachNewThread {
            for index in 0..<rounds {
                let (identifier, problems) = hammerRound("t\(thread)-\(index)", on: app)
                tally.add(identifier, problems: problems)
            }
            done.leave()
        }
    }
    done.enter()
    DispatchQueue.global().async {
        for index in 0..<rounds {
            let (identifier, problems) = DispatchQueue.main.sync {
                MainActor.assumeIsolated { mainHammerRound("main-\(index)", on: app) }
            }
            tally.add(identifier, problems: problems)
        }
        done.leave()
    }
    done.wait()
    let (calls, distinct, wrong) = tally.summary
    note("hammer: \(calls) rounds, \(distinct) distinct identifiers, \(wrong.count) wrong answers")
    for problem in wrong.prefix(5) { note("hammer problem: \(problem)") }
}

guard OffstageApplication.isLaunchedByDaemon else {
    FileHandle.standardError.write(Data("offstage-testapp: run me under `offstage daemon`\n".utf8))
    exit(2)
}
OffstageApplication.main { TestDelegate() }
