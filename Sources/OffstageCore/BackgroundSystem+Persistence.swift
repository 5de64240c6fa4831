/// What a host restores after a restart (the daemon, from its store): the user's settings and the
/// requests that were pending. Not events: nothing happened, the system only remembers.
extension BackgroundSystem {
    /// Puts back the user's settings as they were saved.
    public mutating func restoreSettings(_ saved: UserSettings) { settings = saved }

    /// Puts back `requests` that were pending for `app` when the host stopped, and schedules as usual.
    /// Continued-processing requests are not restored: they end with the process that made them.
    public mutating func restorePending(_ requests: [TaskRequest], for app: BundleID, at time: Instant) -> [Effect] {
        begin(at: time)
        if apps[app] != nil {
            for request in requests where request.kind != .continuedProcessing {
                guard !apps[app]!.pending.contains(where: { $0.identifier == request.identifier }) else { continue }
                apps[app]!.pending.append(request)
                record(app, .submitted, task: request.identifier, reason: "\(request.kind.rawValue) request restored")
            }
        } else {
            record(app, .log, reason: "pending requests for an app that is not installed: dropped")
        }
        return finish()
    }
}
