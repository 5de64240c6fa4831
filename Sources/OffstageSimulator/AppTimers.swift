import Foundation
import OffstageAppContext
import OffstageAppExecution
import OffstageCore

/// One app's timers in virtual time: Foundation `Timer`s on the main run loop and `DispatchSource` timers. The
/// interposition layer hands them here instead of to CoreFoundation's run loop and libdispatch's timer heap (which
/// would fire them in real time, on threads that are not the app's); each firing is the app's queued work at its
/// virtual time: a run-loop timer on the main queue, a dispatch timer on its source's queue. A suspended app's
/// timers wait for its resume and then fire once, as a frozen process's do.
final class AppTimers {
    unowned let host: AppHost
    /// Run-loop timers held as the main run loop holds them, each with the virtual time its next firing is due.
    private var runLoopTimers: [ObjectIdentifier: (timer: Timer, due: Instant)] = [:]
    /// Timer sources the app made, by the source's address.
    private var sources: [UnsafeMutableRawPointer: SourceTimer] = [:]

    init(host: AppHost) { self.host = host }

    private var simulation: Simulation { host.simulation }

    /// Virtual time when an absolute date of the app's wall clock comes (now, if it has passed).
    private func instant(at date: Date) -> Instant {
        simulation.now + max(0, date.timeIntervalSince(simulation.wallClockNow))
    }

    /// Queues `body` as the app's work on `queue` at `instant`.
    private func queue(at instant: Instant, on queue: UnsafeMutableRawPointer, _ body: @escaping () -> Void) {
        simulation.enqueue(
            QueuedWork(queue: queue, body), after: instant - simulation.now, app: host.app,
            generation: host.generation)
    }

    // MARK: Run-loop timers

    /// A `CFRunLoopTimer` added to the main run loop (`added`) or whose fire date changed: (re)schedules its firing.
    func runLoopTimer(_ cfTimer: UnsafeMutableRawPointer, added: Bool) {
        // Only Foundation's `Timer` makes run-loop timers on Linux (CoreFoundation is not public there): its context's
        // info is the `Timer`.
        guard let info = offstage_timer_info(cfTimer) else { return }
        let timer = Unmanaged<Timer>.fromOpaque(info).takeUnretainedValue()
        let id = ObjectIdentifier(timer)
        guard added || runLoopTimers[id] != nil else { return }
        let due = instant(at: timer.fireDate)
        if runLoopTimers[id]?.due == due { return }
        runLoopTimers[id] = (timer, due)
        queue(at: due, on: QueuedWork.mainQueue) { [self] in fire(id, due: due) }
    }

    /// The firing due at `due`, unless the timer was invalidated or moved: its block runs, then a repeating timer
    /// moves to its next fire date after now (the firings it missed are skipped, as CoreFoundation skips them).
    private func fire(_ id: ObjectIdentifier, due: Instant) {
        guard let (timer, scheduled) = runLoopTimers[id], scheduled == due else { return }
        guard timer.isValid else {
            runLoopTimers[id] = nil
            return
        }
        timer.fire()
        guard timer.isValid, runLoopTimers[id]?.due == due else {
            if !timer.isValid { runLoopTimers[id] = nil }
            return
        }
        let interval = timer.timeInterval
        let now = simulation.wallClockNow
        let missed = max(0, (now.timeIntervalSince(timer.fireDate) / interval).rounded(.down))
        // Setting the fire date comes back here through the interposition layer, which schedules the next firing.
        timer.fireDate = timer.fireDate.addingTimeInterval((missed + 1) * interval)
    }

    // MARK: Dispatch timer sources

    /// A timer source: its queue, handlers, timer and state, as libdispatch would keep them.
    private struct SourceTimer {
        var queue: UnsafeMutableRawPointer
        var handler: QueuedWork?
        var cancelHandler: QueuedWork?
        /// When its next event is due, and its interval (nil: once).
        var due: Instant?
        var interval: Double?
        var isActive = false
        var suspensions = 0
        var isCancelled = false
        /// Counts changes, so a firing scheduled before a change is dropped.
        var version = 0

