import Foundation
import OffstageAppContext
import OffstageAppExecution
import OffstageCore
import Synchronization

/// One simulated app's side of the interposition layer (`OffstageAppExecution`): while the simulator runs the
/// app's code on a thread, libdispatch calls made there (`DispatchQueue.async/asyncAfter`, groups, semaphores,
/// and Swift concurrency's jobs and sleeps, which go through them) come here as work at a virtual time, and
/// clock reads (`Date()`, `ContinuousClock.now`, `DispatchTime.now()`) see the simulation's time.
final class AppHost: @unchecked Sendable {
    /// The C record the interposers read; it lives as long as the process.
    let record: UnsafeMutablePointer<offstage_host>
    unowned let simulation: Simulation
    let app: BundleID
    let generation: Int
    /// The app's run-loop and dispatch timers, fired in virtual time.
    private(set) lazy var timers = AppTimers(host: self)
    /// Groups the app asked to be told about (`DispatchGroup.notify`), oldest first.
    private var groupWatches: [GroupWatch] = []

    /// Work a group notification runs once its group is empty.
    private struct GroupWatch {
        var group: UnsafeMutableRawPointer
        var work: QueuedWork
    }

    init(simulation: Simulation, app: BundleID, generation: Int) {
        self.simulation = simulation
        self.app = app
        self.generation = generation
        record = .allocate(capacity: 1)
        record.initialize(
            to: offstage_host(
                owner: UnsafeMutableRawPointer(bitPattern: 1)!, enqueue: Self.enqueue, notify: Self.notify,
                run_due: Self.runDue, wait: Self.wait, begin_external: Self.beginExternal,
                finish_external: Self.finishExternal, timer: Self.timer, source: Self.source,
                uptime_ns: 0, wall_ns: 0))
        record.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit { record.deallocate() }

    /// Brings the clocks the app reads to the simulation's now; called before any of its code runs.
    func setClocks(uptime: Instant, wallSeconds: Double) {
        record.pointee.uptime_ns = Int64((uptime.seconds * 1e9).rounded())
        record.pointee.wall_ns = Int64((wallSeconds * 1e9).rounded())
    }

    /// Marks the calling thread as running this app's code on `queue` until `leave`.
    func enter(on queue: UnsafeMutableRawPointer?) { offstage_enter(record, queue) }

    func leave() { offstage_leave() }

    /// Group notifications whose groups are now empty, taken off the watch list, oldest first.
    func takeReadyNotifications() -> [QueuedWork] {
        guard !groupWatches.isEmpty else { return [] }
        var ready: [QueuedWork] = []
        groupWatches.removeAll { watch in
            guard offstage_try_wait(Int32(OFFSTAGE_WAIT_GROUP), watch.group) == 0 else { return false }
            ready.append(watch.work)
            return true
        }
        return ready
    }

    // MARK: The interposers' callbacks (on the thread running the app's code)

    private static func host(_ owner: UnsafeMutableRawPointer) -> AppHost {
        Unmanaged<AppHost>.fromOpaque(owner).takeUnretainedValue()
    }

    private static let enqueue:
        @convention(c) (
            UnsafeMutableRawPointer, UnsafeMutableRawPointer, Int64, UnsafeMutableRawPointer?,
            @convention(c) (UnsafeMutableRawPointer?) -> Void
        ) -> Void = { owner, queue, delay, context, function in
            let host = host(owner)
            let work = QueuedWork(queue: queue, context: context, function: function)
            host.simulation.enqueue(work, after: Double(delay) / 1e9, app: host.app, generation: host.generation)
        }

    private static let notify:
        @convention(c) (
            UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer?,
            @convention(c) (UnsafeMutableRawPointer?) -> Void
        ) -> Void = { owner, group, queue, context, function in
            host(owner).groupWatches.append(
                GroupWatch(group: group, work: QueuedWork(queue: queue, context: context, function: function)))
        }

    private static let runDue: @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer) -> Void = {
        owner, queue in
        let host = host(owner)
        host.simulation.runDueWork(of: host.app, on: queue)
    }

