import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// A promise-style chain of our own, as apps built on PromiseKit write their work: each step hands its value to
/// the next on a queue of its choosing; a cancelled chain rejects at its next step.
final class Chain<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: Result<Value, any Error>?
    private var waiting: [@Sendable (Result<Value, any Error>) -> Void] = []

    /// A chain that `start` settles once.
    init(_ start: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void) { start { self.settle($0) } }

    private func settle(_ result: Result<Value, any Error>) {
        lock.lock()
        guard outcome == nil else { return lock.unlock() }
        outcome = result
        let handlers = waiting
        lock.unlock()
        handlers.forEach { $0(result) }
    }

    /// Runs `handler` with the outcome once there is one.
    func whenSettled(_ handler: @escaping @Sendable (Result<Value, any Error>) -> Void) {
        lock.lock()
        if let outcome {
            lock.unlock()
            return handler(outcome)
        }
        waiting.append(handler)
        lock.unlock()
    }

    /// The next step: `step` takes the value after `seconds` on `queue`, unless `cancelled` says stop.
    func then<Next: Sendable>(
        on queue: DispatchQueue, after seconds: Double, unless cancelled: @escaping @Sendable () -> Bool,
        _ step: @escaping @Sendable (Value) -> Next
    ) -> Chain<Next> {
        Chain<Next> { settle in
            whenSettled { result in
                queue.asyncAfter(deadline: .now() + seconds) {
                    if cancelled() { return settle(.failure(CancellationError())) }
                    settle(result.map(step))
                }
            }
        }
    }
}

/// A processing task that runs a three-step chain (download, parse, save), each step taking `stepSeconds` on a
/// queue of its own; the expiration handler cancels the chain (it fails at its next step) and completes the task
/// at once, as Apple asks (a chain left to finish its step would be killed after the grace period).
nonisolated final class PromiseChainApp: UIApplicationDelegate, @unchecked Sendable {
    static let sync = "com.example.promises.sync"
    let stepSeconds: Double
    let sightings: Sightings
    private let cancelled = LockedFlag()

    init(stepSeconds: Double, sightings: Sightings) {
        self.stepSeconds = stepSeconds
        self.sightings = sightings
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.sync, using: nil) { task in
            self.sync(task)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        try? BGTaskScheduler.shared.submit(BGProcessingTaskRequest(identifier: Self.sync))
    }

    func sync(_ task: BGTask) {
        let queue = DispatchQueue(label: "com.example.promises.work")
        let stop: @Sendable () -> Bool = { self.cancelled.isSet }
        task.expirationHandler = {
            self.cancelled.set()
            task.setTaskCompleted(success: false)
        }
        Chain<Int> { $0(.success(0)) }
            .then(on: queue, after: stepSeconds, unless: stop) { _ in 40 }  // downloaded 40 items
            .then(on: queue, after: stepSeconds, unless: stop) { "\($0) parsed" }
            .then(on: .main, after: stepSeconds, unless: stop) { "\($0), saved" }
            .whenSettled { result in
                switch result {
                case .success(let summary): self.sightings.note(summary)
                case .failure(let error): self.sightings.note("stopped: \(error is CancellationError)")
                }
                task.setTaskCompleted(success: (try? result.get()) != nil)
            }
    }
}

/// A flag set once from any thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

@Suite struct PromiseChainTests {
    let app = "com.example.promises"

    func run(stepSeconds: Double, sightings: Sightings) throws -> [Record] {
        let manifest = AppManifest(
            bundleIdentifier: BundleID(app), backgroundModes: [.processing],
            permittedIdentifiers: [PromiseChainApp.sync])
        return try RealCodeRun.launchingTask(PromiseChainApp.sync, of: manifest, duration: 2000) {
            @Sendable in PromiseChainApp(stepSeconds: stepSeconds, sightings: sightings)
        }.run()
    }

    @Test func aPromiseChainCompletesItsProcessingTaskStepByStepInVirtualTime() throws {
        let sightings = Sightings()
        let records = try run(stepSeconds: 20, sightings: sightings)
        #expect(sightings.lines == ["40 parsed, saved"])
        let completed = records.of(.completed, app, task: PromiseChainApp.sync)
        #expect(completed.map(\.at.seconds) == [160])
        #expect(completed.first?.succeeded == true)
    }

    @Test func aPromiseChainLongerThanItsTaskStopsAtTheNextStepAfterExpiration() throws {
        let sightings = Sightings()
        let records = try run(stepSeconds: 400, sightings: sightings)
        let expired = records.of(.expired, app, task: PromiseChainApp.sync)
        #expect(expired.count == 1)
        #expect(!sightings.lines.contains("40 parsed, saved"))
        let completed = records.of(.completed, app, task: PromiseChainApp.sync)
        #expect(completed.map(\.at) == expired.map(\.at))
        #expect(completed.first?.succeeded == false)
        #expect(records.of(.killed, app).isEmpty)
    }
}
