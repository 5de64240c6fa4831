import Foundation
import OffstageCore
import OffstageKit

/// A declarative scenario app, played by ordinary OffstageKit code: it registers, submits, begins
/// and ends background tasks and completes its tasks exactly as its `AppBehaviour` says. Not main-actor
/// isolated (UIKit's delegate protocol is): the simulator makes it and calls its other roles from any thread.
nonisolated final class ScriptedApp: UIApplicationDelegate, NSExtensionRequestHandling, OffstageUserActions,
    CLLocationManagerDelegate, @unchecked Sendable
{
    let behaviour: AppBehaviour
    unowned let simulation: Simulation
    private var madeLocationManager: CLLocationManager?
    private var madeDownloads: ScriptedDownloads?

    /// Made on first use on the app's thread (at launch when the app reacts to location events).
    private var locationManager: CLLocationManager {
        if let madeLocationManager { return madeLocationManager }
        let manager = CLLocationManager()
        manager.delegate = self
        madeLocationManager = manager
        return manager
    }

    /// The app's background sessions (made on first use).
    private var downloads: ScriptedDownloads {
        if let madeDownloads { return madeDownloads }
        let made = ScriptedDownloads()
        madeDownloads = made
        return made
    }

    /// Keeps the completion handler until the session's events have all been delivered, as Apple's sample does.
    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) { downloads.eventsWillCome(for: identifier, completionHandler) }

    init(behaviour: AppBehaviour, simulation: Simulation) {
        self.behaviour = behaviour
        self.simulation = simulation
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        start()
        return true
    }

    /// An app extension's start: what an app does when it finishes launching.
    func beginRequest(with context: NSExtensionContext) { start() }

    /// Registers the behaviour's handlers and runs its launch actions.
    private func start() {
        for identifier in behaviour.register { register(identifier) }
        if !behaviour.onLocation.isEmpty { _ = locationManager }
        perform(behaviour.onLaunch)
    }

    func applicationDidBecomeActive(_ application: UIApplication) { perform(behaviour.onBecomeActive) }
    func applicationDidEnterBackground(_ application: UIApplication) { perform(behaviour.onEnterBackground) }
    func performUserAction(_ action: String) { perform(behaviour.onTap[action] ?? []) }

    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any],
        fetchCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) { handle(behaviour.onPush, completionHandler) }

    func application(
        _ application: UIApplication,
        performFetchWithCompletionHandler completionHandler: @escaping (UIBackgroundFetchResult) -> Void
    ) { handle(behaviour.onFetch, completionHandler) }

    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        perform(behaviour.onLocation)
    }
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        perform(behaviour.onLocation)
    }
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        perform(behaviour.onLocation)
    }

    /// A push or fetch handler: works for the plan's duration, runs its actions, then calls the completion
    /// handler with the plan's result (or never, if it has none).
    private func handle(_ plan: EventBehaviour, _ completionHandler: @escaping (UIBackgroundFetchResult) -> Void) {
        let completion = Box(completionHandler)
        OffstageClock.after(seconds: seconds(plan.work)) { [unowned self] in
            self.perform(plan.then)
            guard let result = plan.result, let answer = UIBackgroundFetchResult(rawValue: UInt(result.rawValue))
            else { return }
            completion.value(answer)
        }
    }

    private func register(_ identifier: String) {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { [unowned self] task in
            self.run(task)
        }
    }

    private func seconds(_ duration: WorkDuration) -> Double { simulation.random.seconds(duration) }

    private func perform(_ actions: [BehaviourAction]) {
        for action in actions {
            switch action {
            case .submit(let template):
                try? BGTaskScheduler.shared.submit(request(from: template))
            case .backgroundTask(let name, let work, let leak, let load):
                beginBackgroundTask(name: name, work: seconds(work), leak: leak, load: load)
            case .work(let duration, let load):
                let work = seconds(duration)
                let progress = begin(load, over: work)
                OffstageClock.sleep(seconds: work)
                progress.end()
            case .load(let duration, let load):
                let work = seconds(duration)
                let progress = begin(load, over: work)
                OffstageClock.after(seconds: work) { progress.end() }
            case .register(let identifier):
                register(identifier)
            case .cancel(let identifier):
                BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: identifier)
            case .cancelAll:
                BGTaskScheduler.shared.cancelAllTaskRequests()
            case .fetchInterval(let interval):
                AppRuntime.current.application.requestMinimumBackgroundFetchInterval(
                    interval ?? UIApplication.backgroundFetchIntervalNever)
            case .startMode(let mode): setMode(mode, active: true)
            case .stopMode(let mode): setMode(mode, active: false)
            case .monitorSignificantChanges(let on):
                if on {
                    locationManager.startMonitoringSignificantLocationChanges()
                } else {
                    locationManager.stopMonitoringSignificantLocationChanges()
                }
            case .backgroundDownload(let download): downloads.start(download)
            case .monitorRegion(let identifier):
                locationManager.startMonitoring(
                    for: CLCircularRegion(center: CLLocationCoordinate2D(), radius: 100, identifier: identifier))
            }
        }
    }

    /// Starts or stops a mode's work: location through `CLLocationManager`, the others through
    /// `OffstageBackgroundActivity` (the loader accepts only continuous modes).
    private func setMode(_ mode: BackgroundMode, active: Bool) {
        if mode == .location {
            locationManager.allowsBackgroundLocationUpdates = true
            if active { locationManager.startUpdatingLocation() } else { locationManager.stopUpdatingLocation() }
        } else if let activity = OffstageBackgroundActivity(rawValue: mode.rawValue) {
            if active { activity.begin() } else { activity.end() }
        }
    }

    private func request(from template: RequestTemplate) -> BGTaskRequest {
        let request = BGTaskRequest.make(from: template.taskRequest)
        request.earliestBeginDate = template.after.map { Date(timeIntervalSinceNow: $0) }
        return request
    }

    /// Begins an assertion and ends it after `work` seconds (unless it leaks); a good citizen
    /// also ends it in the expiration handler, stopping the work. The work done is reported either way.
    private func beginBackgroundTask(name: String, work: Double, leak: Bool, load: WorkLoad) {
        let application = AppRuntime.current.application
        let box = Box(UIBackgroundTaskIdentifier.invalid)
        let progress = Box<OffstageWorkInProgress?>(nil)
        box.value = application.beginBackgroundTask(withName: name) {
            guard !leak, box.value != .invalid else { return }
            progress.value?.end()
            application.endBackgroundTask(box.value)
            box.value = .invalid
        }
        guard box.value != .invalid else { return }
        progress.value = begin(load, over: work)
        OffstageClock.after(seconds: work) {
            guard box.value != .invalid else { return }
            progress.value?.end()
            guard !leak else { return }
            application.endBackgroundTask(box.value)
            box.value = .invalid
        }
    }

    /// Begins `seconds` of work with this load (CPU and GPU in cores, bytes in all): ended, or cut short by the
    /// process's end, it reports CPU and GPU for the time worked and the bytes in proportion.
    private func begin(_ load: WorkLoad, over seconds: Double) -> OffstageWorkInProgress {
        OffstageWork.begin(
            cpuSeconds: load.cpu * seconds, gpuSeconds: load.gpu * seconds, bytes: load.bytes, over: seconds)
    }

    /// The launch handler: works for the behaviour's duration, then completes (unless stopped).
    private func run(_ task: BGTask) {
        let plan = taskBehaviour(for: task.identifier)
        let stopped = Box(false)
        let work = seconds(plan.work)
        let progress = begin(plan.load, over: work)
        switch plan.onExpiration {
        case .stop:
            task.expirationHandler = {
                stopped.value = true
                progress.end()
                task.setTaskCompleted(success: false)
            }
        case .ignore:
            task.expirationHandler = {}
        case .none:
            task.expirationHandler = nil
        }
        if let continued = task as? BGContinuedProcessingTask {
            continued.progress.totalUnitCount = Int64(max(1, work.rounded(.up)))
            reportProgress(of: continued, work: work, done: 0, stopped: stopped)
        }
        OffstageClock.after(seconds: work) { [unowned self] in
            guard !stopped.value else { return }
            progress.end()
            if let continued = task as? BGContinuedProcessingTask {
                continued.progress.completedUnitCount = continued.progress.totalUnitCount
            }
            self.perform(plan.then)
            task.setTaskCompleted(success: plan.success)
        }
    }

    /// Seconds of work between two progress reports of a continued-processing task.
    static let progressStep = 10.0

    /// Reports a continued-processing task's progress, one unit per second of work, every `progressStep`
    /// until its work ends, so that the system's stall monitor sees it move.
    private func reportProgress(of task: BGContinuedProcessingTask, work: Double, done: Double, stopped: Box<Bool>) {
        let next = done + Self.progressStep
        guard next < work else { return }
        OffstageClock.after(seconds: Self.progressStep) { [unowned self] in
            guard !stopped.value else { return }
            task.progress.completedUnitCount = Int64(next)
            self.reportProgress(of: task, work: work, done: next, stopped: stopped)
        }
    }

    /// The behaviour for a task: by exact identifier, else by a matching wildcard, else the default.
    private func taskBehaviour(for identifier: String) -> TaskBehaviour {
        if let exact = behaviour.tasks[identifier] { return exact }
        let wildcard = behaviour.tasks.keys.sorted().first { pattern in
            AppManifest.isWildcard(pattern) && identifier.hasPrefix(String(pattern.dropLast()))
        }
        return wildcard.flatMap { behaviour.tasks[$0] } ?? TaskBehaviour()
    }
}

/// A mutable value shared by an app's closures (they run one at a time on the app's thread).
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