    private static let beginExternal: @convention(c) (UnsafeMutableRawPointer) -> Int64 = { owner in
        let host = host(owner)
        return Int64(host.simulation.externalWork.begin())
    }

    /// Called from any thread: the simulation takes the result when every piece of external work has ended.
    private static let finishExternal:
        @convention(c) (
            UnsafeMutableRawPointer, Int64, UnsafeMutableRawPointer, Int64, UnsafeMutableRawPointer?,
            @convention(c) (UnsafeMutableRawPointer?) -> Void
        ) -> Void = { owner, number, queue, delay, context, function in
            let host = host(owner)
            host.simulation.externalWork.finish(
                Int(number),
                ExternalWork.Result(
                    app: host.app, generation: host.generation, delay: Double(delay) / 1e9,
                    work: QueuedWork(queue: queue, context: context, function: function)))
        }

    private static let timer: @convention(c) (UnsafeMutableRawPointer, UnsafeMutableRawPointer, Int32) -> Void = {
        owner, timer, added in
        host(owner).timers.runLoopTimer(timer, added: added != 0)
    }

    private static let source:
        @convention(c) (
            UnsafeMutableRawPointer, Int32, UnsafeMutableRawPointer, UnsafeMutableRawPointer?, Int64, Int64,
            UnsafeMutableRawPointer?, (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
        ) -> Int = { owner, event, source, queue, delay, interval, context, function in
            let handler = function.map { (context: context, function: $0) }
            let kept = host(owner).timers.sourceEvent(
                event, source, queue: queue, delay: delay, interval: interval, handler: handler)
            return kept ? 1 : 0
        }

    private static let wait: @convention(c) (UnsafeMutableRawPointer, Int32, UnsafeMutableRawPointer, Int64) -> Int =
        { owner, kind, object, timeout in
            let host = host(owner)
            let deadline = timeout < 0 ? nil : host.simulation.now + Double(timeout) / 1e9
            let condition: (() -> Bool)? =
                kind == OFFSTAGE_WAIT_TIME ? nil : { offstage_try_wait(kind, object) == 0 }
            let met = host.simulation.parkAppCode(of: host.app, until: deadline, condition: condition)
            return met ? 0 : 1
        }
}

/// Work queued by threads that apps' code started (`Thread`, `pthread_create`): they run in real time outside the
/// simulation, so the interposition layer hands their `dispatch_async`/`asyncAfter` here, from their own thread;
/// each simulation takes its own apps' work at its next step (`take(for:)`) and queues it then.
enum ForeignWork {
    /// A piece of work and the host (by its C record) of the app whose thread queued it.
    struct Piece: @unchecked Sendable {
        var host: UnsafeMutableRawPointer
        var delay: Double
        var work: QueuedWork
    }

    private static let inbox = Mutex<[Piece]>([])
    /// Read without the lock at every step of every simulation: pieces handed in and not taken yet.
    private static let waiting = Atomic<Int>(0)

    /// App-started threads whose routine has not returned, and how many of them the loop no longer waits for.
    private static let threads = NSCondition()
    nonisolated(unsafe) private static var running = 0
    nonisolated(unsafe) private static var abandoned = 0
    /// Real seconds the loop waits for app-started threads to end before virtual time moves on without them.
    static let threadGrace = 10.0
    /// Whether any app-started thread is waited for: read without the lock at every step.
    private static let anyThreadWaitedFor = Atomic<Bool>(false)

    /// Waits, before the loop's next step, until the threads apps started have ended (their work then comes in at
    /// the virtual time they were started), or for `threadGrace` real seconds: a thread still running then (one that
    /// loops or waits forever) is no longer waited for, and its later work comes in when it is handed in.
    static func waitForAppThreads() {
        guard anyThreadWaitedFor.load(ordering: .acquiring) else { return }
        threads.lock()
        defer { threads.unlock() }
        guard running > abandoned else { return }
        let deadline = Date(timeIntervalSinceNow: threadGrace)
        while running > abandoned, threads.wait(until: deadline) {}
        abandoned = running
        anyThreadWaitedFor.store(false, ordering: .releasing)
    }

