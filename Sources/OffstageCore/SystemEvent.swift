/// Something that happened outside the apps: the user, the device, memory, or a process.
/// Hosts feed these to `BackgroundSystem.handle(_:at:)` with the time they happened.
public enum SystemEvent: Hashable, Sendable, Codable {
    // The user.
    /// Tap the app's icon or its card in the app switcher.
    case open(BundleID)
    /// Go to the home screen.
    case home
    case lock
    case unlock
    /// The screen lit while the device stays locked (raised to look, a notification): no app opens.
    /// Usage traces carry it; the judgement learns which apps follow it.
    case screenOn
    /// A notification of the app appeared on the screen (an alert, not a silent background push).
    /// Usage traces carry it; a person often opens the app soon after.
    case notificationShown(BundleID)
    /// The user tapped the app's notification in Notification Center (the one with this identifier, or the newest):
    /// the app opens and its `UNUserNotificationCenterDelegate` gets `didReceive`.
    case notificationTapped(BundleID, identifier: String?)
    /// Open the app switcher: the foreground app resigns active.
    case openSwitcher
    /// Swipe an app away in the app switcher: force-quit.
    case swipeAway(BundleID)
    /// A call or alert covers the foreground app.
    case interruptionBegan
    /// The interruption ends; `accepted` (the user took the call) sends the app to the background.
    case interruptionEnded(accepted: Bool)

    // Settings.
    case setBackgroundAppRefresh(Bool)
    case setBackgroundAppRefreshRestricted(Bool)
    case setAppBackgroundAppRefresh(BundleID, Bool)
    case setContinuedProcessing(BundleID, Bool)
    case setLowPowerMode(Bool)
    case setLowDataMode(Bool)

    // The device.
    case setBattery(level: Double, charging: Bool)
    case setNetwork(NetworkKind)
    case setThermalState(ThermalState)
    /// What a suspended app hears when it is resumed in the background (`DeviceState.resumeCallback`).
    case setResumeCallback(ResumeCallback)
    /// Memory is short: jetsam kills apps until `bytes` are freed.
    case memoryPressure(bytes: Int)
    case setMemoryFootprint(BundleID, bytes: Int)
    /// The wall clock was set: `epochAtZero` changes, monotonic deadlines do not.
    case setWallClock(WallClock)

    // Processes.
    /// The app's process ended on its own (crash, exit) without the system asking.
    case processExited(BundleID, reason: String)
    /// The app's process used these resources in the interval ending now (measured or modelled by the host).
    case resourceUsage(BundleID, ResourceUsage)

    // Debugging, the public equivalent of Apple's private LLDB calls.
    case simulateLaunch(BundleID, identifier: String)
    case simulateExpiration(BundleID, identifier: String)

    /// Nothing happened; time passed. Hosts send it at `nextDueTime`.
    case tick

    // MARK: Continued processing: the user in the system's progress UI
    /// The user tapped cancel on the running task's progress UI: its expiration handler runs.
    case cancelContinuedProcessingTask(BundleID, identifier: String)
    /// The user answered the system's question about a slow task: let it go on, or stop it.
    case answerContinuedProcessingQuestion(BundleID, identifier: String, answer: SlowTaskAnswer)
    // MARK: Energy
    /// The charger was plugged in (`true`) or out; the battery level stays what it is.
    case setCharging(Bool)
    // MARK: Background pushes and location events (§7)
    /// A background push (`content-available: 1`, `apns-priority: 5`) arrived for the app.
    case backgroundPush(BundleID, payload: String)
    /// A significant location change or a region crossing, for an app that monitors it.
    case locationEvent(BundleID, LocationEvent)
}

