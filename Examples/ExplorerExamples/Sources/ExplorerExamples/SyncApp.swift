public import Foundation
public import OffstageKit

/// What the example apps keep on "disk": it outlives their processes, so an invariant can ask what a kill lost.
/// Times are seconds from the start of the history (the app's wall clock minus the scenario's start).
public final class ExampleDisk: @unchecked Sendable {
    /// An empty disk.
    public init() {}

    /// The wall-clock second at which histories start (the scenario's `startEpoch`).
    public static let startEpoch = 1_795_219_200.0

    private let lock = NSLock()
    private var addedItems: [(item: String, at: Double)] = []
    private var savedItems: [String: Double] = [:]
    private var chunkWrites: [Double] = []

    /// Items the user added, with when.
    public var added: [(item: String, at: Double)] { lock.withLock { addedItems } }
    /// When each saved item was saved.
    public var saved: [String: Double] { lock.withLock { savedItems } }
    /// When the refresh wrote each chunk it fetched.
    public var writes: [Double] { lock.withLock { chunkWrites } }

    /// Forgets everything (a fresh install).
    public func reset() {
        lock.withLock {
            addedItems = []
            savedItems = [:]
            chunkWrites = []
        }
    }

    /// Seconds since the history's start, on the app's (virtual) wall clock.
    static var now: Double { ((Date().timeIntervalSince1970 - startEpoch) * 1000).rounded() / 1000 }

    func noteAdded(_ item: String) { lock.withLock { addedItems.append((item, Self.now)) } }

    func save(_ items: [String]) {
        lock.withLock { for item in items where savedItems[item] == nil { savedItems[item] = Self.now } }
    }

    func writeChunk() { lock.withLock { chunkWrites.append(Self.now) } }
}

/// A sync app written as iOS apps are, correctly: it registers its refresh at launch, schedules it when it
/// leaves the screen and again in each refresh; the refresh fetches three chunks (each awaits a 3 s wait and a
/// `URLSession` fetch) and writes each, completes on every path, and its expiration handler cancels the work.
/// Items the user adds are saved when it leaves the screen, inside a `beginBackgroundTask` it always ends.
///
/// Each classic bug is a subclass that overrides one step (BuggyApps.swift); the explorer finds each one.
open class SyncApp: UIApplicationDelegate, OffstageUserActions, @unchecked Sendable {
    /// The refresh's identifier; `nonisolated`, a constant that invariants read off the main actor.
    public nonisolated static let refresh = "com.example.sync.refresh"
    public static let feed = URL(string: "https://api.example.com/items")!
    public let disk: ExampleDisk
    /// The refresh's work in progress.
    public var refreshWork: Task<Void, Never>?
    /// Items added since the last save.
    public var unsaved: [String] = []
    /// The save's background task while it runs (`.invalid` otherwise), which its expiration handler ends.
    private var saveAssertion = UIBackgroundTaskIdentifier.invalid
    private var addedCount = 0

    public init(disk: ExampleDisk) { self.disk = disk }

    open func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        registerRefresh()
        return true
    }

    /// Registers the refresh's launch handler (before launch finishes, as iOS requires), on the main queue: the
    /// handler then runs on the main actor, where the app's state lives.
    public func registerRefresh() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.refresh, using: .main) { task in
            MainActor.assumeIsolated { self.handleRefresh(task as! BGAppRefreshTask) }
        }
    }

    open func applicationDidEnterBackground(_ application: UIApplication) {
        scheduleRefresh()
        saveItems(application)
    }

    /// Asks for the next refresh, 15 minutes from now at the earliest.
    public func scheduleRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: Self.refresh)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 15 * 60)
        try? BGTaskScheduler.shared.submit(request)
    }

    /// Saves the items added since the last save, inside a background task it ends on every path.
    open func saveItems(_ application: UIApplication) {
        saveAssertion = application.beginBackgroundTask(withName: "save items") {
            self.endSaveAssertion(application)
        }
        disk.save(unsaved)
        unsaved = []
        endSaveAssertion(application)
    }

    /// Ends the save's background task, once: from the save or from its expiration handler, whichever comes first.
    private func endSaveAssertion(_ application: UIApplication) {
        guard saveAssertion != .invalid else { return }
        application.endBackgroundTask(saveAssertion)
        saveAssertion = .invalid
    }

    /// The user adds an item ("add").
    public func performUserAction(_ action: String) {
        guard action == "add" else { return }
        addedCount += 1
        let item = "item \(addedCount) added at \(ExampleDisk.now) s"
        unsaved.append(item)
        disk.noteAdded(item)
    }

    /// The refresh: schedules the next one, starts the work in a `Task`, and sets the expiration handler.
    public func handleRefresh(_ task: BGAppRefreshTask) {
        scheduleRefresh()
        refreshWork = Task { await refresh(task) }
        setExpirationHandler(of: task)
    }

    /// The refresh's work: fetches and writes three chunks, then completes, on the error path too.
    open func refresh(_ task: BGAppRefreshTask) async {
        do {
            try await fetchAndWriteChunks()
            task.setTaskCompleted(success: true)
        } catch {
            completeAfterError(task)
        }
    }

    /// The error path (a failed or cancelled fetch): the task is completed, unsuccessfully.
    open func completeAfterError(_ task: BGAppRefreshTask) { task.setTaskCompleted(success: false) }

    /// The expiration handler cancels the work, whose error path then completes the task.
    open func setExpirationHandler(of task: BGAppRefreshTask) {
        task.expirationHandler = { self.refreshWork?.cancel() }
    }

    /// Three chunks, each a 3 s wait and a fetch, written once fetched unless the work was cancelled.
    public func fetchAndWriteChunks() async throws {
        for _ in 0..<3 {
            try await fetchChunk()
            try Task.checkCancellation()
            disk.writeChunk()
        }
    }

    /// One chunk: 3 s of waiting, then the feed (which fails without a network).
    public func fetchChunk() async throws {
        try await Task.sleep(for: .seconds(3))
        _ = try await URLSession.shared.data(from: Self.feed)
    }
}