    /// Installs the hooks once, before any app runs.
    static let installation: Void = {
        offstage_set_app_thread_hook { delta in
            ForeignWork.threads.lock()
            ForeignWork.running += Int(delta)
            ForeignWork.abandoned = min(ForeignWork.abandoned, ForeignWork.running)
            ForeignWork.anyThreadWaitedFor.store(
                ForeignWork.running > ForeignWork.abandoned, ordering: .releasing)
            ForeignWork.threads.broadcast()
            ForeignWork.threads.unlock()
        }
        offstage_set_foreign_enqueue { host, queue, delay, context, function in
            ForeignWork.inbox.withLock {
                $0.append(
                    Piece(
                        host: UnsafeMutableRawPointer(host), delay: Double(max(0, delay)) / 1e9,
                        work: QueuedWork(queue: queue, context: context, function: function)))
            }
            ForeignWork.waiting.add(1, ordering: .relaxed)
        }
    }()

    /// Whether any piece waits to be taken (a load, at every step of the loop).
    static var isWaiting: Bool { waiting.load(ordering: .relaxed) > 0 }

    /// Takes the pieces queued for the hosts in `hosts`, oldest first (others stay for their simulation).
    static func take(for hosts: Set<UnsafeMutableRawPointer>) -> [Piece] {
        let taken = inbox.withLock { pieces in
            let mine = pieces.filter { hosts.contains($0.host) }
            pieces.removeAll { hosts.contains($0.host) }
            return mine
        }
        waiting.subtract(taken.count, ordering: .relaxed)
        return taken
    }
}

/// External work of the simulation's apps (`OffstageExternalWork`): how many pieces are under way, and the
/// results of those that ended. Shared with other threads, behind a condition.
final class ExternalWork: @unchecked Sendable {
    /// A finished piece: the work to queue on its app.
    struct Result {
        var app: BundleID
        var generation: Int
        var delay: Double
        var work: QueuedWork
    }

    private let condition = NSCondition()
    private var next = 0
    private var underWay = 0
    private var results: [(number: Int, result: Result)] = []
    /// Pieces begun whose results the loop has not taken yet: read without the lock at every step of the loop.
    private let untaken = Atomic<Int>(0)

    /// Notes a piece begun (on the app's thread) and returns its number.
    func begin() -> Int {
        untaken.add(1, ordering: .relaxed)
        condition.lock()
        defer { condition.unlock() }
        next += 1
        underWay += 1
        return next
    }

    /// Hands in a finished piece (from any thread).
    func finish(_ number: Int, _ result: Result) {
        condition.lock()
        results.append((number, result))
        underWay -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until no piece is under way, then takes the results in the order their pieces began.
    func takeResultsWhenNoneUnderWay() -> [Result] {
        guard untaken.load(ordering: .relaxed) > 0 else { return [] }
        condition.lock()
        defer { condition.unlock() }
        while underWay > 0 { condition.wait() }
        untaken.subtract(results.count, ordering: .relaxed)
        defer { results = [] }
        return results.sorted { $0.number < $1.number }.map(\.result)
    }
}

/// A piece of work an app queued on a libdispatch queue: a function and its argument (a block is run by a
/// function of the interposition layer), run later by the simulator as the app's code on that queue.
struct QueuedWork: @unchecked Sendable {
    var queue: UnsafeMutableRawPointer
    var context: UnsafeMutableRawPointer?
    var function: @convention(c) (UnsafeMutableRawPointer?) -> Void

    func run() { function(context) }

    /// libdispatch's main queue, whose work runs as the app's main thread's.
    nonisolated(unsafe) static let mainQueue = offstage_main_queue()
}