/// What an app's code asks of the system: the calls behind `UIApplication` and `BGTaskScheduler`.
/// Each gets an `AppCallResult` at once, as the iOS API is synchronous.
public enum AppCall: Hashable, Sendable, Codable {
    case register(identifier: String)
    case submit(TaskRequest)
    case cancel(identifier: String)
    case cancelAll
    case pendingRequests
    case beginBackgroundTask(name: String?)
    /// `ProcessInfo.performExpiringActivity(withReason:using:)`: the same assertion as `beginBackgroundTask`, and
    /// the only one an app extension may take.
    case beginExpiringActivity(reason: String)
    case endBackgroundTask(Int)
    case backgroundTimeRemaining
    case applicationState
    case backgroundRefreshStatus
    /// Whether continued-processing tasks may use the GPU on this device.
    case supportedResources
    case setTaskCompleted(taskID: Int, success: Bool)
    case updateTitle(taskID: Int, title: String, subtitle: String)
    case reportProgress(taskID: Int, completed: Int64, total: Int64)
    /// The app's delegate returned from the callback with this token.
    case returned(token: Int)
    case simulateLaunch(identifier: String)
    case simulateExpiration(identifier: String)

    // MARK: Background pushes, legacy fetch and background modes (§7)
    /// The app called the completion handler of a push or fetch with `token`.
    case backgroundEventCompleted(token: Int, result: BackgroundFetchResult)
    /// `setMinimumBackgroundFetchInterval(_:)`; nil is `backgroundFetchIntervalNever`.
    case setMinimumBackgroundFetchInterval(Double?)
    /// The app started (or stopped) the work of a continuous background mode: audio playing, a call…
    case setBackgroundActivity(BackgroundMode, active: Bool)
    /// `startMonitoringSignificantLocationChanges()` / `stopMonitoringSignificantLocationChanges()`.
    case setSignificantLocationMonitoring(Bool)
    /// `startMonitoring(for:)` / `stopMonitoring(for:)` of the region with this identifier.
    case setRegionMonitoring(identifier: String, Bool)
    /// The app's code began work `number` that uses `cpuSeconds` of one core over the next `seconds`
    /// (`OffstageWork.begin`): the CPU monitor counts it while it runs, as iOS measures a process as it runs.
    case workBegan(number: Int, cpuSeconds: Double, seconds: Double)
    /// Work `number` ended before its time was up (its use comes in the resource report that follows); work that
    /// runs its whole time needs no such call.
    case workEnded(number: Int)

    // MARK: Background location misuse and launch options
    /// `CLLocationManager.allowsBackgroundLocationUpdates` was set to `true`: without `location` in
    /// `UIBackgroundModes` the app crashes, as on iOS.
    case allowBackgroundLocationUpdates
    /// The options `application(_:willFinishLaunchingWithOptions:)` and `…didFinishLaunchingWithOptions:`
    /// receive: why this launch happened (answered with `AppCallResult.launchOptions`).
    case launchOptions

    // MARK: Background URLSession
    /// A task of a background session was resumed: the system takes its transfer over.
    case startBackgroundTransfer(BackgroundTransferRequest)
    /// A task of a background session was cancelled.
    case cancelBackgroundTransfer(session: String, task: Int)

    // MARK: Local notifications (Notifications/)
    /// `UNUserNotificationCenter.add(_:)`: the system delivers the notification at its times.
    case scheduleNotification(LocalNotificationSchedule)
    /// `removePendingNotificationRequests(withIdentifiers:)`; nil: `removeAllPendingNotificationRequests()`.
    case removePendingNotifications(identifiers: [String]?)

    /// Whether the call only reads the system (the app's state, its time left, its pending requests, its launch
    /// options…): it changes nothing a review reads, so the app is not reviewed for it.
    var onlyReads: Bool {
        switch self {
        case .pendingRequests, .backgroundTimeRemaining, .applicationState, .backgroundRefreshStatus,
            .supportedResources, .launchOptions:
            true
        default: false
        }
    }
}

/// The system's answer to an `AppCall`.
public enum AppCallResult: Hashable, Sendable, Codable {
    case ok
    case registered(Bool)
    case failed(TaskSchedulerErrorCode)
    case pending([TaskRequest])
    case backgroundTask(Int)
    case timeRemaining(Double)
    case state(AppState)
    case refreshStatus(BackgroundRefreshStatus)
    case resources(gpu: Bool)
    /// The call broke a rule: the app crashes with iOS's message; the system has already ended it.
    case crash(String)
    /// The caller has no live process (it was killed while its code ran); the call is ignored.
    case notRunning

    // MARK: Launch options
    /// Why the app was launched, for its `launchOptions`.
    case launchOptions(LaunchOptions)
}
