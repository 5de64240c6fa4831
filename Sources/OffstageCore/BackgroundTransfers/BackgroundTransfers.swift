/// What happens to the background transfers: an app starts or cancels one, or time passes.
enum TransferInput: Sendable {
    /// `resume()` on a task of one of the app's background sessions.
    case start(BackgroundTransferRequest, from: BundleID)
    /// `cancel()` on a task of one of the app's background sessions.
    case cancel(session: String, task: Int, from: BundleID)
    /// Time passed, or the device or the apps changed: the transfers are brought up to now.
    case timePassed
}

/// The background transfers of every app, the finished ones whose events wait for their app, and the resume rate
/// limiter's state: what the system (`nsurlsessiond` on iOS) keeps while apps are suspended or not running.
/// Its state is private: `take` takes what happened and what it reads, and returns the facts to record and the
/// session events to deliver, which `BackgroundSystem.handleTransfers` carries out.
struct BackgroundTransfers: Sendable {
    private var transfers: [BackgroundTransfer] = []
    /// Finished transfers whose session events the app has not been handed, in the order they finished.
    private var finished: [BackgroundTransfer] = []
    /// Per app: background wakes for session events since the user last opened it, and the earliest next one.
    private var wakes: [BundleID: (count: Int, next: Instant)] = [:]
    /// Apps whose session events wait (for a launch, or for the rate limiter), so each wait is recorded once.
    private var recordedWaits: Set<BundleID> = []

    /// A fact about one transfer (or one session's events) to record: the `transfer` record's app, task column
    /// and typed detail.
    struct Fact: Equatable, Sendable {
        var app: BundleID
        var task: String
        var fact: TransferFact
    }

    /// What a transition asks the system to carry out, in order: a fact to record, or the events of the app's
    /// session to deliver, which reach the app or wake it (`why` says for what).
    enum Action: Equatable, Sendable {
        case note(Fact)
        case deliver(BundleID, BackgroundEvent, why: String)
    }

    /// What handing an app its session events asks of the system: a delivery that wakes (or reaches) the app, a
    /// wait to record once, or nothing (the wait was already recorded).
    private enum HandOver: Equatable, Sendable {
        case deliver(BackgroundEvent, why: String)
        case wait(Fact)
        case none
    }

    /// Whether nothing is in flight, finished or rate-limited: time passing and the due times have nothing to do
    /// (most devices have no transfer, and both are asked after every entry point).
    var isIdle: Bool { transfers.isEmpty && finished.isEmpty && wakes.isEmpty }

    /// Takes what happened at `now`: a transfer started (by the app on screen, `onScreen`, or in the background)
    /// or cancelled; or time passing, which brings the transfers up to now on `device` and hands each app, in
    /// `installed` order, the events of its sessions whose transfers ended, by its projected `state`, with
    /// `wakeDelay` the resume rate limiter's first delay. Returns what to carry out, in order.
    mutating func take(
        _ input: TransferInput, now: Instant, device: DeviceState, onScreen: BundleID?, installed: [BundleID],
        wakeDelay: Double, isForceQuit: (BundleID) -> Bool, state: (BundleID) -> AppState
    ) -> [Action] {
        switch input {
        case .start(let request, let app):
            return [.note(accept(request, from: app, inForeground: onScreen == app))]
        case .cancel(let session, let task, let app):
            return cancel(session: session, task: task, of: app).map { [.note($0)] } ?? []
        case .timePassed:
            guard !isIdle else { return [] }
            var actions = settle(at: now, device: device, foregroundApp: onScreen, isForceQuit: isForceQuit)
                .map(Action.note)
            for app in installed where hasFinishedTransfers(of: app) {
                switch handOverSessionEvents(of: app, state: state(app), at: now, wakeDelay: wakeDelay) {
                case .deliver(let event, let why): actions.append(.deliver(app, event, why: why))
                case .wait(let fact): actions.append(.note(fact))
                case .none: break
                }
            }
            return actions
        }
    }

    /// `resume()` on a task of a background session: the system takes the transfer over. A transfer started while
    /// the app is in the background is discretionary whatever the app asked (`isDiscretionary`'s documentation).
    private mutating func accept(_ request: BackgroundTransferRequest, from app: BundleID, inForeground: Bool) -> Fact {
        let discretionary = request.isDiscretionary || !inForeground
        transfers.append(
            BackgroundTransfer(
                app: app, request: request, isDiscretionary: discretionary, secondsLeft: max(0, request.seconds)))
        return Fact(
            app: app, task: request.label,
            fact: .accepted(
                discretionary: discretionary, startedInBackground: !inForeground && !request.isDiscretionary))
    }

    /// `cancel()` on a task of a background session: the transfer ends and no event is handed over for it; nil
    /// when the app has no such transfer in flight.
    private mutating func cancel(session: String, task: Int, of app: BundleID) -> Fact? {
        let matches = { (transfer: BackgroundTransfer) in
            transfer.app == app && transfer.request.session == session && transfer.request.task == task
        }
        guard let transfer = transfers.first(where: matches) else { return nil }
        transfers.removeAll(where: matches)
        return Fact(app: app, task: transfer.request.label, fact: .cancelled(byUser: false))
    }

