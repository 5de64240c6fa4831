import Foundation
import OffstageCore
import OffstageKit

/// One launch of a simulated app: its OffstageKit runtime, its coroutine threads, and whether it is frozen.
/// A new launch gets a new process (and generation), so work scheduled by a dead one is dropped.
final class SimulatedProcess: @unchecked Sendable {
    let app: BundleID
    let generation: Int
    private(set) var runtime: AppRuntime!
    /// The app's threads: work goes to an idle one, or a new one, as on a concurrent queue.
    private(set) var threads: [AppThread] = []
    /// The thread running app code right now, if any (app code asks for it to sleep or crash).
    var currentThread: AppThread?
    /// Suspended by the system: its timers and wake-ups wait for `resume`.
    var isSuspended = false
    /// Work that fell due while suspended, run on resume.
    var deferred: [() -> Void] = []

    init(
        app: BundleID, generation: Int, simulation: Simulation, makeDelegate: @escaping () -> any UIApplicationDelegate
    ) {
        self.app = app
        self.generation = generation
        let link = SimulatorLink(simulation: simulation, app: app, generation: generation)
        let runtime = AppRuntime(bundleIdentifier: app, link: link, makeDelegate: makeDelegate)
        self.runtime = runtime
        link.process = self
    }

    /// An idle thread for new work, started if every thread is busy.
    func idleThread() -> AppThread {
        if let idle = threads.first(where: \.isIdle) { return idle }
        let runtime = runtime!
        let thread = AppThread(
            name: "\(app) #\(generation).\(threads.count)", runtime: AppRuntimeBinding { runtime.bindToCurrentThread() }
        )
        threads.append(thread)
        return thread
    }

    /// The app's code crashed: none of it runs again.
    var crashed = false
}

/// The in-process `SystemLink` of a simulated app: calls go straight to the simulation's core,
/// sleeping parks the app's coroutine in virtual time.
final class SimulatorLink: SystemLink, @unchecked Sendable {
    unowned let simulation: Simulation
    let app: BundleID
    let generation: Int
    weak var process: SimulatedProcess?

    init(simulation: Simulation, app: BundleID, generation: Int) {
        self.simulation = simulation
        self.app = app
        self.generation = generation
    }

    func call(_ call: AppCall) -> AppCallResult { simulation.appCall(call, from: app) }

    func crash(_ message: String) -> Never {
        guard let process, let thread = process.currentThread else {
            fatalError("OffstageSimulator: crash outside a simulated app: \(message)")
        }
        process.crashed = true
        thread.end()
    }

    func sleep(seconds: Double) {
        process?.currentThread?.park(until: simulation.now + max(0, seconds))
    }

    func after(seconds: Double, _ work: @escaping @Sendable () -> Void) {
        simulation.schedule(at: simulation.now + max(0, seconds), .appWork(app, generation: generation, work))
    }

    var now: Date { simulation.wallClockNow }

    func reportWork(_ work: OffstageWork) { simulation.reportWork(work, from: app) }
}
