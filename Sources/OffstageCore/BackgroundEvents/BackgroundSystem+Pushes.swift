/// Background pushes (§7): `content-available` pushes at priority 5, always discretionary. Only the newest
/// held push is kept per app; it is delivered when the gates allow and the rate limit has room, or at once
/// when the user opens the app; never after a force-quit until the user opens the app again.
extension BackgroundSystem {
    static let pushLabel = BackgroundEvent.remoteNotification(payload: "").label

    /// A push arrived: dropped if the app cannot take it, else held (replacing an older held one).
    mutating func receivePush(_ id: BundleID, payload: String) {
        let label = Self.pushLabel
        guard let app = apps.lookUp(id) else {
            return record(nil, .log, reason: "background push for \(id), which is not installed: dropped")
        }
        record(id, .push, task: label, reason: "background push arrived (payload \"\(payload)\")")
        if !app.manifest.backgroundModes.contains(.remoteNotification) {
            return record(id, .dropped, task: label, .pushDropped(.modeMissing))
        }
        if app.forceQuit, FactorTable.standard.holds(.appSwitcher, .backgroundPush) {
            return record(id, .dropped, task: label, .pushDropped(.swipedAway))
        }
        if let older = apps[id].backgroundEvents.hold(HeldPush(payload: payload, arrivedAt: now)) {
            record(id, .dropped, task: label, .pushCoalesced(arrivedAt: older.arrivedAt, payload: older.payload))
        }
    }

    /// Delivers the held push if nothing blocks it (the app on screen takes it at once, outside the rate limit);
    /// otherwise records why it waits, when that changes.
    mutating func deliverHeldPushIfAllowed(_ id: BundleID) {
        guard apps[id].backgroundEvents.heldPush != nil, apps[id].terminating == nil else { return }
        let blockers = pushBlockers(id)
        recordDeferral(id, .heldPush, Self.pushLabel, blockers)
        guard blockers.isEmpty else { return }
        let onScreen = foregroundApp == id
        guard
            let held = apps[id].backgroundEvents.releaseHeldPush(
                countingWakeAt: onScreen ? nil : now, window: policy.backgroundPushRateWindow)
        else { return }
        let why = onScreen ? "the app is on screen" : "no constraint holds the push back"
        beginDelivery(id, .remoteNotification(payload: held.payload), why: "to deliver a background push: \(why)")
    }

    /// Everything that holds the app's held push back (empty when it may go, or when none is held):
    /// the constraints `FactorTable` applies to pushes, a push still being handled, and their own rate limit.
    func pushBlockers(_ id: BundleID) -> [Blocker] {
        guard let app = apps.lookUp(id), app.backgroundEvents.heldPush != nil, foregroundApp != id else { return [] }
        let probe = TaskRequest(identifier: "\(id).\(Self.pushLabel)", kind: .appRefresh)
        var blockers = constraints.blockers(for: probe, as: .backgroundPush, in: context(for: id))
        if app.backgroundEvents.isHandlingPush {
            blockers.append(
                Blocker(constraint: "pushInProgress", reason: "the app is still handling a background push", until: nil)
            )
        }
        if FactorTable.standard.holds(.rateLimiting, .backgroundPush),
            let rateLimit = app.backgroundEvents.pushRateLimitBlocker(
                at: now, window: policy.backgroundPushRateWindow, limit: policy.backgroundPushRateLimit)
        {
            blockers.append(rateLimit)
        }
        return blockers
    }

    /// The held push is thrown away: the app's process ended (force-quit, or killed by the system).
    mutating func discardHeldPush(_ id: BundleID, because why: String) {
        guard apps.contains(id), let held = apps[id].backgroundEvents.discardHeldPush() else { return }
        record(id, .dropped, task: Self.pushLabel, .heldPushDiscarded(payload: held.payload, because: why))
    }

    /// Every held background push, with every reason it waits: the push counterpart of `explain()`.
    public func heldPushes() -> [HeldPushStatus] {
        installed.compactMap { id in
            guard let held = apps[id].backgroundEvents.heldPush else { return nil }
            return HeldPushStatus(app: id, payload: held.payload, arrivedAt: held.arrivedAt, blockers: pushBlockers(id))
        }
    }
}
