import Foundation
import OffstageAppContext
public import OffstageCore

/// One running app process as OffstageKit sees it: its `UIApplication`, its `BGTaskScheduler`,
/// its delegate, handlers and live tasks. Hosts create one per launch and deliver the system's effects to it.
/// In a real process app code calls it from any thread (a submit from a background queue while the main
/// thread runs a callback): its mutable state is behind a lock, never held while app code or the system runs.
/// Unchecked because of its `lazy` objects (application, scheduler…), which refer back to it and are made on
/// first use, on the app's main thread before its code runs.
public final class AppRuntime: @unchecked Sendable {
    public let bundleIdentifier: BundleID
    public let link: any SystemLink
    public private(set) lazy var application = UIApplication(runtime: self)
    public private(set) lazy var scheduler = BGTaskScheduler(runtime: self)
    /// The app's `AVAudioSession.sharedInstance()` and `UNUserNotificationCenter.current()`.
    private(set) lazy var audioSession = AVAudioSession(runtime: self)
    private(set) lazy var notificationCenter = UNUserNotificationCenter(runtime: self)
    let makeDelegate: @MainActor () -> any UIApplicationDelegate
    /// Whether UIKit's notifications are posted for this app: false for an app with no code of its own to hear
    /// them (a declarative scenario app), since they go through the process-wide `OperationQueue.main`.
    public let postsNotifications: Bool
    /// The delegate, launch handlers by identifier, live tasks by ID and assertion expiration handlers.
    private let registry = LockedValue(Registry())
    /// The app's `CLLocationManager`s, for location events (§7).
    let locations = LocationRegistry()
    /// The app's scene, if it is scene-based (Scenes/).
    let scenes = SceneStage()
    /// Transfers of background sessions the system carries on, until it hands over their events.
    private let backgroundLoads = LockedValue<[BackgroundLoad]>([])

    /// What app code and the system's effects change, from any thread.
    private struct Registry {
        var delegate: (any UIApplicationDelegate)?
        var launchHandlers: [String: LaunchHandler] = [:]
        var tasks: [Int: BGTask] = [:]
        var assertionHandlers: [Int: () -> Void] = [:]
        /// The options this launch's callbacks receive (nil: launched by the user or for a task).
        var launchOptions: [UIApplication.LaunchOptionsKey: Any]?
        /// Work going on now (`OffstageWork.begin`), in the order it began, and the number of the next.
        var workInProgress: [OffstageWorkInProgress] = []
        var nextWork = 0
    }

    public init(
        bundleIdentifier: BundleID, link: any SystemLink, postsNotifications: Bool = true,
        makeDelegate: @escaping @MainActor () -> any UIApplicationDelegate
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.link = link
        self.postsNotifications = postsNotifications
        self.makeDelegate = makeDelegate
        // Made now, while one thread has the runtime: a lazy property first read by two threads at once races.
        _ = application
        _ = scheduler
        _ = audioSession
        _ = notificationCenter
        if link.simulatesNetwork { OffstageURLProtocol.registration }
    }

    /// The process ended (the host let go of it): its `UIApplication` stays allocated, delegate-less, so that no
    /// later app's is made at its address and matches an observer this app left on `NotificationCenter.default`.
    deinit { UIApplication.retire(application) }

    var delegate: (any UIApplicationDelegate)? { registry.value.delegate }

    /// Makes the app's delegate (or an extension's principal) on the main actor, as UIKit makes it on the main
    /// thread: the host delivers every callback on the app's main queue.
    private func madeDelegate() -> any UIApplicationDelegate {
        // Unchecked: `assumeIsolated` returns only `Sendable` values, which a delegate is not; it is made and read
        // on this thread.
        nonisolated(unsafe) var made: (any UIApplicationDelegate)?
        MainActor.assumeIsolated { made = makeDelegate() }
        return made!
    }

    /// Calls the app delegate, if there is one, on the main actor: UIKit declares `UIApplicationDelegate`
    /// main-actor isolated and calls it on the main thread, where the host runs every delegate callback.
    func onMain(_ call: @MainActor (any UIApplicationDelegate) -> Void) {
        guard let delegate else { return }
        MainActor.assumeIsolated { call(delegate) }
    }

    /// A registered launch handler and the queue it asked to run on (nil: the system's background queue).
    struct LaunchHandler {
        var queue: DispatchQueue?
        var handler: (BGTask) -> Void
    }

    func setLaunchHandler(_ handler: @escaping (BGTask) -> Void, on queue: DispatchQueue?, for identifier: String) {
        registry.withValue { $0.launchHandlers[identifier] = LaunchHandler(queue: queue, handler: handler) }
    }

