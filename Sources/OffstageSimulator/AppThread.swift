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
        /// The code is waiting for virtual time to reach this instant (`OffstageClock.sleep`).
        case parked(until: Instant)
        /// The code crashed or was ended: it never runs again.
        case ended
    }

    private enum Instruction {
        case run(() -> Void)
        case resume
        case exit
    }

    private let toApp = DispatchSemaphore(value: 0)
    private let toHost = DispatchSemaphore(value: 0)
    private var instruction: Instruction?
    private var report: Report = .finished
    /// When the parked code wants to go on; nil while the thread is idle.
    private(set) var parkedUntil: Instant?
    private(set) var isEnded = false

    /// Adopts the calling thread, whose app code parks until `deadline` (see `waitForResume`).
    init(parkedUntil deadline: Instant) { parkedUntil = deadline }

    // MARK: The driver's side

    /// Whether the thread can take new work: not parked in app code, not ended.
    var isIdle: Bool { parkedUntil == nil && !isEnded }

    /// Runs `block` on this idle thread until the code returns, parks or ends.
    func run(_ block: @escaping () -> Void) -> Report {
        precondition(isIdle, "AppThread: new work for a busy thread")
        return handOver(.run(block))
    }

    /// Lets the parked code go on once virtual time has reached its deadline.
    func resume() -> Report {
        parkedUntil = nil
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

    /// Parks the app's code, running on this thread for the driver, until the driver resumes it.
    func park(until deadline: Instant) {
        report = .parked(until: deadline)
        toHost.signal()
        waitForResume()
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
        let never = DispatchSemaphore(value: 0)
        while true { never.wait() }
    }
}

/// The code of one inline block, noting whether it parked and so took over the driver's thread.
final class InlineBlock: @unchecked Sendable {
    /// The thread the block's code took over when it parked; nil while it runs inline.
    var adopted: AppThread?
}