        var isArmed: Bool { isActive && suspensions == 0 && !isCancelled && due != nil && handler != nil }
    }

    /// An event of a dispatch source (see `offstage_host.source`); true when the source is a timer source of the
    /// app's, whose handlers the host then keeps.
    func sourceEvent(
        _ event: Int32, _ source: UnsafeMutableRawPointer, queue: UnsafeMutableRawPointer?, delay: Int64,
        interval: Int64,
        handler: (context: UnsafeMutableRawPointer?, function: @convention(c) (UnsafeMutableRawPointer?) -> Void)?
    ) -> Bool {
        if event == OFFSTAGE_SOURCE_CREATED, let queue {
            sources[source] = SourceTimer(queue: queue)
            return true
        }
        guard var timer = sources[source] else { return false }
        let work = handler.map { QueuedWork(queue: timer.queue, context: $0.context, function: $0.function) }
        switch Int(event) {
        case Int(OFFSTAGE_SOURCE_TIMER):
            timer.due = delay < 0 ? nil : simulation.now + Double(delay) / 1e9
            // libdispatch takes an interval of 0 as "as often as possible"; one millisecond keeps virtual time moving.
            timer.interval = interval < 0 ? nil : max(Double(interval) / 1e9, 0.001)
        case Int(OFFSTAGE_SOURCE_EVENT_HANDLER):
            guard let work else { return true }
            timer.handler = work
        case Int(OFFSTAGE_SOURCE_CANCEL_HANDLER):
            guard let work else { return true }
            timer.cancelHandler = work
        case Int(OFFSTAGE_SOURCE_CANCEL):
            guard !timer.isCancelled else { return true }
            timer.isCancelled = true
            if let cancel = timer.cancelHandler {
                let queue = timer.queue
                self.queue(at: simulation.now, on: queue) { cancel.run() }
            }
        case Int(OFFSTAGE_SOURCE_ACTIVATE):
            timer.isActive = true
        case Int(OFFSTAGE_SOURCE_RESUME):
            if timer.isActive { timer.suspensions = max(0, timer.suspensions - 1) } else { timer.isActive = true }
        case Int(OFFSTAGE_SOURCE_SUSPEND):
            timer.suspensions += 1
        default:
            return true
        }
        timer.version += 1
        sources[source] = timer
        armIfDue(source)
        return true
    }

    /// Schedules the source's next event if it is armed.
    private func armIfDue(_ source: UnsafeMutableRawPointer) {
        guard let timer = sources[source], timer.isArmed, let due = timer.due else { return }
        let version = timer.version
        queue(at: max(due, simulation.now), on: timer.queue) { [self] in event(of: source, version: version) }
    }

    /// The event scheduled for `version` of the source: its handler runs, and a repeating timer is due again at its
    /// next interval after now (missed intervals are merged into one event, as libdispatch merges them).
    private func event(of source: UnsafeMutableRawPointer, version: Int) {
        guard var timer = sources[source], timer.version == version, timer.isArmed, let due = timer.due,
            let handler = timer.handler
        else { return }
        if let interval = timer.interval {
            let missed = max(0, ((simulation.now - due) / interval).rounded(.down))
            timer.due = due + (missed + 1) * interval
        } else {
            timer.due = nil
        }
        timer.version += 1
        sources[source] = timer
        armIfDue(source)
        handler.run()
    }
}

extension QueuedWork {
    /// Work that runs a Swift closure (the host's own steps, such as a timer's firing) as the app's work on `queue`.
    init(queue: UnsafeMutableRawPointer, _ body: @escaping () -> Void) {
        self.init(
            queue: queue, context: Unmanaged.passRetained(ClosureBox(body)).toOpaque(),
            function: { context in
                guard let context else { return }
                Unmanaged<ClosureBox>.fromOpaque(context).takeRetainedValue().body()
            })
    }
}

/// A closure kept alive across the C boundary until it runs.
private final class ClosureBox {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