    func setAssertionHandler(_ handler: (() -> Void)?, for identifier: Int) {
        registry.withValue { $0.assertionHandlers[identifier] = handler }
    }

    /// Starts tracking work the app's code began, until it ends or the process does.
    func beginWork(_ total: OffstageWork) -> OffstageWorkInProgress {
        let number = registry.withValue { registry in
            defer { registry.nextWork += 1 }
            return registry.nextWork
        }
        let work = OffstageWorkInProgress(total, runtime: self, number: number)
        registry.withValue { $0.workInProgress.append(work) }
        return work
    }

    /// The work ended: the runtime lets go of it.
    func forgetWork(_ work: OffstageWorkInProgress) {
        registry.withValue { $0.workInProgress.removeAll { $0 === work } }
    }

    /// The process is ending (killed, crashed, jetsam, the device shut down): the system measured its work in
    /// progress up to now, so each piece is charged for its share done, in the order it began. Hosts call it.
    public func endWorkInProgress() {
        for work in registry.value.workInProgress.sorted(by: { $0.number < $1.number }) { work.end() }
    }

    /// Keeps a background session's transfer until the system hands over its events.
    func keepBackgroundLoad(_ load: BackgroundLoad) { backgroundLoads.withValue { $0.append(load) } }

    /// The transfers of `session` whose events the system hands over, in the order of `tasks`.
    func takeBackgroundLoads(session: String, tasks: [Int]) -> [BackgroundLoad] {
        backgroundLoads.withValue { loads in
            let taken = tasks.compactMap { task in loads.first { $0.session == session && $0.task == task } }
            loads.removeAll { load in load.session == session && tasks.contains(load.task) }
            return taken
        }
    }

    /// A task completed: the runtime lets go of it.
    func forgetTask(_ taskID: Int) { registry.withValue { _ = $0.tasks.removeValue(forKey: taskID) } }

    // MARK: Which app is running this code

    /// The runtime of the app whose code runs on this thread (or of the whole process, in a real one).
    public static var current: AppRuntime {
        guard let runtime = ThreadRuntime.current ?? processRuntime.value else {
            if offstage_thread_started_by_app() != 0 { stopAppStartedThread() }
            fatalError(
                "OffstageKit: UIApplication.shared or BGTaskScheduler.shared used on a thread with no app; "
                    + "in the simulator, app code runs on the threads the simulator starts")
        }
        return runtime
    }

    /// A thread the app's code started (`Thread`, `pthread_create`) called the system: in the simulator it runs in
    /// real time, outside the simulation, and cannot take part in it; the thread stops here for good (as a hung
    /// thread would), and the simulation and the rest of the app go on. Said once per process on standard error.
    private static func stopAppStartedThread() -> Never {
        warnOnce.withValue { warned in
            guard !warned else { return }
            warned = true
            FileHandle.standardError.write(
                Data(
                    ("OffstageKit: a thread the app started (Thread/pthread_create) used UIApplication.shared or "
                        + "BGTaskScheduler.shared; in the simulator such threads run outside the simulation, so it is "
                        + "stopped (the app goes on): hop to a queue (DispatchQueue.main.async) first\n").utf8))
        }
        offstage_app_thread_stopped()
        let never = NSCondition()
        never.lock()
        while true { never.wait() }
    }

    private static let warnOnce = LockedValue(false)

    /// The runtime of the app whose code runs on this thread, if any.
    static var currentIfBound: AppRuntime? { ThreadRuntime.current ?? processRuntime.value }

    /// Makes this runtime `current` for code on the calling thread (the simulator's app threads).
    public func bindToCurrentThread() { ThreadRuntime.bind(self) }

    /// The runtime of a real app process: one app per process, seen from every thread.
    private static let processRuntime = LockedValue<AppRuntime?>(nil)

    /// Makes this runtime `current` on every thread of the process (an app the daemon runs).
    public func bindToProcess() { Self.processRuntime.value = self }

    // MARK: Talking to the system

    /// Sends a call; a crash answer ends the app's code with iOS's message, as iOS would.
    @discardableResult
    func send(_ call: AppCall) -> AppCallResult {
        let result = link.call(call)
        switch result {
        case .crash(let message): link.crash(message)
        case .notRunning: link.crash("the app is no longer running")
        default: return result
        }
    }

    // MARK: Effects the host delivers

