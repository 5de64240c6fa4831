/// What a record says, as typed facts: reports, the evaluation, the HTML report and the tests read these,
/// and `text(on:)` is the one place that puts them into words (the record's `reason`).
public enum RecordDetail: Hashable, Sendable, Codable {
    /// A pending request waits: every constraint that blocks it, in order, with when each lifts by itself.
    case deferred(blockers: [Blocker])
    /// The process started, for the user or in the background; `purpose` says what for.
    case launched(reason: LaunchReason, purpose: String)
    /// A task started: its kind, and what started it.
    case started(kind: TaskKind, cause: StartCause)
    /// A running task was completed by the app, `seconds` after it was handed over.
    case completed(success: Bool, seconds: Double)
    /// A running task's expiration handler was called, and why.
    case expired(cause: Expiration)
    /// A running task ended with its app's process.
    case killed(reason: TerminationReason)
    /// A request was accepted: its kind, and what became of it.
    case submitted(kind: TaskKind, outcome: Submission)
    /// A life-cycle callback handed to the app's code, and who hears it there.
    case callback(LifecycleCallback, receiver: CallbackReceiver)
    /// The app's process moved between states (a callback's delivery).
    case stateChanged(from: AppState, to: AppState)
    /// A background app with no outstanding work was suspended.
    case suspendedWithoutWork
    /// The process ended, from `from`, for `reason`.
    case terminated(from: AppState, reason: TerminationReason)
    /// `beginBackgroundTask` handed out assertion `number`, named `name` if the app gave one.
    case assertionBegan(number: Int, name: String?)
    /// `beginBackgroundTask` returned `.invalid`: the app has no background time left.
    case assertionRefused(name: String?)
    /// An app extension called `beginBackgroundTask`, which extensions do not have: `.invalid`.
    case assertionUnavailableInExtension(name: String?)
    /// `endBackgroundTask` ended assertion `number`.
    case assertionEnded(number: Int)
    /// Background time ends in `secondsLeft`: the expiration handlers of `numbers` are called.
    case assertionsExpiring(numbers: [Int], secondsLeft: Int)
    /// Assertion `number` was begun after the expiration warning: its handler is called at once.
    case assertionBegunLate(number: Int)
    /// A held background push (arrived at `arrivedAt`, carrying `payload`) gave way to a newer one (§7).
    case pushCoalesced(arrivedAt: Instant, payload: String)
    /// A background push was dropped as it arrived: its app cannot take pushes (§7).
    case pushDropped(PushDrop)
    /// A held background push was thrown away, `because` its app can no longer take it.
    case heldPushDiscarded(payload: String, because: String)
    /// The app called a push's or fetch's completion handler with `result`, `seconds` after the delivery.
    case handlerCalled(result: BackgroundFetchResult, seconds: Double)
    /// The age of the app's content when the user opened it, in seconds; nil if never refreshed.
    case contentAge(seconds: Double?)
    /// A background URLSession transfer, or the wake-ups its events cause (BackgroundTransfers/).
    case transfer(TransferFact)
    /// The chance the app is opened within the freshness window that let its refresh start, and why.
    case launchLikelihood(LaunchLikelihood)
    /// A local notification was scheduled, removed, delivered or tapped (Notifications/).
    case notification(NotificationFact)

    /// What started a task.
    public enum StartCause: String, Hashable, Sendable, Codable {
        case allConstraintsSatisfied = "all constraints satisfied"
        case userStarted = "the user started it"
        case roomInQueue = "room in the continued-processing queue"
        case simulatedLaunch = "simulated launch"
    }

    /// Why a running task was expired.
    public enum Expiration: Hashable, Sendable, Codable {
        /// Its kind's runtime (`seconds`) is used up.
        case runtimeUsedUp(seconds: Int)
        /// A condition it ran under stopped holding (a constraint's words).
        case interrupted(words: String)
        /// A continued-processing task's progress did not move for `seconds`.
        case stalled(seconds: Int)
        /// The user cancelled it in the progress UI.
        case userCancelled
        /// The user answered stop when asked whether a slow task should go on.
        case userChoseToStop
        /// A host asked for it (`_simulateExpirationForTaskWithIdentifier`).
        case simulated
    }

