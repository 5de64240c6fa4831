import Foundation
import OffstageCore

/// A thread that app code took over. App code runs inline on the simulation's driver thread; when it
/// parks (`OffstageClock.sleep`), that thread stays with the code and a new driver goes on with the loop.
/// Exactly one of the driver and the app's threads runs at any moment, so a run stays deterministic.
final class AppThread: @unchecked Sendable {
    /// How the app's code handed control back.
    enum Report {
        /// The block returned.
        case finished
        /// The code is waiting for virtual time to reach this instant (`OffstageClock.sleep`, a wait with a
        /// timeout; an infinite instant for a wait without one).
        case parked(until: Instant)
        /// The code crashed or was ended: it never runs again.
        case ended
    }

    private enum Instruction {
        case run(() -> Void)
        case resume
        case exit
    }

    private let toApp = Baton()
    private let toHost = Baton()
    private var instruction: Instruction?
    private var report: Report = .finished
    /// When the parked code wants to go on; nil while the thread is idle.
    private(set) var parkedUntil: Instant?
    private(set) var isEnded = false
    /// What the parked code waits for besides its deadline (a semaphore, a group), tried at each step of the app;
    /// it takes what it waits for when it succeeds.
    private var condition: (() -> Bool)?
    /// Whether the last wait ended because its condition succeeded (not its deadline).
    private(set) var conditionMet = false

    /// Adopts the calling thread, whose app code parks until `deadline` or `condition` (see `waitForResume`).
    init(parkedUntil deadline: Instant, condition: (() -> Bool)?) {
        parkedUntil = deadline
        self.condition = condition
    }

    // MARK: The driver's side

    /// Whether the thread can take new work: not parked in app code, not ended.
    var isIdle: Bool { parkedUntil == nil && !isEnded }

    /// Runs `block` on this idle thread until the code returns, parks or ends.
    func run(_ block: @escaping () -> Void) -> Report {
        precondition(isIdle, "AppThread: new work for a busy thread")
        return handOver(.run(block))
    }

    /// Whether the parked code can go on at `now`: its deadline passed or its condition succeeded.
    func isReady(at now: Instant) -> Bool {
        guard let deadline = parkedUntil else { return false }
        if let condition, condition() {
            conditionMet = true
            return true
        }
        return deadline <= now
    }

    /// Lets the parked code go on once it is ready.
    func resume() -> Report {
        parkedUntil = nil
        condition = nil
        return handOver(.resume)
    }

    /// Ends an idle thread's service (its app was terminated); a parked one stays blocked for good.
    func retire() {
        guard isIdle else { return }
        isEnded = true
        instruction = .exit
        toApp.signal()
    }

    private func handOver(_ next: Instruction) -> Report {
        instruction = next
        toApp.signal()
        toHost.wait()
        switch report {
        case .parked(let until): parkedUntil = until
        case .ended: isEnded = true
        case .finished: break
        }
        return report
    }

    // MARK: The app's side

    /// Waits, on the adopted thread, until the driver resumes the parked code.
    func waitForResume() {
        repeat { toApp.wait() } while !isResume
    }

    /// Parks the app's code, running on this thread for the driver, until the driver resumes it; true when
    /// `condition` succeeded before the deadline.
    func park(until deadline: Instant, condition: (() -> Bool)?) -> Bool {
        self.condition = condition
        conditionMet = false
        report = .parked(until: deadline)
        toHost.signal()
        waitForResume()
        return conditionMet
    }

    private var isResume: Bool { if case .resume = instruction { true } else { false } }

    /// Ends the app's code for good: hands control back and never returns.
    func end() -> Never {
        report = .ended
        toHost.signal()
        Self.blockForever()
    }

    /// The block that parked returned: hands control back, then runs the app's later work on this thread
    /// until retired. Never returns: below this frame are the loop frames of the driver the thread once was.
    func finishAdoptedBlock() -> Never {
        report = .finished
        toHost.signal()
        serve()
        Self.blockForever()
    }

    private func serve() {
        while true {
            toApp.wait()
            switch instruction {
            case .run(let block):
                block()
                report = .finished
                toHost.signal()
            case .exit:
                return
            case .resume, nil:
                break
            }
        }
    }

    /// Blocks the calling thread for good: the thread of code that crashed or can no longer return.
    static func blockForever() -> Never {
        let never = Baton()
        while true { never.wait() }
    }
}

/// A counting signal between the driver and an app's thread. Not a `DispatchSemaphore`: on a thread running app
/// code, libdispatch's waits are the app's and go to the simulation (see `AppHost`); the simulator's own
/// hand-overs must not.
final class Baton: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0

    func signal() {
        condition.lock()
        count += 1
        condition.signal()
        condition.unlock()
    }

    func wait() {
        condition.lock()
        while count == 0 { condition.wait() }
        count -= 1
        condition.unlock()
    }
}

/// The code of one inline block, noting whether it parked and so took over the driver's thread.
final class InlineBlock: @unchecked Sendable {
    /// The thread the block's code took over when it parked; nil while it runs inline.
    var adopted: AppThread?
}