    /// Calls the delegate's life-cycle method, then tells the system it returned.
    public func deliver(_ callback: LifecycleCallback, token: Int) {
        let app = application
        switch callback {
        case .willFinishLaunching:
            let delegate = madeDelegate()
            let options = launchOptions()
            registry.withValue {
                $0.delegate = delegate
                $0.launchOptions = options
            }
            app.delegateStorage.value = delegate
            onMain { _ = $0.application(app, willFinishLaunchingWithOptions: options) }
        case .didFinishLaunching:
            let options = registry.value.launchOptions
            onMain { _ = $0.application(app, didFinishLaunchingWithOptions: options) }
        case .beginRequest:
            // An app extension: the catalog's object is its principal, not an app delegate; nothing else is called.
            let principal = madeDelegate()
            registry.withValue { $0.delegate = principal }
            (principal as? any NSExtensionRequestHandling)?.beginRequest(with: NSExtensionContext())
        default: deliverChange(callback, to: app)
        }
        if postsNotifications, let name = UIApplication.notification(after: callback) {
            NotificationCenter.postFromMainQueue(name, object: app)
        }
        send(.returned(token: token))
    }

    /// Why the system launched this process, as UIKit's `launchOptions`: the push's `userInfo` under
    /// `.remoteNotification`, `true` under `.location`; nil for a launch by the user or for a task.
    private func launchOptions() -> [UIApplication.LaunchOptionsKey: Any]? {
        guard case .launchOptions(let options) = send(.launchOptions), !options.isEmpty else { return nil }
        var dictionary: [UIApplication.LaunchOptionsKey: Any] = [:]
        if let payload = options.remoteNotification {
            dictionary[.remoteNotification] = Self.userInfo(payload: payload)
        }
        if options.location { dictionary[.location] = true }
        return dictionary
    }

    /// The `userInfo` of a background push: `aps` with `content-available`, and the push's payload.
    static func userInfo(payload: String) -> [AnyHashable: Any] {
        ["aps": ["content-available": 1], "payload": payload]
    }

    /// Calls the launch handler registered for the task's identifier with a new `BGTask`, on the queue it was
    /// registered with (`using:`), or here, on the host's background queue, when it gave none.
    public func startTask(_ run: TaskRun) {
        let registered = registry.withValue { $0.launchHandlers[run.request.identifier] }
        guard let registered else {
            link.crash("No launch handler registered for task with identifier \(run.request.identifier)")
        }
        let task = BGTask.make(for: run, runtime: self, queue: registered.queue)
        registry.withValue { $0.tasks[run.id] = task }
        Self.run(on: registered.queue) { registered.handler(task) }
    }

    /// Calls the task's expiration handler on its launch handler's queue; with none set, the task is completed
    /// unsuccessfully.
    public func expireTask(_ taskID: Int) {
        guard let task = registry.withValue({ $0.tasks[taskID] }) else { return }
        Self.run(on: task.queue) {
            if let handler = task.takeExpirationHandler() {
                handler()
            } else {
                task.setTaskCompleted(success: false)
            }
        }
    }

    /// Runs `work` on `queue`, or at once on the calling thread (the host's background queue) when nil.
    private static func run(on queue: DispatchQueue?, _ work: @escaping () -> Void) {
        guard let queue else { return work() }
        // Unchecked: the system's work for the app (not `Sendable`: it holds the app's objects) runs on its queue.
        nonisolated(unsafe) let work = work
        queue.async { work() }
    }

    /// Calls the expiration handlers of these `beginBackgroundTask` assertions.
    public func expireBackgroundTasks(_ ids: [Int]) {
        for id in ids {
            registry.withValue { $0.assertionHandlers.removeValue(forKey: id) }?()
        }
    }

    /// The user tapped a control named `action` in the app (the simulator's `tap` command).
    public func performUserAction(_ action: String) {
        (delegate as? any OffstageUserActions)?.performUserAction(action)
    }
}

/// An app that lets a simulated user tap its controls by name (`tap APP ACTION` in a scenario).
/// Not an Apple API: it stands in for the touches a real UI would receive.
public protocol OffstageUserActions: AnyObject {
    func performUserAction(_ action: String)
}

/// The system's clock, for app code that must let time pass (a real device's or the simulator's).
/// Not an Apple API: use it where iOS code would sleep or dispatch after a delay.
public enum OffstageClock {
    /// Lets `seconds` pass on this thread; in the simulator other events are delivered meanwhile.
    public static func sleep(seconds: Double) { AppRuntime.current.link.sleep(seconds: seconds) }

    /// Runs `work` on the app's thread after `seconds`.
    public static func after(seconds: Double, _ work: @escaping @Sendable () -> Void) {
        AppRuntime.current.link.after(seconds: seconds, work)
    }
}
