public import OffstageKit

/// The refresh forgets `setTaskCompleted` on its error path (no network): the task runs on until it expires,
/// and the expiration handler cancels work that has already ended, so nothing completes it and the watchdog
/// kills the app.
public final class NoCompletionOnErrorApp: SyncApp, @unchecked Sendable {
    public override func completeAfterError(_ task: BGAppRefreshTask) {
        // Bug: the error is swallowed and the task never completed.
    }
}

/// The save's `beginBackgroundTask` is ended only once there is something to save: with nothing added, the
/// assertion is never ended and the watchdog kills the app when its background time runs out.
public final class UnendedBackgroundTaskApp: SyncApp, @unchecked Sendable {
    public override func saveItems(_ application: UIApplication) {
        let assertion = application.beginBackgroundTask(withName: "save items", expirationHandler: nil)
        guard !unsaved.isEmpty else { return }  // Bug: returns without endBackgroundTask.
        disk.save(unsaved)
        unsaved = []
        application.endBackgroundTask(assertion)
    }
}

/// The refresh sets no expiration handler: when the task expires the system completes it, but nothing stops
/// the work, which goes on writing chunks after its task has ended.
public final class NoExpirationHandlerApp: SyncApp, @unchecked Sendable {
    public override func setExpirationHandler(of task: BGAppRefreshTask) {
        // Bug: no `task.expirationHandler`.
    }
}

/// Registers its refresh handler once the app is active, after launch has finished: iOS crashes the app.
public final class LateRegistrationApp: SyncApp, @unchecked Sendable {
    public override func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { true }

    public func applicationDidBecomeActive(_ application: UIApplication) {
        registerRefresh()  // Bug: after launch has finished.
    }
}

/// Saves the user's items only in `applicationWillTerminate`, which iOS does not call when it ends a suspended
/// app (jetsam, a force-quit from the switcher): the items added since are lost.
public final class SaveOnlyInWillTerminateApp: SyncApp, @unchecked Sendable {
    public override func saveItems(_ application: UIApplication) {}  // Bug: nothing saved on leaving the screen.

    public func applicationWillTerminate(_ application: UIApplication) {
        disk.save(unsaved)
        unsaved = []
    }
}

/// The expiration handler only sets a flag, which the work reads after each chunk: the chunk in progress goes
/// on (up to 3 s of work) after the expiration before the task is completed.
public final class WorkAfterExpirationApp: SyncApp, @unchecked Sendable {
    private let expired = LockedFlag()

    public override func refresh(_ task: BGAppRefreshTask) async {
        for _ in 0..<3 {
            try? await Task.sleep(for: .seconds(3))  // Bug: not cancelled, and the flag is read only after.
            disk.writeChunk()
            if expired.isSet { break }
        }
        task.setTaskCompleted(success: !expired.isSet)
    }

    public override func setExpirationHandler(of task: BGAppRefreshTask) {
        task.expirationHandler = { self.expired.set() }
    }
}

/// A flag set from one thread and read from another.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
