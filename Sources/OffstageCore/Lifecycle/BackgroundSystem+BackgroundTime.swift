/// `UIApplication`'s background time (§4): `beginBackgroundTask` assertions and the time they keep an app in the
/// background running, with iOS's limit, its crash and its log message; a running task's own time covers the app.
/// The rules are `AppLifecycle`'s; this routes the app's calls to them and carries out what they return.
extension BackgroundSystem {
    /// The app's background time for assertions: shorter while Low Power Mode is on (SPEC §5).
    var backgroundTimeAllowance: Double {
        settings.lowPowerMode ? policy.lowPowerModeBackgroundTimeAllowance : policy.backgroundTimeAllowance
    }

    /// Answers the app's background-time calls: `beginBackgroundTask` (or `performExpiringActivity`),
    /// `endBackgroundTask` and `backgroundTimeRemaining`.
    mutating func answerBackgroundTime(_ call: AppCall, from id: BundleID) -> AppCallResult {
        let timeRemaining = apps[id].backgroundTimeRemaining(
            at: now, allowance: backgroundTimeAllowance, expirationGrace: policy.expirationGrace)
        let (name, asExpiringActivity): (String?, Bool)
        switch call {
        case .backgroundTimeRemaining: return .timeRemaining(timeRemaining)
        case .endBackgroundTask(let number): return carryOut(apps[id].lifecycle.endBackgroundTask(number), for: id)
        case .beginBackgroundTask(let taskName): (name, asExpiringActivity) = (taskName, false)
        case .beginExpiringActivity(let reason): (name, asExpiringActivity) = (reason, true)
        default: preconditionFailure("not a background-time call: \(call)")
        }
        let isExtension = apps[id].manifest.isExtension
        let (number, actions) = apps[id].lifecycle.beginBackgroundTask(
            named: name, asExpiringActivity: asExpiringActivity, isExtension: isExtension,
            timeRemaining: timeRemaining, policy: policy)
        let answer = carryOut(actions, for: id)
        return answer == .ok ? .backgroundTask(number) : answer
    }

    /// Carries out the life cycle's actions in their order; the answer to the app's call is a crash when one of
    /// them crashes the app, else `.ok`.
    @discardableResult
    mutating func carryOut(_ actions: [LifecycleAction], for id: BundleID) -> AppCallResult {
        var answer = AppCallResult.ok
        for action in actions {
            switch action {
            case .fact(let kind, let detail): record(id, kind, detail)
            case .note(let kind, let task, let words): record(id, kind, task: task, reason: words)
            case .expireAssertions(let numbers): emit(.expireBackgroundTasks(id, ids: numbers))
            case .launched(let reason, let purpose):
                reviewAgain(id)
                emit(.launch(id, reason))
                record(id, .launched, .launched(reason: reason, purpose: purpose))
            case .resumed(let why):
                reviewAgain(id)
                emit(.resume(id))
                record(id, .resumed, reason: why)
            case .stateChanged(let before, let after):
                reviewAgain(id)
                record(id, .state, .stateChanged(from: before, to: after))
            case .deliver(let callback, let receiver, let token):
                record(id, .callback, .callback(callback, receiver: receiver))
                emit(.deliver(id, callback, token: token))
            case .suspended:
                reviewAgain(id)
                emit(.suspend(id))
                record(id, .suspended, .suspendedWithoutWork)
            case .terminationBegan:
                reviewAgain(id)
                apps[id].judgementHistory.noteLeft(at: now)
                if foregroundApp == id { foregroundApp = nil }
                pumpCallbacks(id)
            case .end(let reason): endProcess(id, reason)
            case .crash(let message): answer = crash(id, message)
            }
        }
        return answer
    }
}
