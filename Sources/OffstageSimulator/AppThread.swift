import Foundation
import OffstageCore

/// One thread of a simulated app, run as a coroutine: exactly one of the simulator and the app's
/// code runs at any moment, handing control back and forth, so hosting real code stays deterministic.
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

    init(name: String, runtime: AppRuntimeBinding) {
        let thread = Thread { [unowned self] in
            runtime.bind()
            self.serve()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    // MARK: The simulator's side

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

    /// Lets an idle thread finish; a parked one stays blocked for good (its app was killed mid-work).
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

    /// Parks the app's code until the simulator resumes it.
    func park(until deadline: Instant) {
        report = .parked(until: deadline)
        toHost.signal()
        repeat { toApp.wait() } while !isResume
    }

    private var isResume: Bool { if case .resume = instruction { true } else { false } }

    /// Ends the app's code for good: hands control back and never returns.
    func end() -> Never {
        report = .ended
        toHost.signal()
        while true { toApp.wait() }
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
}

/// Binds an app's runtime to the thread it runs on, so `UIApplication.shared` finds the right app.
struct AppRuntimeBinding: Sendable {
    let bind: @Sendable () -> Void
}
