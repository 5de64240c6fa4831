/// Background `URLSession` transfers (issue 16, item 8): the system owns them once the app has started them, so
/// they go on while the app is suspended or not running; discretionary ones wait for Wi-Fi and power; when a
/// session's transfers end, the app gets their events: at once if it is running, else resumed or relaunched in the
/// background for `application(_:handleEventsForBackgroundURLSession:completionHandler:)`, no sooner than the resume
/// rate limiter allows (its delay doubles at each such wake until the user opens the app).
extension BackgroundSystem {
    /// `resume()` on a task of a background session: the system takes the transfer over. A transfer started while
    /// the app is in the background is discretionary whatever the app asked (`isDiscretionary`'s documentation).
    mutating func startBackgroundTransfer(_ id: BundleID, _ request: BackgroundTransferRequest) -> AppCallResult {
        let inBackground = foregroundApp != id
        let discretionary = request.isDiscretionary || inBackground
        backgroundTransfers.transfers.append(
            BackgroundTransfer(
                app: id, request: request, isDiscretionary: discretionary, secondsLeft: max(0, request.seconds)))
        record(
            id, .transfer, task: request.label,
            .transfer(
                .accepted(discretionary: discretionary, startedInBackground: inBackground && !request.isDiscretionary)))
        return .ok
    }

    /// `cancel()` on a task of a background session: the transfer ends and no event is handed over for it.
    mutating func cancelBackgroundTransfer(_ id: BundleID, session: String, task: Int) -> AppCallResult {
        let matches = { (transfer: BackgroundTransfer) in
            transfer.app == id && transfer.request.session == session && transfer.request.task == task
        }
        guard let transfer = backgroundTransfers.transfers.first(where: matches) else { return .ok }
        backgroundTransfers.transfers.removeAll(where: matches)
        record(id, .transfer, task: transfer.request.label, .transfer(.cancelled(byUser: false)))
        return .ok
    }

    /// Brings the transfers up to now after every entry point: the user's opening resets the rate limiter, a
    /// swipe-away cancels, each transfer runs or waits on the device's conditions, and finished ones are handed over.
    mutating func settleBackgroundTransfers() {
        guard !backgroundTransfers.isEmpty || !backgroundTransfers.wakes.isEmpty else { return }
        if let app = foregroundApp { backgroundTransfers.wakes[app] = nil }
        cancelForceQuitTransfers()
        for index in backgroundTransfers.transfers.indices { advance(index) }
        let ended = backgroundTransfers.transfers.filter { $0.endsAt.map { $0 <= now } ?? false }
        backgroundTransfers.transfers.removeAll { $0.endsAt.map { $0 <= now } ?? false }
        for transfer in ended {
            record(
                transfer.app, .transfer, task: transfer.request.label,
                .transfer(.finished(bytes: transfer.request.bytes)))
            backgroundTransfers.finished.append(transfer)
        }
        for id in installed where backgroundTransfers.finished.contains(where: { $0.app == id }) {
            handOverSessionEvents(id)
        }
    }

    /// When transfers end or a held wake may come: for `nextDueTime`.
    var backgroundTransferDueTimes: [Instant] {
        // Asked at every step of a host's loop; most devices have no transfer, and the lists cost more than this.
        guard !backgroundTransfers.transfers.isEmpty || !backgroundTransfers.wakes.isEmpty else { return [] }
        return backgroundTransfers.transfers.compactMap(\.endsAt)
            + backgroundTransfers.wakes.compactMap { id, wake in
                backgroundTransfers.finished.contains { $0.app == id } ? wake.next : nil
            }
    }

    /// The conditions a transfer waits for now: a network; for a discretionary one, Wi-Fi and power too.
    private func conditionsMissing(for transfer: BackgroundTransfer) -> [String] {
        if device.network == .none { return ["a network"] }
        guard transfer.isDiscretionary else { return [] }
        return (device.network == .wifi ? [] : ["Wi-Fi"]) + (device.isCharging ? [] : ["power"])
    }

