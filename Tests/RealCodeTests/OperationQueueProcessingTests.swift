import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator
import Testing

/// An asynchronous `Operation` as apps write them: it starts work elsewhere and says when it is finished
/// through KVO on `isExecuting` and `isFinished`.
final class CleanBatchOperation: Operation, @unchecked Sendable {
    let seconds: Double
    private var executing = false
    private var finished = false

    init(seconds: Double) { self.seconds = seconds }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { executing }
    override var isFinished: Bool { finished }

    override func start() {
        guard !isCancelled else { return finish() }
        willChangeValue(forKey: "isExecuting")
        executing = true
        didChangeValue(forKey: "isExecuting")
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { self.finish() }
    }

    private func finish() {
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        executing = false
        finished = true
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}

/// A processing task driven by an `OperationQueue`, in the style of Apple's ColorFeed sample: the
/// operations' completion block completes the task, the expiration handler cancels the queue.
nonisolated final class OperationQueueApp: UIApplicationDelegate, @unchecked Sendable {
    static let cleaning = "com.example.ops.cleaning"
    let batches: Int
    let batchSeconds: Double
    let sightings: Sightings

    init(batches: Int, batchSeconds: Double, sightings: Sightings) {
        self.batches = batches
        self.batchSeconds = batchSeconds
        self.sightings = sightings
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.cleaning, using: nil) { task in
            self.handleDatabaseCleaning(task: task as! BGProcessingTask)
        }
        return true
    }

    func applicationDidEnterBackground(_ application: UIApplication) {
        let request = BGProcessingTaskRequest(identifier: Self.cleaning)
        request.requiresExternalPower = true
        try? BGTaskScheduler.shared.submit(request)
    }

    func handleDatabaseCleaning(task: BGProcessingTask) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let operations = (0..<batches).map { _ in CleanBatchOperation(seconds: batchSeconds) }
        for (earlier, later) in zip(operations, operations.dropFirst()) { later.addDependency(earlier) }
        let started = Date()
        task.expirationHandler = {
            self.sightings.note("expired after \(Date().timeIntervalSince(started)) s")
            queue.cancelAllOperations()
        }
        let last = operations.last!
        last.completionBlock = {
            self.sightings.note("finished after \(Date().timeIntervalSince(started)) s")
            task.setTaskCompleted(success: !last.isCancelled)
        }
        queue.addOperations(operations, waitUntilFinished: false)
    }
}

@Suite struct OperationQueueProcessingTests {
    let app = "com.example.ops"

    func scenario(batches: Int, expireAt: Double? = nil, sightings: Sightings) -> RealCodeRun {
        let expiry = expireAt.map { at($0, .simulateExpiration(BundleID(app), identifier: OperationQueueApp.cleaning)) }
        return .launchingTask(
            OperationQueueApp.cleaning, of: manifest(app, identifiers: [OperationQueueApp.cleaning]),
            then: expiry.map { [$0] } ?? [], duration: 600
        ) { @Sendable in OperationQueueApp(batches: batches, batchSeconds: 5, sightings: sightings) }
    }

    @Test func operationQueueProcessingCompletesAfterItsAsynchronousOperations() throws {
        let sightings = Sightings()
        let records = try scenario(batches: 6, sightings: sightings).run()
        let task = OperationQueueApp.cleaning
        #expect(records.of(.completed, app, task: task).map(\.at.seconds) == [130])
        #expect(records.of(.completed, app, task: task).first?.detail == .completed(success: true, seconds: 30))
        #expect(sightings.lines == ["finished after 30.0 s"])
    }

    @Test func operationQueueProcessingIsCancelledWhenItExpires() throws {
        let sightings = Sightings()
        let records = try scenario(batches: 60, expireAt: 112, sightings: sightings).run()
        let task = OperationQueueApp.cleaning
        #expect(records.of(.expired, app, task: task).map(\.at.seconds) == [112])
        // The running batch finishes at 115 s; the cancelled ones finish at once and the last one completes.
        #expect(records.of(.completed, app, task: task).map(\.at.seconds) == [115])
        #expect(records.of(.completed, app, task: task).first?.detail == .completed(success: false, seconds: 15))
        #expect(sightings.lines == ["expired after 12.0 s", "finished after 15.0 s"])
    }

    @Test func operationQueueProcessingGivesTheSameRecordsInTwentyRuns() throws {
        let texts = try scenario(batches: 60, expireAt: 112, sightings: Sightings()).texts(runs: 20)
        #expect(Set(texts).count == 1)
    }
}
