/// Background `URLSession` transfers (issue 16, item 8): the system owns them once the app has started them, so
/// they go on while the app is suspended or not running; discretionary ones wait for Wi-Fi and power; when a
/// session's transfers end, the app gets their events: at once if it is running, else resumed or relaunched in the
/// background for `application(_:handleEventsForBackgroundURLSession:completionHandler:)`, no sooner than the resume
/// rate limiter allows (its delay doubles at each such wake until the user opens the app). `BackgroundTransfers`
/// decides; this hands it what happened and carries out what it returns.
extension BackgroundSystem {
    /// Hands the transfers an app's start or cancel, or the time passing (after every entry point, before the
    /// review), with what they read of the system, and carries out what they return, in order: facts recorded,
    /// session events delivered.
    mutating func handleTransfers(_ input: TransferInput) {
        let actions = backgroundTransfers.take(
            input, now: now, device: device, onScreen: foregroundApp, installed: installed,
            wakeDelay: policy.backgroundSessionWakeDelay, isForceQuit: { apps[$0].forceQuit },
            state: { apps[$0].projectedState })
        for action in actions {
            switch action {
            case .note(let transfer): record(transfer.app, .transfer, task: transfer.task, .transfer(transfer.fact))
            case .deliver(let id, let event, let why): beginDelivery(id, event, why: why)
            }
        }
    }
}
