/// `UIApplication`'s background time (§4): `beginBackgroundTask` assertions and the time they keep an app in the
/// background running, with iOS's limit, its crash and its log message; a running task's own time covers the app.
/// The rules are `AppLifecycle`'s; this routes the app's calls to them and carries out what they return.
extension BackgroundSystem {
    /// The app's background time for assertions: shorter while Low Power Mode is on (SPEC §5).
    var backgroundTimeAllowance: Double {
        settings.lowPowerMode ? policy.lowPowerModeBackgroundTimeAllowance : policy.backgroundTimeAllowance
    }

    /// Answers the app's background-time calls (`AppLifecycle.answerBackgroundTime`) with its background time
    /// left now, and carries out what the life cycle returns; a crash among it is the answer.
    mutating func answerBackgroundTime(_ call: AppCall, from id: BundleID) -> AppCallResult {
        // Read before the record changes, and no copy of it kept alive while it does (that would copy its box).
        let timeRemaining = apps[id].backgroundTimeRemaining(
            at: now, allowance: backgroundTimeAllowance, expirationGrace: policy.expirationGrace)
        let isExtension = apps[id].manifest.isExtension
        let (answer, actions) = apps[id].lifecycle.answerBackgroundTime(
            call, timeRemaining: timeRemaining, isExtension: isExtension, policy: policy)
        let carriedOut = carryOut(actions, for: id)
        return carriedOut == .ok ? answer : carriedOut
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
            case .leftScreen:
                reviewAgain(id)
                apps[id].judgementHistory.noteLeft(at: now)
                if foregroundApp == id { foregroundApp = nil }
            case .terminationBegan: pumpCallbacks(id)
            case .end(let reason): endProcess(id, reason)
            case .crash(let message): answer = crash(id, message)
            }
        }
        return answer
    }
}
