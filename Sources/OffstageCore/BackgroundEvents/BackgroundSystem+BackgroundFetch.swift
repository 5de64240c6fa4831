/// Legacy background fetch (§7, iOS 7–12): `setMinimumBackgroundFetchInterval(_:)` and
/// `application(_:performFetchWithCompletionHandler:)`. Fetches pass the same gates as app-refresh tasks;
/// slow or failing fetches double the interval (up to a limit) and a fetch with new data restores it.
extension BackgroundSystem {
    static let fetchLabel = BackgroundEvent.fetch.label

    /// `setMinimumBackgroundFetchInterval(_:)`: nil (`backgroundFetchIntervalNever`) stops fetches.
    /// Setting the interval it already has keeps the schedule (apps set it at every launch).
    mutating func setFetchInterval(_ id: BundleID, _ interval: Double?) {
        guard apps[id].backgroundEvents.setFetchInterval(interval, at: now) else { return }
        guard let interval else {
            return record(
                id, .log, task: Self.fetchLabel,
                reason: "setMinimumBackgroundFetchInterval(backgroundFetchIntervalNever): no background fetches")
        }
        let asked = interval <= 0 ? "backgroundFetchIntervalMinimum" : "\(oneDecimal(interval)) s"
        if let problem = fetchProblem(apps[id].manifest) {
            return record(
                id, .log, task: Self.fetchLabel,
                reason: "setMinimumBackgroundFetchInterval(\(asked)) has no effect: \(problem)")
        }
        let effective = effectiveFetchInterval(apps[id].backgroundEvents)
        record(
            id, .log, task: Self.fetchLabel,
            reason: "setMinimumBackgroundFetchInterval(\(asked)): fetches at most every \(oneDecimal(effective)) s")
    }

    /// Why an app with `manifest` cannot use legacy background fetch at all, or nil.
    private func fetchProblem(_ manifest: AppManifest) -> String? {
        if !manifest.backgroundModes.contains(.fetch) { return "UIBackgroundModes lacks 'fetch'" }
        if !manifest.permittedIdentifiers.isEmpty {
            return "the Info.plist has BGTaskSchedulerPermittedIdentifiers, which disables legacy background fetch"
        }
        return nil
    }

    /// The interval the system uses: the app's (at least the policy's minimum) times the backoff factor.
    private func effectiveFetchInterval(_ events: AppBackgroundEvents) -> Double {
        events.effectiveFetchInterval(minimum: policy.minimumBackgroundFetchInterval)
    }

    /// Everything that holds the app's next fetch back (empty when it is due and allowed; empty too
    /// when the app asked for no fetches). Besides the interval, the refresh constraints judge it, as an
    /// app-refresh request with the identifier `<bundle>.background-fetch`.
    func fetchBlockers(_ id: BundleID) -> [Blocker] {
        guard let app = apps.lookUp(id), app.backgroundEvents.fetchInterval != nil else { return [] }
        if let problem = fetchProblem(app.manifest) {
            return [Blocker(constraint: "fetchUnavailable", reason: problem, until: nil)]
        }
        let events = app.backgroundEvents
        if events.isFetching {
            return [Blocker(constraint: "fetchInProgress", reason: "a background fetch is being handled", until: nil)]
        }
        var blockers: [Blocker] = []
        let due = events.nextFetch(minimumInterval: policy.minimumBackgroundFetchInterval)
        if now < due {
            let backoff = events.fetchBackoff
            let factor = backoff == 1 ? "" : ", ×\(factorText(backoff)) after slow or failed fetches"
            blockers.append(
                Blocker(
                    constraint: "fetchInterval",
                    reason: "the next fetch is \(oneDecimal(effectiveFetchInterval(events))) s after the last\(factor)",
                    until: due))
        }
        let probe = TaskRequest(identifier: "\(id).\(Self.fetchLabel)", kind: .appRefresh)
        return blockers + constraints.blockers(for: probe, as: .backgroundFetch, in: context(for: id))
    }

    /// Starts a fetch if one is due and nothing blocks it (the app is launched or resumed for it);
    /// otherwise records why it waits, when that changes.
    mutating func startFetchIfDue(_ id: BundleID) {
        let app = apps[id]
        guard app.backgroundEvents.fetchInterval != nil, app.terminating == nil, !app.backgroundEvents.isFetching
        else { return }
        let blockers = fetchBlockers(id)
        recordDeferral(id, .fetch, Self.fetchLabel, blockers)
        guard blockers.isEmpty else { return }
        // A fetch is a discretionary launch like a refresh (WWDC20): it counts in the quota and the rate limit.
        noteDiscretionaryStart(id)
        beginDelivery(id, .fetch, why: "to perform a background fetch")
    }

    /// Judges a fetch that ended (`result` nil: the handler was never called) and records a change of its
    /// backoff: failed, slow or unfinished fetches double the interval, a fetch with new data restores it.
    mutating func noteFetchEnded(_ id: BundleID, result: BackgroundFetchResult?, took: Double) {
        guard let change = apps[id].backgroundEvents.fetchEnded(result: result, took: took, at: now, policy: policy)
        else { return }
        let interval = effectiveFetchInterval(apps[id].backgroundEvents)
        record(
            id, .log, task: Self.fetchLabel,
            reason: "fetch interval ×\(factorText(change.after)) (was ×\(factorText(change.before))): \(change.why); "
                + "next fetch in \(oneDecimal(interval)) s")
    }

    /// Every app that asked for background fetches, with its schedule and every reason the next fetch waits.
    public func backgroundFetches() -> [BackgroundFetchStatus] {
        installed.compactMap { id in
            let events = apps[id].backgroundEvents
            guard let interval = events.fetchInterval else { return nil }
            return BackgroundFetchStatus(
                app: id, requestedInterval: interval, effectiveInterval: effectiveFetchInterval(events),
                backoff: events.fetchBackoff, inProgress: events.isFetching, blockers: fetchBlockers(id))
        }
    }
}

/// A backoff factor as records show it: "2", or "1.5" when not whole.
func factorText(_ factor: Double) -> String {
    factor == factor.rounded() ? "\(Int(factor))" : oneDecimal(factor)
}
