/// How decisions are brought up to date after each entry point without looking at every app:
/// only apps marked dirty (named by the event or call, or changed by a transition) and apps whose review time came.
extension BackgroundSystem {
    /// Reviews dirty apps, in installation order, and supervises their running work, until no app is
    /// left dirty; then queues each reviewed app's next review and drops superseded ones from the top,
    /// so `nextDueTime` is exact. Work is proportional to the apps concerned, not to all apps or requests.
    mutating func settle() {
        handleTransfers(.timePassed)
        handleNotifications(.timePassed)
        while let due = scheduler.takeReview(dueBy: now) {
            if apps[due.app].scheduledReview == due.at {
                apps[due.app].scheduling.noteReview(at: nil)
                scheduler.mark(apps.position(of: due.app))
            }
        }
        var reviewed = AppSet()
        var batch = AppSet()
        repeat {
            while scheduler.hasMarkedApps {
                scheduler.takeMarkedApps(into: &batch)
                reviewed.formUnion(batch)
                for position in batch { review(apps.id(at: position)) }
            }
            superviseRunningWork(reviewed)
        } while scheduler.hasMarkedApps
        for position in reviewed { queueNextReview(apps.id(at: position)) }
        while let top = scheduler.nextReview, apps[top.app].scheduledReview != top.at { scheduler.dropNextReview() }
    }

    /// Forgets every app's kept judgement and usage tier: the policy, the settings, the wall clock or the
    /// constraints changed, which every judgement reads. Which apps to review is the change's to say.
    mutating func forgetKeptJudgements() {
        for id in installed {
            apps[id].scheduling.forgetJudgement()
            apps[id].judgementHistory.forgetUsageTier()
        }
    }

    /// Marks the app for review before the entry point returns: a transition changed what its review reads (its
    /// life cycle, its process, its tasks, its requests). Records never do: they are output only.
    mutating func reviewAgain(_ id: BundleID) { scheduler.mark(apps.position(of: id)) }

    /// Marks every app for review: the wall clock moved, or the system's memory was restored.
    mutating func reviewEveryApp() {
        scheduler.markEveryApp(count: installed.count)
    }

    /// Marks for review the apps a change of shared state (the device, the settings, the screen) can concern: those
    /// with a live process or work in flight, and those with a request `changes` can lift (`BlockerLifts`).
    /// A change that changed nothing (a host reporting the network or the battery as it was) reviews none.
    mutating func reviewAppsConcerned(by changes: BlockerLifts) {
        if !changes.isEmpty { scheduler.markAppsConcerned(by: changes) }
    }

    /// One app's decisions: deadlines, interrupted tasks, requests to start, callbacks, tasks, pushes,
    /// fetches and location events, suspension. `id` is installed (its position came from the table), so the
    /// passes below, run only from here, read its record without asking first.
    mutating func review(_ id: BundleID) {
        fireTimers(id)
        interruptRunningTasks(id)
        schedulePendingRequests(id)
        pumpCallbacks(id)
        deliverReadyTasks(id)
        settleBackgroundWork(id)
        let otherWork = apps[id].hasWorkBeyondLifecycle
        carryOut(apps[id].lifecycle.suspendIfIdle(otherWork: otherWork), for: id)
        let app = apps[id]
        scheduler.noteReviewed(
            apps.position(of: id), hasRunningTasks: app.hasRunningTasks,
            concernedByEverySharedChange: app.concernedByEverySharedChange)
    }

    /// Queues the app's next review at its earliest future deadline, unless one is already queued then.
    mutating func queueNextReview(_ id: BundleID) {
        let next = nextDeadline(of: id)
        guard next != apps[id].scheduledReview else { return }
        apps[id].scheduling.noteReview(at: next)
        if let next { scheduler.queue(Scheduler.Review(at: next, app: id, order: apps[id].installIndex)) }
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
