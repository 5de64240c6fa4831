// Apple's "Refreshing and Maintaining Your App Using Background Tasks" sample (ColorFeed, 2019) in its own
// style: each task's work is a chain of `Operation`s on an `OperationQueue`, the expiration handler cancels the
// queue, the last operation's completion block completes the task. Written anew for Offstage (no Core Data
// here: the feed's store is the `FeedStore` below); only the imports differ from iOS.
import OffstageKit

/// ColorFeed's delegate in the sample's OperationQueue style.
public class OperationsAppDelegate: UIResponder, UIApplicationDelegate {
    let store = FeedStore()

    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.colorfeed.wwdc25.appRefresh", using: nil) { task in
            self.handleAppRefresh(task: task as! BGAppRefreshTask)
        }
        BGTaskScheduler.shared.register(
            forTaskWithIdentifier: "com.example.apple-samplecode.ColorFeed.db_cleaning", using: nil
        ) { task in
            self.handleDatabaseCleaning(task: task as! BGProcessingTask)
        }
        return true
    }

    public func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleAppRefresh()
        scheduleDatabaseCleaningIfNeeded()
    }

    func scheduleAppRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: "com.colorfeed.wwdc25.appRefresh")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("Could not schedule app refresh: \(error)")
        }
    }

    /// Cleaning is asked for at most once a day (the sample keeps the date of the last cleaning).
    func scheduleDatabaseCleaningIfNeeded() {
        let lastCleanDate = store.lastCleaned ?? .distantPast
        let now = Date()
        guard now > lastCleanDate + 24 * 60 * 60 else { return }
        let request = BGProcessingTaskRequest(identifier: "com.example.apple-samplecode.ColorFeed.db_cleaning")
        request.requiresNetworkConnectivity = false
        request.requiresExternalPower = true
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            print("Could not schedule database cleaning: \(error)")
        }
    }

    func handleAppRefresh(task: BGAppRefreshTask) {
        scheduleAppRefresh()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let operations = [DownloadEntriesOperation(store: store), AddEntriesOperation(store: store)]
        operations[1].addDependency(operations[0])
        let lastOperation = operations.last!
        task.expirationHandler = {
            queue.cancelAllOperations()
        }
        lastOperation.completionBlock = {
            task.setTaskCompleted(success: !lastOperation.isCancelled)
        }
        queue.addOperations(operations, waitUntilFinished: false)
    }

    func handleDatabaseCleaning(task: BGProcessingTask) {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let cutoff = Date(timeIntervalSinceNow: -24 * 60 * 60)
        let cleanDatabaseOperation = DeleteFeedEntriesOperation(store: store, olderThan: cutoff)
        task.expirationHandler = {
            queue.cancelAllOperations()
        }
        cleanDatabaseOperation.completionBlock = {
            let success = !cleanDatabaseOperation.isCancelled
            if success {
                self.store.lastCleaned = Date()
            }
            task.setTaskCompleted(success: success)
        }
        queue.addOperation(cleanDatabaseOperation)
    }
}

/// The feed's entries by date, and when it was last cleaned. Operations run one at a time on their queue.
final class FeedStore {
    var entries: [Date] = []
    var downloaded: [Date] = []
    var lastCleaned: Date?
}

/// Downloads the latest entries: an asynchronous operation (its work goes on elsewhere and it says when it is
/// finished through KVO), taking 4 s and 80 kB as the WWDC25 sample's fetch does.
final class DownloadEntriesOperation: Operation {
    let store: FeedStore
    private var running = false
    private var done = false

    init(store: FeedStore) { self.store = store }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { running }
    override var isFinished: Bool { done }

    override func start() {
        guard !isCancelled else { return finish() }
        willChangeValue(forKey: "isExecuting")
        running = true
        didChangeValue(forKey: "isExecuting")
        let work = OffstageWork.begin(cpuSeconds: 0.8, bytes: 80_000, over: 4)
        DispatchQueue.global().asyncAfter(deadline: .now() + 4) {
            work.end()
            if !self.isCancelled { self.store.downloaded = [Date()] }
            self.finish()
        }
    }

    private func finish() {
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        running = false
        done = true
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}

/// Adds what was downloaded to the feed: a synchronous operation.
final class AddEntriesOperation: Operation {
    let store: FeedStore
    init(store: FeedStore) { self.store = store }

    override func main() {
        guard !isCancelled else { return }
        store.entries += store.downloaded
        store.downloaded = []
    }
}

/// Deletes entries older than a date, in 60 batches of 5 s at 40 % of a core, stopping when cancelled.
final class DeleteFeedEntriesOperation: Operation {
    let store: FeedStore
    let cutoff: Date

    init(store: FeedStore, olderThan cutoff: Date) {
        self.store = store
        self.cutoff = cutoff
    }

    override func main() {
        for _ in 0..<60 where !isCancelled {
            let work = OffstageWork.begin(cpuSeconds: 2, over: 5)
            Thread.sleep(forTimeInterval: 5)
            work.end()
        }
        guard !isCancelled else { return }
        store.entries.removeAll { $0 < cutoff }
    }
}
