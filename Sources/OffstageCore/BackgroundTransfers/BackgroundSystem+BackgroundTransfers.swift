/// Background `URLSession` transfers (issue 16, item 8): the system owns them once the app has started them, so
/// they go on while the app is suspended or not running; discretionary ones wait for Wi-Fi and power; when a
/// session's transfers end, the app gets their events: at once if it is running, else resumed or relaunched in the
/// background for `application(_:handleEventsForBackgroundURLSession:completionHandler:)`, no sooner than the resume
/// rate limiter allows (its delay doubles at each such wake until the user opens the app). `BackgroundTransfers`
/// decides; this routes the settle pass to it and applies what it returns.
extension BackgroundSystem {
    /// Brings the transfers up to now after every entry point and hands each app (in installation order) the
    /// events of its sessions whose transfers ended.
    mutating func settleBackgroundTransfers() {
        guard !backgroundTransfers.isIdle else { return }
        let facts = backgroundTransfers.settle(
            at: now, device: device, foregroundApp: foregroundApp, isForceQuit: { apps[$0].forceQuit })
        for fact in facts { record(fact) }
        for id in installed where backgroundTransfers.hasFinishedTransfers(of: id) {
            switch backgroundTransfers.handOverSessionEvents(
                of: id, state: apps[id].projectedState, at: now, wakeDelay: policy.backgroundSessionWakeDelay)
            {
            case .deliver(let event, let why): beginDelivery(id, event, why: why)
            case .wait(let fact): record(fact)
            case .none: break
            }
        }
    }

    /// Answers the app's calls on its background sessions: a transfer started (the system owns it from now) or
    /// cancelled.
    mutating func answerBackgroundTransfer(_ call: AppCall, from id: BundleID) -> AppCallResult {
        switch call {
        case .startBackgroundTransfer(let request):
            record(backgroundTransfers.accept(request, from: id, inForeground: foregroundApp == id))
        case .cancelBackgroundTransfer(let session, let task):
            if let cancelled = backgroundTransfers.cancel(session: session, task: task, of: id) { record(cancelled) }
        default: preconditionFailure("not a background transfer call: \(call)")
        }
        return .ok
    }

    /// Records a fact the transfers returned.
    mutating func record(_ transfer: BackgroundTransfers.Fact) {
        record(transfer.app, .transfer, task: transfer.task, .transfer(transfer.fact))
    }
}
