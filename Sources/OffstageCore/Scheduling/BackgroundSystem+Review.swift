import HeapModule

/// How decisions are brought up to date after each entry point without looking at every app:
/// only apps marked dirty (named by the event or call, or by a record) and apps whose review time came.
extension BackgroundSystem {
    /// A queued review of one app at a time: a deadline or a blocker that lifts by itself.
    struct Review: Comparable, Sendable {
        var at: Instant
        var app: BundleID
        var order: Int
        static func < (a: Review, b: Review) -> Bool { (a.at, a.order) < (b.at, b.order) }
        static func == (a: Review, b: Review) -> Bool { (a.at, a.order) == (b.at, b.order) }
    }

    /// Reviews dirty apps, in installation order, and supervises their running work, until no app is
    /// left dirty; then queues each reviewed app's next review and drops superseded ones from the top,
    /// so `nextDueTime` is exact. Work is proportional to the apps concerned, not to all apps or requests.
    mutating func settle() {
        settleBackgroundTransfers()
        while let top = reviews.min, top.at <= now {
            reviews.removeMin()
            if apps[top.app].scheduledReview == top.at {
                apps[top.app].scheduling.noteReview(at: nil)
                dirty.insert(apps.position(of: top.app))
            }
        }
        var reviewed = AppSet()
        var batch = AppSet()
        repeat {
            while !dirty.isEmpty {
                swap(&batch, &dirty)  // the reviews mark apps in storage of its own, changed in place
                dirty.removeAll()
                reviewed.formUnion(batch)
                for position in batch { review(apps.id(at: position)) }
            }
            superviseRunningWork(reviewed)
        } while !dirty.isEmpty
        for position in reviewed { queueNextReview(apps.id(at: position)) }
        while let top = reviews.min, apps[top.app].scheduledReview != top.at { reviews.removeMin() }
    }

    /// Forgets every app's kept judgement and usage tier: the policy, the settings, the wall clock or the
    /// constraints changed, which every judgement reads. Which apps to review is the change's to say.
    mutating func forgetKeptJudgements() {
        for id in installed {
            apps[id].scheduling.forgetJudgement()
            apps[id].judgementHistory.forgetUsageTier()
        }
    }

    /// Marks every app for review: the wall clock moved, or the system's memory was restored.
    mutating func reviewEveryApp() {
        for position in installed.indices { dirty.insert(position) }
    }

    /// Marks for review every app a change of shared state (the device, the settings, the screen) can
    /// concern; an app whose requests each wait on its own state or the time is left to its own review.
    mutating func reviewAppsSharedChangesConcern() { dirty.formUnion(appsSharedChangesConcern) }

    /// One app's decisions: deadlines, interrupted tasks, requests to start, callbacks, tasks, pushes,
    /// fetches and location events, suspension.
    mutating func review(_ id: BundleID) {
        fireTimers(id)
        interruptRunningTasks(id)
        schedulePendingRequests(id)
        pumpCallbacks(id)
        deliverReadyTasks(id)
        settleBackgroundWork(id)
        suspendIfIdle(id)
        let position = apps.position(of: id)
        if !apps[id].hasRunningTasks { appsWithTasks.remove(position) }
        if apps[id].concernedBySharedChanges {
            appsSharedChangesConcern.insert(position)
        } else {
            appsSharedChangesConcern.remove(position)
        }
    }

    /// Queues the app's next review at its earliest future deadline, unless one is already queued then.
    mutating func queueNextReview(_ id: BundleID) {
        let next = nextDeadline(of: id)
        guard next != apps[id].scheduledReview else { return }
        apps[id].scheduling.noteReview(at: next)
        if let next { reviews.insert(Review(at: next, app: id, order: apps[id].installIndex)) }
    }

    /// The earliest time after now at which the app's situation changes with no event: callback watchdogs,
    /// background time, task runtimes and grace periods, the pending requests' blockers lifting, and §7's
    /// deadlines. Folded as found: this runs after every review, and arrays of times cost more than the rest.
    func nextDeadline(of id: BundleID) -> Instant? {
        var next = EarliestAfter(now)
        let app = apps[id]  // looked up once: each lookup probes the table
        noteProcessDeadlines(of: app, in: &next)
        for run in app.running where run.delivered {
            next.note(run.expiredAt.map { $0 + policy.expirationGrace } ?? run.expiresAt)
        }
        next.note(app.blockersLift)
        noteBackgroundWorkDeadlines(of: id, in: &next)
        return next.earliest
    }
}

/// The earliest of the times noted that are after a given instant: a deadline search without arrays.
struct EarliestAfter {
    let after: Instant
    private(set) var earliest: Instant?

    init(_ after: Instant) { self.after = after }

    /// Keeps `time` if it is after the bound and earlier than any kept so far.
    mutating func note(_ time: Instant?) {
        guard let time, time > after, earliest.map({ time < $0 }) ?? true else { return }
        earliest = time
    }
}
