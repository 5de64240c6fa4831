/// What the user, the settings and the device do (§2, §8): each event becomes life-cycle moves
/// and state changes; the scheduler then reacts in `settle()`.
extension BackgroundSystem {
    mutating func apply(_ event: SystemEvent) {
        if event.reviewScope == .everyApp { reviewEveryApp() }
        if event.reviewScope != .noApp, let app = event.app, apps.contains(app) { reviewAgain(app) }
        let (appBefore, deviceBefore, settingsBefore) = (foregroundApp, device, settings)
        defer {
            if event.reviewScope == .appsSharedChangesConcern {
                var changes = device.changes(since: deviceBefore)
                if settings != settingsBefore { changes.insert(.settings) }
                if foregroundApp != appBefore { changes.insert(.foregroundApp) }
                reviewAppsConcerned(by: changes)
            }
            noteUsageSignals(of: event, appBefore: appBefore, wasCharging: deviceBefore.isCharging)
        }
        switch event {
        case .open(let id):
            guard apps.contains(id) else { return record(nil, .log, reason: "open: \(id) is not installed") }
            record(id, .user, reason: "open")
            if device.isLocked { unlockToOpen() }
            bringToForeground(id)
        case .home:
            record(nil, .user, reason: "home")
            if let current = foregroundApp { carryOut(apps[current].lifecycle.leaveScreen(), for: current) }
        case .lock:
            record(nil, .user, reason: "lock")
            guard !device.isLocked else { return device.dimWhileLocked(at: now) }
            appUnderLock = foregroundApp
            if let current = foregroundApp { carryOut(apps[current].lifecycle.leaveScreen(), for: current) }
            device.isLocked = true
            device.isScreenOn = false
            device.idleSince = now
        case .unlock:
            let previous = appUnderLock
            unlockToOpen()
            if let previous { bringToForeground(previous) }
        case .screenOn:
            record(nil, .user, reason: "screen on")
            guard device.isLocked, !device.isScreenOn else { return }
            learn(.screenCameOn)
            device.isScreenOn = true
            device.idleSince = nil
        case .notificationShown(let id):
            guard apps.contains(id) else {
                return record(nil, .log, reason: "notification: \(id) is not installed")
            }
            handleNotifications(.shown(id, identifier: Self.scenarioNotificationIdentifier))
        case .notificationTapped(let id, let identifier):
            guard apps.contains(id) else { return record(nil, .log, reason: "tap: \(id) is not installed") }
            handleNotifications(.tapped(id, identifier: identifier))
        case .openSwitcher, .interruptionBegan:
            record(
                nil, .user, reason: event == .openSwitcher ? "open the app switcher" : "interruption (call or alert)")
            guard let current = foregroundApp, apps[current].lifecycle.resignActive() else { return }
            reviewAgain(current)
        case .swipeAway(let id):
            guard switcher.contains(id) else {
                return record(id, .log, reason: "swipe: the app is not in the app switcher")
            }
            record(id, .user, reason: "swipe away in the app switcher")
            // Force-quit: the process ends (with `willTerminate` if it was running); its queued and running
            // continued-processing tasks end with it, without any callback (see `endProcess`).
            apps[id].forceQuit = true
            carryOut(apps[id].lifecycle.terminate(.userForceQuit), for: id)
        case .interruptionEnded(let accepted):
            record(nil, .user, reason: accepted ? "interruption taken" : "interruption dismissed")
            guard let current = foregroundApp else { return }
            if accepted {
                carryOut(apps[current].lifecycle.leaveScreen(), for: current)
            } else {
                bringToForeground(current)
            }
        case .setBackgroundAppRefresh(let on):
            settings.backgroundAppRefresh = on
            record(nil, .setting, reason: "Background App Refresh \(on ? "on" : "off")")
        case .setBackgroundAppRefreshRestricted(let restricted):
            settings.backgroundAppRefreshRestricted = restricted
            record(nil, .setting, reason: "Background App Refresh \(restricted ? "restricted" : "unrestricted")")
        case .setAppBackgroundAppRefresh(let id, let on):
            settings.backgroundAppRefreshOff.turn(id, off: !on)
            record(id, .setting, reason: "Background App Refresh for the app \(on ? "on" : "off")")
        case .setContinuedProcessing(let id, let on):
            settings.continuedProcessingOff.turn(id, off: !on)
            record(id, .setting, reason: "continued-processing tasks \(on ? "allowed" : "off")")
        case .setLowPowerMode(let on):
            settings.lowPowerMode = on
            record(nil, .setting, reason: "Low Power Mode \(on ? "on" : "off")")
        case .setLowDataMode(let on):
            settings.lowDataMode = on
            record(nil, .setting, reason: "Low Data Mode \(on ? "on" : "off")")
        case .setBattery(let level, let charging):
            let plugged = charging != device.isCharging
            device.batteryLevel = min(max(level, 0), 1)
            device.isCharging = charging
            let percent = Int((device.batteryLevel * 100).rounded())
            record(
                nil, .device, reason: "battery \(percent)%\(plugged ? (charging ? ", plugged in" : ", unplugged") : "")"
            )
            turnOffLowPowerModeIfCharged()
        case .setNetwork(let kind):
            device.network = kind
            record(nil, .device, reason: "network: \(kind.rawValue)")
        case .setThermalState(let state):
            device.thermalState = state
            record(nil, .device, reason: "thermal state: \(state.rawValue)")
        case .setResumeCallback(let callback):
            device.resumeCallback = callback
            record(
                nil, .device, reason: "resumed apps hear: \(callback == .none ? "no callback" : "didEnterBackground")")
        case .memoryPressure(let bytes):
            record(nil, .device, reason: "memory pressure: \(bytes) bytes needed")
            let candidates = installed.map { id in
                let app = apps[id]
                return Jetsam.Candidate(
                    id: id, state: app.state, lastUsed: app.lastUsed, memoryFootprint: app.memoryFootprint)
            }
            let (victims, freed) = Jetsam.victims(toFree: bytes, among: candidates, onScreen: foregroundApp)
            for id in victims { carryOut(apps[id].lifecycle.terminate(.memoryPressure), for: id) }
            if freed < bytes {
                record(
                    nil, .log,
                    reason: "memory pressure: freed \(freed) of \(bytes) bytes; the foreground app is never killed")
            }
        case .setMemoryFootprint(let id, let bytes):
            if apps.contains(id) { apps[id].resources.noteFootprint(bytes) }
        case .setWallClock(let clock):
            wallClock = clock
            record(nil, .device, reason: "wall clock set")
        case .processExited(let id, let reason):
            guard apps.contains(id) else { return record(nil, .log, reason: "process exited: \(id) is not installed") }
            endProcess(id, .exited(reason))
        case .resourceUsage(let id, let usage):
            // The app's total, the CPU monitor's window, the energy ledger; a report for an app not installed is
            // the host's mistake.
            guard apps.contains(id) else {
                return record(nil, .log, reason: "resource usage for \(id), not installed: ignored")
            }
            apps[id].resources.noteUsage(usage)
            handleMonitors(.resourceReport(usage, of: id))
            meterEnergy(.usage(usage, of: id))
        case .simulateLaunch(let id, let identifier):
            simulateLaunch(id, identifier: identifier)
        case .simulateExpiration(let id, let identifier):
            simulateExpiration(id, identifier: identifier)
        case .tick:
            break
        // Continued processing: the user in the system's progress UI.
        case .cancelContinuedProcessingTask(let id, let identifier):
            handleMonitors(.userCancelled(identifier, of: id))
        case .answerContinuedProcessingQuestion(let id, let identifier, let answer):
            handleMonitors(.userAnswered(answer, identifier, of: id))
        case .setCharging(let charging):  // the battery keeps its level (a simulated one goes on from it)
            apply(.setBattery(level: device.batteryLevel, charging: charging))
        case .backgroundPush(let id, let payload):
            receiveBackgroundEvent(.remoteNotification(payload: payload), for: id)
        case .locationEvent(let id, let event):
            receiveBackgroundEvent(.location(event), for: id)
        }
    }

