public import OffstageCore
import Synchronization

/// Why a run stopped before its end: virtual time could not move on. The run hands back the records made up to
/// the stop, and this names the app, where its code was running and what it ran, so the developer can find it.
public struct SimulationStall: Error, Equatable, Sendable, CustomStringConvertible {
    /// The two ways virtual time stops moving.
    public enum Kind: Equatable, Sendable {
        /// The same virtual instant repeated without end: this many pieces of app work ran at it.
        case sameInstant(pieces: Int)
        /// An app's code held the loop's thread (busy, or blocked outside the simulator) for this many real seconds.
        case appCodeHeld(realSeconds: Double)
    }

    public var kind: Kind
    /// The virtual time of the stop.
    public var at: Instant
    /// The app whose code ran last (nil when the loop stopped outside app code).
    public var app: BundleID?
    /// The libdispatch queue its code ran on (`main`, a queue's label, or `a thread its code took over`).
    public var queue: String
    /// What that code was running (the callback, the task's launch or expiration, queued work).
    public var running: String

    public var description: String {
        let which = app.map { "app \($0.rawValue)" } ?? "the simulation"
        switch kind {
        case .sameInstant(let pieces):
            return
                "stalled at \(at.seconds) s: virtual time cannot move on, \(pieces) pieces of app work ran at this "
                + "one instant (\(which) on \(queue), running \(running))"
        case .appCodeHeld(let seconds):
            return
                "stalled at \(at.seconds) s: \(which)'s code on \(queue), running \(running), held the simulation "
                + "for \(seconds) real seconds (busy, or blocked outside the simulator's control)"
        }
    }
}

/// When the simulator declares a stall: ours, not Apple's (a device has no such limit; a real phone's clock moves
/// on by itself). Both bounds are far above what any working app needs, so they only ever stop a run that hangs.
public struct StallLimits: Sendable {
    /// Pieces of app work (callbacks, task launches and expirations, queued work) at one virtual instant.
    public var piecesAtOneInstant = 100_000
    /// Real seconds the loop waits for app code that neither returns, parks in virtual time nor calls the system.
    public var realSecondsHeld = 10.0

    public init() {}
}

/// What the loop handed to app code last and whether the run stopped, kept where the real-time watchdog (on the
/// caller's thread) and the driver can both read it.
final class StallWatch: Sendable {
    /// The app, its queue (by address, named only at a stall) and what it runs, as a stall names them.
    struct Piece: Sendable {
        var app: BundleID
        var queue: UInt
        var running: String
    }

    private let last = Mutex<Piece?>(nil)
    private let stopped = Mutex<SimulationStall?>(nil)
    /// Set once `stopped` holds the stall: read at every step of the loop without the lock.
    private let isStopped = Atomic<Bool>(false)
    /// Counts every hand-over and step: the watchdog sees the loop alive while it moves.
    private let progress = Atomic<Int>(0)

    /// Stops the run with `stall`, unless it stopped already.
    func stop(_ stall: SimulationStall) {
        stopped.withLock { if $0 == nil { $0 = stall } }
        isStopped.store(true, ordering: .releasing)
    }

    var hasStopped: Bool { isStopped.load(ordering: .acquiring) }
    var stall: SimulationStall? { stopped.withLock { $0 } }

    /// Whether app code holds the loop's thread now (handed a piece that has not come back).
    private let inAppCode = Atomic<Bool>(false)

    /// Notes a piece of app work handed to the app's code.
    func enterAppCode(_ piece: Piece) {
        last.withLock { $0 = piece }
        inAppCode.store(true, ordering: .relaxed)
        noteProgress()
    }

    /// Notes that the app's code handed the loop back (it returned or parked), or the loop is between steps.
    func leftAppCode() {
        inAppCode.store(false, ordering: .relaxed)
        noteProgress()
    }

    /// Notes that the loop moved on (a step, a call from app code into the system).
    func noteProgress() { progress.add(1, ordering: .relaxed) }

    var progressCount: Int { progress.load(ordering: .relaxed) }
    var isInAppCode: Bool { inAppCode.load(ordering: .relaxed) }
    var lastPiece: Piece? { last.withLock { $0 } }
}