    /// Brings the transfers up to `now`: the user's opening of `foregroundApp` resets its rate limiter, a swipe-away
    /// cancels, each transfer runs or waits on the device's conditions, and ended ones wait to be handed over.
    /// Returns the facts to record, in order.
    private mutating func settle(
        at now: Instant, device: DeviceState, foregroundApp: BundleID?, isForceQuit: (BundleID) -> Bool
    ) -> [Fact] {
        var facts: [Fact] = []
        if let app = foregroundApp { wakes[app] = nil }
        cancelForceQuitTransfers(isForceQuit, into: &facts)
        for index in transfers.indices { advance(index, at: now, device: device, into: &facts) }
        let ended = transfers.filter { $0.endsAt.map { $0 <= now } ?? false }
        transfers.removeAll { $0.endsAt.map { $0 <= now } ?? false }
        for transfer in ended {
            facts.append(
                Fact(app: transfer.app, task: transfer.request.label, fact: .finished(bytes: transfer.request.bytes)))
            finished.append(transfer)
        }
        return facts
    }

    /// Whether the app has finished transfers whose session events it has not been handed.
    private func hasFinishedTransfers(of app: BundleID) -> Bool { finished.contains { $0.app == app } }

    /// Hands the app the events of its first session with finished transfers: at once if it is running (its
    /// projected `state` is neither suspended nor not running); else by resuming or relaunching it, only if the
    /// session sends launch events (`sessionSendsLaunchEvents`, else they wait until the app next runs), no sooner
    /// than the resume rate limiter allows (its delay, from `wakeDelay`, doubles at each such wake).
    private mutating func handOverSessionEvents(
        of app: BundleID, state: AppState, at now: Instant, wakeDelay: Double
    ) -> HandOver {
        guard let session = finished.first(where: { $0.app == app })?.request.session else { return .none }
        let ofSession = finished.filter { $0.app == app && $0.request.session == session }
        let event = { (wakesApp: Bool) in
            BackgroundEvent.urlSessionEvents(session: session, tasks: ofSession.map(\.request.task), wakesApp: wakesApp)
        }
        if state != .suspended && state != .notRunning {
            return handOver(ofSession, of: app, event(false), why: "its background session's transfers ended")
        }
        if !ofSession.contains(where: \.request.sendsLaunchEvents) {
            return waitOnce(app, session, .waitingForLaunch)
        }
        let wake = wakes[app] ?? (count: 0, next: now)
        guard wake.next <= now else { return waitOnce(app, session, .wakeHeld(until: wake.next, wakes: wake.count)) }
        let count = wake.count + 1
        wakes[app] = (count, now + wakeDelay * Double(1 << min(count - 1, 30)))
        return handOver(ofSession, of: app, event(true), why: "background URLSession events for \(session)")
    }

    /// When transfers end or a held wake may come: for `nextDueTime`.
    var dueTimes: [Instant] {
        guard !isIdle else { return [] }  // asked at every step of a host's loop: no arrays built for nothing
        return transfers.compactMap(\.endsAt)
            + wakes.compactMap { app, wake in hasFinishedTransfers(of: app) ? wake.next : nil }
    }

    /// The conditions a transfer waits for on `device`: a network; for a discretionary one, Wi-Fi and power too.
    private func conditionsMissing(for transfer: BackgroundTransfer, on device: DeviceState) -> [String] {
        if device.network == .none { return ["a network"] }
        guard transfer.isDiscretionary else { return [] }
        return (device.network == .wifi ? [] : ["Wi-Fi"]) + (device.isCharging ? [] : ["power"])
    }

    /// Starts or stops the transfer at `index` as its conditions came or went; the time it ran is used up.
    private mutating func advance(_ index: Int, at now: Instant, device: DeviceState, into facts: inout [Fact]) {
        let transfer = transfers[index]
        let missing = conditionsMissing(for: transfer, on: device)
        if let since = transfer.runningSince {
            guard !missing.isEmpty else { return }
            transfers[index].secondsLeft = max(0, transfer.secondsLeft - (now - since))
            transfers[index].runningSince = nil
        } else if missing.isEmpty {
            transfers[index].runningSince = now
            transfers[index].waitingFor = nil
            facts.append(
                Fact(app: transfer.app, task: transfer.request.label, fact: .running(secondsLeft: transfer.secondsLeft))
            )
            return
        }
        guard transfer.waitingFor != missing else { return }
        transfers[index].waitingFor = missing
        facts.append(Fact(app: transfer.app, task: transfer.request.label, fact: .waiting(for: missing)))
    }

    /// The user swiped the app away: the system cancels its background transfers (WWDC20, "Background execution
    /// demystified": the app switcher stops background URLSession work until the user opens the app).
    private mutating func cancelForceQuitTransfers(_ isForceQuit: (BundleID) -> Bool, into facts: inout [Fact]) {
        for transfer in transfers + finished where isForceQuit(transfer.app) {
            facts.append(Fact(app: transfer.app, task: transfer.request.label, fact: .cancelled(byUser: true)))
        }
        transfers.removeAll { isForceQuit($0.app) }
        finished.removeAll { isForceQuit($0.app) }
    }

    /// Takes the session's finished transfers off the list and forgets the app's recorded wait: their events are
    /// delivered now.
    private mutating func handOver(
        _ handed: [BackgroundTransfer], of app: BundleID, _ event: BackgroundEvent, why: String
    ) -> HandOver {
        finished.removeAll { handed.contains($0) }
        recordedWaits.remove(app)
        return .deliver(event, why: why)
    }

    /// The session's events wait: recorded the first time only.
    private mutating func waitOnce(_ app: BundleID, _ session: String, _ fact: TransferFact) -> HandOver {
        guard recordedWaits.insert(app).inserted else { return .none }
        return .wait(Fact(app: app, task: session, fact: fact))
    }
}
