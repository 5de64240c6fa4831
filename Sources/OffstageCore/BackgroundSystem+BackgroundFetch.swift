/// Legacy background fetch (§7, iOS 7–12): `setMinimumBackgroundFetchInterval(_:)` and
/// `application(_:performFetchWithCompletionHandler:)`. Fetches pass the same gates as app-refresh tasks;
/// slow or failing fetches double the interval (up to a limit) and a fetch with new data restores it.
extension BackgroundSystem {
    static let fetchLabel = BackgroundEvent.fetch.label

    /// `setMinimumBackgroundFetchInterval(_:)`: nil (`backgroundFetchIntervalNever`) stops fetches.
    /// Setting the interval it already has keeps the schedule (apps set it at every launch).
    mutating func setFetchInterval(_ id: BundleID, _ interval: Double?) {
        let app = apps[id]
        guard app.backgroundWork.fetchInterval != interval else { return }
        apps[id].backgroundWork.fetchInterval = interval
        apps[id].backgroundWork.fetchSince = now
        apps[id].backgroundWork.lastFetchBlockers = []
        guard let interval else {
            return record(
                id, .log, task: Self.fetchLabel,
                reason: "setMinimumBackgroundFetchInterval(backgroundFetchIntervalNever): no background fetches")
        }
        let asked = interval <= 0 ? "backgroundFetchIntervalMinimum" : "\(oneDecimal(interval)) s"
        if let problem = fetchProblem(app) {
            return record(
                id, .log, task: Self.fetchLabel,
                reason: "setMinimumBackgroundFetchInterval(\(asked)) has no effect: \(problem)")
        }
        record(
            id, .log, task: Self.fetchLabel,
            reason: "setMinimumBackgroundFetchInterval(\(asked)): fetches at most every "
                + "\(oneDecimal(effectiveFetchInterval(apps[id].backgroundWork))) s")
    }

    /// Why the app cannot use legacy background fetch at all, or nil.
    func fetchProblem(_ app: AppRecord) -> String? {
        if !app.manifest.backgroundModes.contains(.fetch) { return "UIBackgroundModes lacks 'fetch'" }
        if !app.manifest.permittedIdentifiers.isEmpty {
            return "the Info.plist has BGTaskSchedulerPermittedIdentifiers, which disables legacy background fetch"
        }
        return nil
    }

    /// The interval the system uses: the app's (at least the policy's minimum) times the backoff factor.
    func effectiveFetchInterval(_ work: BackgroundWorkState) -> Double {
        max(work.fetchInterval ?? 0, policy.minimumBackgroundFetchInterval) * work.fetchBackoff
    }

    /// Everything that holds the app's next fetch back (empty when it is due and allowed; empty too
    /// when the app asked for no fetches). Besides the interval, the refresh constraints judge it, as an
    /// app-refresh request with the identifier `<bundle>.background-fetch`.
    func fetchBlockers(_ id: BundleID) -> [Blocker] {
        guard let app = apps.lookUp(id), app.backgroundWork.fetchInterval != nil else { return [] }
        if let problem = fetchProblem(app) {
            return [Blocker(constraint: "fetchUnavailable", reason: problem, until: nil)]
        }
        if app.backgroundWork.deliveries.contains(where: { $0.event == .fetch }) {
            return [Blocker(constraint: "fetchInProgress", reason: "a background fetch is being handled", until: nil)]
        }
        var blockers: [Blocker] = []
        let interval = effectiveFetchInterval(app.backgroundWork)
        let due = app.backgroundWork.fetchSince + interval
        if now < due {
            let backoff = app.backgroundWork.fetchBackoff
            let factor = backoff == 1 ? "" : ", ×\(factorText(backoff)) after slow or failed fetches"
            blockers.append(
                Blocker(
                    constraint: "fetchInterval",
                    reason: "the next fetch is \(oneDecimal(interval)) s after the last\(factor)", until: due))
        }
        let probe = TaskRequest(identifier: "\(id).\(Self.fetchLabel)", kind: .appRefresh)
        return blockers + constraints.blockers(for: probe, as: .backgroundFetch, in: context(for: id))
    }

    /// Starts a fetch if one is due and nothing blocks it (the app is launched or resumed for it);
    /// otherwise records why it waits, when that changes.
    mutating func startFetchIfDue(_ id: BundleID) {
        guard let app = apps.lookUp(id), app.backgroundWork.fetchInterval != nil, app.terminating == nil,
            !app.backgroundWork.deliveries.contains(where: { $0.event == .fetch })
        else { return }
        let blockers = fetchBlockers(id)
        recordDeferral(id, Self.fetchLabel, blockers, last: \.lastFetchBlockers)
        guard blockers.isEmpty else { return }
        // A fetch is a discretionary launch like a refresh (WWDC20): it counts in the quota and the rate limit.
        noteDiscretionaryStart(id)
        beginDelivery(id, .fetch, why: "to perform a background fetch")
    }

    /// Judges a fetch that ended (`result` nil: the handler was never called): failed, slow or unfinished
    /// fetches double the interval, up to `maxBackgroundFetchBackoff`; a fetch with new data restores it.
    mutating func noteFetchEnded(_ id: BundleID, result: BackgroundFetchResult?, took: Double) {
        var work = apps[id].backgroundWork
        let before = work.fetchBackoff
        let why: String
        var slowOrFailed = true
        switch result {
        case nil: why = "the completion handler was not called"
        case .failed?: why = "the fetch failed"
        case _ where took > policy.slowBackgroundFetch:
            why = "the fetch took \(oneDecimal(took)) s (slow: over \(oneDecimal(policy.slowBackgroundFetch)) s)"
        case .newData?:
            why = "the fetch brought new data"
            slowOrFailed = false
        case .noData?:
            why = "no new data"
            slowOrFailed = false
        }
        if slowOrFailed {
            work.fetchBackoff = min(before * 2, Double(policy.maxBackgroundFetchBackoff))
        } else if result == .newData {
            work.fetchBackoff = 1
        }
        work.fetchSince = now
        apps[id].backgroundWork = work
        guard work.fetchBackoff != before else { return }
        record(
            id, .log, task: Self.fetchLabel,
            reason: "fetch interval ×\(factorText(work.fetchBackoff)) (was ×\(factorText(before))): \(why); "
                + "next fetch in \(oneDecimal(effectiveFetchInterval(work))) s")
    }

    /// Every app that asked for background fetches, with its schedule and every reason the next fetch waits.
    public func backgroundFetches() -> [BackgroundFetchStatus] {
        installed.compactMap { id in
            let work = apps[id].backgroundWork
            guard let interval = work.fetchInterval else { return nil }
            return BackgroundFetchStatus(
                app: id, requestedInterval: interval, effectiveInterval: effectiveFetchInterval(work),
                backoff: work.fetchBackoff, inProgress: work.deliveries.contains { $0.event == .fetch },
                blockers: fetchBlockers(id))
        }
    }
}

/// A backoff factor as records show it: "2", or "1.5" when not whole.
func factorText(_ factor: Double) -> String {
    factor == factor.rounded() ? "\(Int(factor))" : oneDecimal(factor)
}
