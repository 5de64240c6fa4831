import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// A refresh paced by run-loop timers, as apps write polling and timeouts: a repeating `Timer.scheduledTimer` on the
/// main run loop (the handler runs on the main queue), invalidated after its third tick, and a one-shot `Timer`
/// added to `RunLoop.main` in the common modes from a background queue.
nonisolated final class RunLoopTimerApp: UIApplicationDelegate, @unchecked Sendable {
    static let refresh = "com.example.timers.refresh"
    let sightings: Sightings
    private var ticks = 0

    init(sightings: Sightings) { self.sightings = sightings }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: .main) { task in
            self.refresh(task)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        submitAppRefresh(Self.refresh, after: 24 * 3600)
    }

    func refresh(_ task: BGTask) {
        let started = Date()
        let sightings = sightings
        @Sendable func note(_ what: String) {
            sightings.note("\(what) at +\(Date().timeIntervalSince(started)) s, main thread: \(Thread.isMainThread)")
        }
        note("launch handler")
        _ = Timer.scheduledTimer(withTimeInterval: 5, repeats: true) { timer in
            self.ticks += 1
            note("tick \(self.ticks)")
            guard self.ticks == 3 else { return }
            timer.invalidate()
            task.setTaskCompleted(success: true)
        }
        DispatchQueue.global().async {
            note("background queue")
            let timeout = Timer(fire: Date(timeIntervalSinceNow: 2), interval: 0, repeats: false) { _ in
                dispatchPrecondition(condition: .onQueue(.main))
                note("one-shot in the common modes")
            }
            RunLoop.main.add(timeout, forMode: .common)
        }
    }
}

/// A processing task paced by `DispatchSource` timers: a repeating timer on a serial queue, cancelled after its
/// third event (its cancel handler runs on that queue), and a one-shot timer on the main queue.
nonisolated final class DispatchTimerApp: UIApplicationDelegate, @unchecked Sendable {
    static let refresh = "com.example.sourcetimers.refresh"
    let sightings: Sightings
    private let queue = DispatchQueue(label: "com.example.sourcetimers.worker")
    private var timers: [any DispatchSourceTimer] = []

    init(sightings: Sightings) { self.sightings = sightings }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: nil) { task in
            self.refresh(task)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        submitAppRefresh(Self.refresh, after: 24 * 3600)
    }

    func refresh(_ task: BGTask) {
        let started = Date()
        let sightings = sightings
        func note(_ what: String) { sightings.note("\(what) at +\(Date().timeIntervalSince(started)) s") }
        var events = 0
        let repeating = DispatchSource.makeTimerSource(queue: queue)
        repeating.schedule(deadline: .now() + 8, repeating: 8)
        repeating.setEventHandler { [queue] in
            dispatchPrecondition(condition: .onQueue(queue))
            events += 1
            note("event \(events)")
            if events == 3 { repeating.cancel() }
        }
        repeating.setCancelHandler { [queue] in
            dispatchPrecondition(condition: .onQueue(queue))
            note("cancelled")
            task.setTaskCompleted(success: true)
        }
        repeating.resume()
        let once = DispatchSource.makeTimerSource(queue: .main)
        once.schedule(deadline: .now() + 7)
        once.setEventHandler { note("one-shot on the main queue: \(Thread.isMainThread)") }
        once.activate()
        timers = [repeating, once]
    }
}

@Suite struct TimerTests {
    @Test func runLoopTimersFireInVirtualTimeAsMainThreadWork() throws {
        let sightings = Sightings()
        let app = "com.example.timers"
        let records = try RealCodeRun.launchingTask(
            RunLoopTimerApp.refresh, of: manifest(app, identifiers: [RunLoopTimerApp.refresh])
        ) { @Sendable in RunLoopTimerApp(sightings: sightings) }.run()
        #expect(
            sightings.lines == [
                "launch handler at +0.0 s, main thread: true",
                "background queue at +0.0 s, main thread: false",
                "one-shot in the common modes at +2.0 s, main thread: true",
                "tick 1 at +5.0 s, main thread: true",
                "tick 2 at +10.0 s, main thread: true",
                "tick 3 at +15.0 s, main thread: true",
            ])
        let completed = records.of(.completed, app, task: RunLoopTimerApp.refresh)
        #expect(completed.map(\.at.seconds) == [115])
        #expect(completed.map(\.succeeded) == [true])
    }

    @Test func dispatchSourceTimersFireInVirtualTimeOnTheirQueues() throws {
        let sightings = Sightings()
        let app = "com.example.sourcetimers"
        let records = try RealCodeRun.launchingTask(
            DispatchTimerApp.refresh, of: manifest(app, identifiers: [DispatchTimerApp.refresh])
        ) { @Sendable in DispatchTimerApp(sightings: sightings) }.run()
        #expect(
            sightings.lines == [
                "one-shot on the main queue: true at +7.0 s", "event 1 at +8.0 s", "event 2 at +16.0 s",
                "event 3 at +24.0 s", "cancelled at +24.0 s",
            ])
        #expect(records.of(.completed, app, task: DispatchTimerApp.refresh).map(\.at.seconds) == [124])
    }

    @Test func timersGiveTheSameRecordsInTwentyRuns() throws {
        let app = "com.example.sourcetimers"
        let texts = try RealCodeRun.launchingTask(
            DispatchTimerApp.refresh, of: manifest(app, identifiers: [DispatchTimerApp.refresh])
        ) { @Sendable in DispatchTimerApp(sightings: Sightings()) }.texts(runs: 20)
        #expect(Set(texts).count == 1)
    }
}
