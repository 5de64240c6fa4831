import Foundation
import OffstageCore
import OffstageKit

/// One launch of a simulated app: its OffstageKit runtime, the threads its parked code took over, and
/// whether it is frozen. A new launch gets a new process (and generation), so work of a dead one is dropped.
/// Its fields are `@exclusivity(unchecked)` as `Simulation`'s are: one driving thread uses them at a time.
final class SimulatedProcess: @unchecked Sendable {
    let app: BundleID
    let generation: Int
    private(set) var runtime: AppRuntime!
    /// Threads the app's parked code took over; an idle one takes the app's next work.
    @exclusivity(unchecked) var threads: [AppThread] = []
    /// The thread running app code for the driver right now, if any (app code asks it to park or end).
    @exclusivity(unchecked) var currentThread: AppThread?
    /// The block running inline on the driver's thread right now, if any.
    @exclusivity(unchecked) var inlineBlock: InlineBlock?
    /// Suspended by the system: its timers and wake-ups wait for `resume`.
    @exclusivity(unchecked) var isSuspended = false
    /// Work that fell due while suspended, run on resume, with what it runs (for a stall's error).
    @exclusivity(unchecked) var deferred: [(running: String, work: () -> Void)] = []
    /// Where the app's queued work and clock reads go while its code runs.
    let host: AppHost
    /// Pieces of work the app queued to run at once that have not run yet.
    @exclusivity(unchecked) private(set) var immediateWork = 0
    /// Work the app queued, by ticket (in the order it was queued), until it runs.
    @exclusivity(unchecked) private var queuedWork: [Int: (work: QueuedWork, at: Instant, immediate: Bool)] = [:]
    @exclusivity(unchecked) private var nextTicket = 0
    /// Callback returns waiting for that work (see `Simulation.appCall`).
    @exclusivity(unchecked) var heldReturns: [AppCall] = []

    init(
        app: BundleID, generation: Int, simulation: Simulation, postsNotifications: Bool,
        makeDelegate: @escaping @MainActor () -> any UIApplicationDelegate
    ) {
        self.app = app
        self.generation = generation
        host = AppHost(simulation: simulation, app: app, generation: generation)
        let link = SimulatorLink(simulation: simulation, app: app, generation: generation)
        let runtime = AppRuntime(
            bundleIdentifier: app, link: link, postsNotifications: postsNotifications, makeDelegate: makeDelegate)
        self.runtime = runtime
        link.process = self
    }

    /// Keeps work the app queued to run at `at` (`immediate`: at once) and returns its ticket.
    func keep(_ work: QueuedWork, at: Instant, immediate: Bool) -> Int {
        nextTicket += 1
        queuedWork[nextTicket] = (work, at, immediate)
        if immediate { immediateWork += 1 }
        return nextTicket
    }

    /// The work of a ticket, taken to run now; nil if it already ran.
    func takeQueuedWork(_ ticket: Int) -> QueuedWork? {
        guard let kept = queuedWork.removeValue(forKey: ticket) else { return nil }
        if kept.immediate { immediateWork -= 1 }
        return kept.work
    }

    /// The work queued on `queue` and due by `now`, taken to run now, in the order it was queued.
    func takeDueWork(on queue: UnsafeMutableRawPointer, at now: Instant) -> [QueuedWork] {
        let tickets = queuedWork.filter { $0.value.work.queue == queue && $0.value.at <= now }.keys.sorted()
        return tickets.compactMap(takeQueuedWork)
    }

    /// An idle thread of the app's for new work, if its parked code left one.
    var idleThread: AppThread? { threads.first(where: \.isIdle) }

    /// The app's code crashed: none of it runs again.
    @exclusivity(unchecked) var crashed = false
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
        guard let process else { fatalError("OffstageSimulator: crash outside a simulated app: \(message)") }
        process.crashed = true
        if let thread = process.currentThread { thread.end() }
        guard process.inlineBlock != nil else {
            fatalError("OffstageSimulator: crash outside the app's code: \(message)")
        }
        simulation.leaveDriverThread(crashedIn: process)
    }

    func sleep(seconds: Double) {
        _ = simulation.parkAppCode(of: app, until: simulation.now + max(0, seconds), condition: nil)
    }

    func after(seconds: Double, _ work: @escaping @Sendable () -> Void) {
        simulation.schedule(at: simulation.now + max(0, seconds), .appWork(app, generation: generation, work))
    }

    var now: Date { simulation.wallClockNow }

    func reportWork(_ work: OffstageWork) { simulation.reportWork(work, from: app) }

    /// Virtual time: work in progress is measured on the simulation's clock.
    var uptime: Double { simulation.now.seconds }
}
