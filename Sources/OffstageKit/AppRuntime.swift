import Foundation
public import OffstageCore

/// One running app process as OffstageKit sees it: its `UIApplication`, its `BGTaskScheduler`,
/// its delegate, handlers and live tasks. Hosts create one per launch and deliver the system's effects to it.
public final class AppRuntime: @unchecked Sendable {
    public let bundleIdentifier: BundleID
    public let link: any SystemLink
    public private(set) lazy var application = UIApplication(runtime: self)
    public private(set) lazy var scheduler = BGTaskScheduler(runtime: self)
    let makeDelegate: () -> any UIApplicationDelegate
    var delegate: (any UIApplicationDelegate)?
    var launchHandlers: [String: (BGTask) -> Void] = [:]
    var tasks: [Int: BGTask] = [:]
    var assertionHandlers: [Int: () -> Void] = [:]
    /// The app's `CLLocationManager`s, for location events (§7).
    let locations = LocationRegistry()

    public init(
        bundleIdentifier: BundleID, link: any SystemLink, makeDelegate: @escaping () -> any UIApplicationDelegate
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.link = link
        self.makeDelegate = makeDelegate
    }

    // MARK: Which app is running this code

    /// The runtime of the app whose code runs on this thread (or of the whole process, in a real one).
    public static var current: AppRuntime {
        guard let runtime = ThreadRuntime.current ?? processRuntime.value else {
            fatalError(
                "OffstageKit: UIApplication.shared or BGTaskScheduler.shared used on a thread with no app; "
                    + "in the simulator, app code runs on the threads the simulator starts")
        }
        return runtime
    }

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
            let delegate = makeDelegate()
            self.delegate = delegate
            app.delegate = delegate
            _ = delegate.application(app, willFinishLaunchingWithOptions: nil)
        case .didFinishLaunching:
            _ = delegate?.application(app, didFinishLaunchingWithOptions: nil)
        case .didBecomeActive: delegate?.applicationDidBecomeActive(app)
        case .willResignActive: delegate?.applicationWillResignActive(app)
        case .didEnterBackground: delegate?.applicationDidEnterBackground(app)
        case .willEnterForeground: delegate?.applicationWillEnterForeground(app)
        case .willTerminate: delegate?.applicationWillTerminate(app)
        }
        send(.returned(token: token))
    }

    /// Calls the launch handler registered for the task's identifier with a new `BGTask`.
    public func startTask(_ run: TaskRun) {
        let task = BGTask.make(for: run, runtime: self)
        tasks[run.id] = task
        guard let handler = launchHandlers[run.request.identifier] else {
            link.crash("No launch handler registered for task with identifier \(run.request.identifier)")
        }
        handler(task)
    }

    /// Calls the task's expiration handler; with none set, the task is completed unsuccessfully.
    public func expireTask(_ taskID: Int) {
        guard let task = tasks[taskID] else { return }
        if let handler = task.expirationHandler {
            task.expirationHandler = nil
            handler()
        } else {
            task.setTaskCompleted(success: false)
        }
    }

    /// Calls the expiration handlers of these `beginBackgroundTask` assertions.
    public func expireBackgroundTasks(_ ids: [Int]) {
        for id in ids {
            assertionHandlers.removeValue(forKey: id)?()
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