    /// Why a background push was dropped as it arrived.
    public enum PushDrop: String, Hashable, Sendable, Codable {
        case modeMissing = "UIBackgroundModes lacks 'remote-notification'"
        case swipedAway = "the user swiped the app away: no pushes until they open it"
    }

    /// What became of a submitted request.
    public enum Submission: Hashable, Sendable, Codable {
        /// Pending, for the scheduler to decide.
        case pending
        /// Pending in place of the app's earlier request with the same identifier.
        case replacing
        /// Brought back from the store after a restart.
        case restored
        /// A continued-processing request that starts at once.
        case startsNow
        /// A continued-processing request queued behind `running` running ones.
        case queued(behind: Int)
    }

    /// The state the app is in after this record, for records that change it.
    public var stateAfter: AppState? {
        switch self {
        case .stateChanged(_, let to): to
        case .suspendedWithoutWork: .suspended
        case .terminated: .notRunning
        default: nil
        }
    }

    /// The fact in words, times on `clock`: the one place a record's words are written.
    public func text(on clock: WallClock) -> String {
        switch self {
        case .deferred(let blockers): blockers.explained(on: clock)
        case .launched(.user, let purpose): purpose
        case .launched(.backgroundTask, let purpose): "launched in the background: \(purpose)"
        case .started(let kind, let cause): "\(kind.rawValue) task started: \(cause.rawValue)"
        case .completed(let success, let seconds):
            "setTaskCompleted(success: \(success)) after \(oneDecimal(seconds)) s"
        case .expired(.runtimeUsedUp(let seconds)): "its \(seconds) s runtime is used up"
        case .expired(.interrupted(let words)): words
        case .expired(.stalled(let seconds)): "progress stalled for \(seconds) s"
        case .expired(.userCancelled): "the user cancelled"
        case .expired(.userChoseToStop): "the user chose to stop"
        case .expired(.simulated): "simulated expiration"
        case .killed(let reason): "the app was terminated (\(reason))"
        case .submitted(let kind, .pending): "\(kind.rawValue) request submitted"
        case .submitted(let kind, .replacing): "\(kind.rawValue) request replaced the pending one"
        case .submitted(let kind, .restored): "\(kind.rawValue) request restored"
        case .submitted(_, .startsNow): "continued-processing request submitted: starts now"
        case .submitted(_, .queued(let running)): "continued-processing request queued behind \(running) running"
        case .callback(let callback, let receiver): receiver.words(for: callback)
        case .stateChanged(let from, let to): "\(from.rawValue) → \(to.rawValue)"
        case .suspendedWithoutWork: "background → suspended: no outstanding background work"
        case .terminated(let from, let reason): "\(from.rawValue) → not running: \(reason)"
        case .assertionBegan(let number, let name): "background task \(number) (\(Self.label(name)))"
        case .assertionRefused(let name): "\(Self.label(name)): no background time left: .invalid"
        case .assertionUnavailableInExtension(let name):
            "\(Self.label(name)): an app extension has no beginBackgroundTask "
                + "(ProcessInfo.performExpiringActivity is its form): .invalid"
        case .assertionEnded(let number): "background task \(number) ended"
        case .assertionsExpiring(let numbers, let secondsLeft):
            "background time ends in \(secondsLeft) s: expiration handlers for \(numbers)"
        case .assertionBegunLate(let number): "background task \(number): begun after the expiration warning"
        case .pushCoalesced(let arrivedAt, let payload):
            "coalesced: the held push of \(clock.timestamp(at: arrivedAt)) (payload \"\(payload)\") gives way to the newer one"
        case .pushDropped(let drop): drop.rawValue
        case .heldPushDiscarded(let payload, let why): "held push (payload \"\(payload)\") discarded: \(why)"
        case .handlerCalled(let result, let seconds):
            "completion handler called with .\(result) after \(oneDecimal(seconds)) s"
        case .contentAge(let seconds?): "content refreshed in the background \(minutes(seconds)) before this launch"
        case .contentAge(nil): "content never refreshed in the background before this launch"
        case .transfer(let fact): fact.text(on: clock)
        case .launchLikelihood(let likelihood): likelihood.words
        case .notification(let fact): fact.words
        }
    }

    /// An assertion's name as the records quote it.
    private static func label(_ name: String?) -> String { name.map { "\"\($0)\"" } ?? "unnamed" }
}
