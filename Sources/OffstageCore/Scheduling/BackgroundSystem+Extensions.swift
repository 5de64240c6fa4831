/// App extensions (issue 16 item 9): an extension may submit task requests, and they run in its host app, which
/// the system launches for them; only the host registers launch handlers (`NS_EXTENSION_UNAVAILABLE("Only the
/// host application may register launch handlers")`), so an extension's `register` returns false
/// (`AppLifecycle.registerLaunchHandler`).
extension BackgroundSystem {
    /// An extension's `submit`: judged as the host app's own (its Info.plist, its pending requests, its Background
    /// App Refresh), except that the extension's process registers no handlers; the host's launch does.
    mutating func submit(fromExtension id: BundleID, for host: BundleID, _ request: TaskRequest) -> AppCallResult {
        guard apps.contains(host) else {
            record(
                id, .rejected, task: request.identifier, reason: "unavailable: its host app \(host) is not installed")
            return .failed(.unavailable)
        }
        if apps[id].manifest.isKeyboardWithoutOpenAccess(granted: settings.fullAccessKeyboards) {
            record(
                id, .rejected, task: request.identifier,
                reason: "unavailable: a keyboard extension without open access (RequestsOpenAccess and the user's "
                    + "Allow Full Access)")
            return .failed(.unavailable)
        }
        record(
            id, .log, task: request.identifier, reason: "submitted by an app extension: runs in its host app \(host)")
        scheduler.mark(apps.position(of: host))
        return submit(host, request, fromExtension: true)
    }

    /// Whose requests the app's `BGTaskScheduler` submits, cancels and lists: an extension's host app's (when it
    /// is installed), else its own.
    func schedulingApp(of id: BundleID) -> BundleID {
        guard let host = apps[id].manifest.hostApp, apps.contains(host) else { return id }
        return host
    }
}