    /// Opening an app needs an unlocked device: the user unlocks on the way, and the app that was
    /// on screen before the lock stays in the background.
    mutating func unlockToOpen() {
        record(nil, .user, reason: "unlock")
        // The user is using the device: screen on, unlocked, not idle. A screen lit from dark is a signal to the
        // launch model before the app the user opens, so that app's launch follows it.
        if !device.isScreenOn { learn(.screenCameOn) }
        device.wake()
        appUnderLock = nil
    }
}

extension SystemEvent {
    /// The app the event names, if it names one (hosts refuse events for apps that are not installed).
    public var app: BundleID? {
        switch self {
        case .open(let id), .swipeAway(let id), .setAppBackgroundAppRefresh(let id, _),
            .setContinuedProcessing(let id, _), .setMemoryFootprint(let id, _), .processExited(let id, _),
            .resourceUsage(let id, _), .simulateLaunch(let id, _), .simulateExpiration(let id, _),
            .backgroundPush(let id, _), .locationEvent(let id, _), .cancelContinuedProcessingTask(let id, _),
            .answerContinuedProcessingQuestion(let id, _, _), .notificationShown(let id),
            .notificationTapped(let id, _):
            id
        default: nil
        }
    }

    /// Which apps the event may change decisions for: the wall clock moves every time-based blocker; the
    /// device, the settings and the screen concern the apps that read them; the others concern one app, which
    /// the event marks for review. A resource report only moves meters: a limit it breaks ends the app, which
    /// the ending marks for review, and a start it could allow would have happened already.
    var reviewScope: ReviewScope {
        switch self {
        case .resourceUsage, .setResumeCallback: .noApp
        case .tick, .setMemoryFootprint, .processExited, .simulateLaunch, .simulateExpiration,
            .swipeAway, .setAppBackgroundAppRefresh, .setContinuedProcessing, .backgroundPush, .locationEvent,
            .cancelContinuedProcessingTask, .answerContinuedProcessingQuestion, .notificationShown, .notificationTapped:
            .namedApp
        case .setWallClock: .everyApp
        default: .appsSharedChangesConcern
        }
    }
}

/// The apps an event asks the scheduler to review (see `SystemEvent.reviewScope`).
enum ReviewScope {
    case noApp
    case namedApp
    case appsSharedChangesConcern
    case everyApp
}

extension Set where Element == BundleID {
    /// Adds `app` to a set of apps whose switch is off, or removes it when it is turned on.
    mutating func turn(_ app: BundleID, off: Bool) {
        if off { insert(app) } else { remove(app) }
    }
}