    /// Starts or stops the transfer at `index` as its conditions came or went; the time it ran is used up.
    private mutating func advance(_ index: Int) {
        let transfer = backgroundTransfers.transfers[index]
        let missing = conditionsMissing(for: transfer)
        if let since = transfer.runningSince {
            guard !missing.isEmpty else { return }
            backgroundTransfers.transfers[index].secondsLeft = max(0, transfer.secondsLeft - (now - since))
            backgroundTransfers.transfers[index].runningSince = nil
        } else if missing.isEmpty {
            backgroundTransfers.transfers[index].runningSince = now
            backgroundTransfers.transfers[index].waitingFor = nil
            return record(
                transfer.app, .transfer, task: transfer.request.label,
                .transfer(.running(secondsLeft: transfer.secondsLeft)))
        }
        guard transfer.waitingFor != missing else { return }
        backgroundTransfers.transfers[index].waitingFor = missing
        record(transfer.app, .transfer, task: transfer.request.label, .transfer(.waiting(for: missing)))
    }

    /// The user swiped the app away: the system cancels its background transfers (WWDC20, "Background execution
    /// demystified": the app switcher stops background URLSession work until the user opens the app).
    private mutating func cancelForceQuitTransfers() {
        for transfer in backgroundTransfers.transfers + backgroundTransfers.finished
        where apps.lookUp(transfer.app)?.forceQuit == true {
            record(transfer.app, .transfer, task: transfer.request.label, .transfer(.cancelled(byUser: true)))
        }
        backgroundTransfers.transfers.removeAll { apps.lookUp($0.app)?.forceQuit == true }
        backgroundTransfers.finished.removeAll { apps.lookUp($0.app)?.forceQuit == true }
    }

    /// Hands the app the events of its first session with finished transfers: at once if it is running; if it is
    /// suspended or not running, by resuming or relaunching it, only if the session sends launch events
    /// (`sessionSendsLaunchEvents`, else they wait until the app next runs), no sooner than the resume rate limiter
    /// allows.
    private mutating func handOverSessionEvents(_ id: BundleID) {
        guard let session = backgroundTransfers.finished.first(where: { $0.app == id })?.request.session else { return }
        let ofSession = backgroundTransfers.finished.filter { $0.app == id && $0.request.session == session }
        let event = { (wakesApp: Bool) in
            BackgroundEvent.urlSessionEvents(session: session, tasks: ofSession.map(\.request.task), wakesApp: wakesApp)
        }
        let state = apps[id].projectedState
        if state != .suspended && state != .notRunning {
            handOver(ofSession, of: id, event(false), why: "its background session's transfers ended")
            return
        }
        if !ofSession.contains(where: \.request.sendsLaunchEvents) {
            return recordWaitOnce(id, session, .waitingForLaunch)
        }
        let wake = backgroundTransfers.wakes[id] ?? (count: 0, next: now)
        guard wake.next <= now else {
            return recordWaitOnce(id, session, .wakeHeld(until: wake.next, wakes: wake.count))
        }
        let count = wake.count + 1
        backgroundTransfers.wakes[id] = (
            count, now + policy.backgroundSessionWakeDelay * Double(1 << min(count - 1, 30))
        )
        handOver(ofSession, of: id, event(true), why: "background URLSession events for \(session)")
    }

    private mutating func handOver(
        _ transfers: [BackgroundTransfer], of id: BundleID, _ event: BackgroundEvent, why: String
    ) {
        backgroundTransfers.finished.removeAll { finished in transfers.contains(finished) }
        backgroundTransfers.recordedWaits.remove(id)
        beginDelivery(id, event, why: why)
    }

    private mutating func recordWaitOnce(_ id: BundleID, _ session: String, _ fact: TransferFact) {
        guard backgroundTransfers.recordedWaits.insert(id).inserted else { return }
        record(id, .transfer, task: session, .transfer(fact))
    }
}
