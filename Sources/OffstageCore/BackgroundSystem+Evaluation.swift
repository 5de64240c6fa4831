/// What the baselines of policy evaluation need from the system: the oracle's knowledge of the
/// user's future launches, announced by the host (`SystemEvent.announceLaunch`), and served by refreshes.
extension BackgroundSystem {
    /// Remembers that the user opens `id` at `time`, in time order.
    mutating func announceLaunch(_ id: BundleID, at time: Instant) {
        guard apps.contains(id) else { return }
        let index = apps[id].announcedLaunches.firstIndex { $0 > time } ?? apps[id].announcedLaunches.endIndex
        apps[id].announcedLaunches.insert(time, at: index)
    }

    /// The prediction when the judgement is off: for the oracle, the first announced launch not yet past
    /// (the refresh window is before it); for the other baselines, none.
    mutating func predictAnnouncedLaunch(_ id: BundleID) {
        guard case .oracle = policy.strategy else {
            apps[id].prediction = nil
            return
        }
        let past = apps[id].announcedLaunches.prefix { $0 < now }.count
        apps[id].announcedLaunches.removeFirst(past)
        apps[id].prediction = (apps[id].announcedLaunches.first, now)
    }

    /// A refresh started for the oracle: the launches within its lead are served by it.
    mutating func serveAnnouncedLaunch(_ id: BundleID) {
        guard case .oracle(let lead) = policy.strategy else { return }
        let served = apps[id].announcedLaunches.prefix { $0 <= now + lead }.count
        apps[id].announcedLaunches.removeFirst(served)
        apps[id].prediction = nil
    }
}
