/// `UIApplication`'s background time (§4): `beginBackgroundTask` assertions and the time they keep an app in the
/// background running, with iOS's limit, its crash and its log message; a running task's own time covers the app.
extension BackgroundSystem {
    /// `backgroundTimeRemaining`: unlimited on screen and while a background mode's work runs; the task's time while one covers the app; else what is left.
    func backgroundTimeRemaining(of id: BundleID) -> Double {
        guard let app = apps.lookUp(id), let since = app.backgroundSince, !app.state.isForeground,
            !app.backgroundTimeCoveredByMode
        else {
            return Double.greatestFiniteMagnitude
        }
        if app.backgroundTimeCoveredByTask { return taskTimeRemaining(of: app) }
        return max(0, since + backgroundTimeAllowance - now)
    }

    /// The app's background time for assertions: shorter while Low Power Mode is on (SPEC §5).
    var backgroundTimeAllowance: Double {
        settings.lowPowerMode ? policy.lowPowerModeBackgroundTimeAllowance : policy.backgroundTimeAllowance
    }

    /// The time left to the app's longest-running delivered task (its grace once expired): while a task runs,
    /// its own time covers the app, so `beginBackgroundTask` is granted (SPEC §3; our model, Apple gives no rule).
    func taskTimeRemaining(of app: AppRecord) -> Double {
        let ends = app.running.filter(\.delivered).map { run in
            run.expiredAt.map { $0 + policy.expirationGrace } ?? run.expiresAt
                ?? .init(seconds: .greatestFiniteMagnitude)
        }
        return max(0, (ends.max() ?? now) - now)
    }

    /// `beginBackgroundTask(withName:expirationHandler:)` (or `performExpiringActivity`): an assertion, refused (0)
    /// once the background time is up, expired at once if its time is already running out; more than iOS's limit
    /// crashes the app. An app extension has no `beginBackgroundTask` (`NS_EXTENSION_UNAVAILABLE_IOS`): refused.
    mutating func beginBackgroundTask(_ id: BundleID, name: String?, asExpiringActivity: Bool = false)
        -> AppCallResult
    {
        let app = apps[id]
        if app.manifest.isExtension && !asExpiringActivity {
            record(id, .assertionBegan, .assertionUnavailableInExtension(name: name))
            return .backgroundTask(0)
        }
        if app.assertions.count >= policy.maxOutstandingAssertions {
            return crash(id, "more than \(policy.maxOutstandingAssertions) background task assertions (0xbada5e47)")
        }
        if app.backgroundSince != nil, backgroundTimeRemaining(of: id) <= 0 {
            record(id, .assertionBegan, .assertionRefused(name: name))
            return .backgroundTask(0)
        }
        let number = apps[id].lifecycle.beginAssertion(named: name)
        record(id, .assertionBegan, .assertionBegan(number: number, name: name))
        if app.assertionsWarned {
            record(id, .assertionExpired, .assertionBegunLate(number: number))
            emit(.expireBackgroundTasks(id, ids: [number]))
        }
        return .backgroundTask(number)
    }

    /// `endBackgroundTask(_:)`: the assertion ends; an unknown number is only logged, with iOS's message.
    mutating func endBackgroundTask(_ id: BundleID, _ number: Int) {
        guard apps[id].lifecycle.endAssertion(number) else {
            let hex = String(number, radix: 16)
            record(
                id, .log,
                reason: "Can't end BackgroundTask: no background task exists with identifier \(number) (0x\(hex)), "
                    + "or it may have already been ended. Break in UIApplicationEndBackgroundTaskError() to debug.")
            return
        }
        record(id, .assertionEnded, .assertionEnded(number: number))
    }
}
