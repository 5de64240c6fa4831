import Foundation
import OffstageCore
import OffstageKit

/// A declarative scenario app, played by ordinary OffstageKit code: it registers, submits, begins
/// and ends background tasks and completes its tasks exactly as its `AppBehaviour` says.
final class ScriptedApp: UIResponder, UIApplicationDelegate, OffstageUserActions, @unchecked Sendable {
    let behaviour: AppBehaviour
    unowned let simulation: Simulation

    init(behaviour: AppBehaviour, simulation: Simulation) {
        self.behaviour = behaviour
        self.simulation = simulation
    }

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        for identifier in behaviour.register { register(identifier) }
        perform(behaviour.onLaunch)
        return true
    }

    func applicationDidBecomeActive(_ application: UIApplication) { perform(behaviour.onBecomeActive) }
    func applicationDidEnterBackground(_ application: UIApplication) { perform(behaviour.onEnterBackground) }
    func performUserAction(_ action: String) { perform(behaviour.onTap[action] ?? []) }

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
            case .backgroundTask(let name, let work, let leak):
                beginBackgroundTask(name: name, work: seconds(work), leak: leak)
            case .work(let duration):
                OffstageClock.sleep(seconds: seconds(duration))
            case .register(let identifier):
                register(identifier)
            case .cancel(let identifier):
                BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: identifier)
            case .cancelAll:
                BGTaskScheduler.shared.cancelAllTaskRequests()
            }
        }
    }

    private func request(from template: RequestTemplate) -> BGTaskRequest {
        let request = BGTaskRequest.make(from: template.taskRequest)
        request.earliestBeginDate = template.after.map { Date(timeIntervalSinceNow: $0) }
        return request
    }

    /// Begins an assertion and ends it after `work` seconds (unless it leaks); a good citizen
    /// also ends it in the expiration handler.
    private func beginBackgroundTask(name: String, work: Double, leak: Bool) {
        let application = UIApplication.shared
        let box = Box(UIBackgroundTaskIdentifier.invalid)
        box.value = application.beginBackgroundTask(withName: name) {
            guard !leak else { return }
            application.endBackgroundTask(box.value)
            box.value = .invalid
        }
        guard !leak, box.value != .invalid else { return }
        OffstageClock.after(seconds: work) {
            guard box.value != .invalid else { return }
            application.endBackgroundTask(box.value)
            box.value = .invalid
        }
    }

    /// The launch handler: works for the behaviour's duration, then completes (unless stopped).
    private func run(_ task: BGTask) {
        let plan = taskBehaviour(for: task.identifier)
        let stopped = Box(false)
        switch plan.onExpiration {
        case .stop:
            task.expirationHandler = {
                stopped.value = true
                task.setTaskCompleted(success: false)
            }
        case .ignore:
            task.expirationHandler = {}
        case .none:
            task.expirationHandler = nil
        }
        let work = seconds(plan.work)
        if let continued = task as? BGContinuedProcessingTask {
            continued.progress.totalUnitCount = Int64(max(1, work.rounded(.up)))
            reportProgress(of: continued, work: work, done: 0, stopped: stopped)
        }
        OffstageClock.after(seconds: work) { [unowned self] in
            guard !stopped.value else { return }
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
