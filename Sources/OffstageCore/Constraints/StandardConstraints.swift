/// `earliestBeginDate`: the task must not begin before this wall-clock date.
public struct EarliestBeginDateConstraint: Constraint {
    public init() {}
    public var name: String { "earliestBeginDate" }
    /// Its time is fixed: the request's own date.
    public var holdsUntilItsTime: Bool { true }
    /// It reads only the time and its own app.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { [] }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary && request.earliestBeginDate != nil }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        let begin = context.wallClock.instant(forEpoch: request.earliestBeginDate ?? 0)
        return context.now >= begin ? .satisfied : .blocked(reason: "earliest begin date not reached", until: begin)
    }
}

/// Background App Refresh: off globally, off for the app, or restricted means no refresh and no processing.
public struct BackgroundAppRefreshConstraint: Constraint {
    public init() {}
    public var name: String { "backgroundAppRefresh" }
    public var factor: WorkFactor? { .backgroundAppRefreshSwitch }
    /// It reads only the settings.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { .settings }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        let settings = context.settings
        if settings.backgroundAppRefreshRestricted {
            return .blocked(reason: "Background App Refresh is restricted", until: nil)
        }
        if !settings.backgroundAppRefresh {
            return .blocked(reason: "Background App Refresh is off", until: nil)
        }
        if settings.backgroundAppRefreshOff.contains(context.app) {
            return .blocked(reason: "Background App Refresh is off for this app", until: nil)
        }
        return .satisfied
    }
}

/// Low Power Mode turns background refresh off; charging does not lift it (iOS turns it off at 80 %).
public struct LowPowerModeConstraint: Constraint {
    public init() {}
    public var name: String { "lowPowerMode" }
    public var factor: WorkFactor? { .lowPowerMode }
    /// It reads only the settings.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { .settings }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        context.settings.lowPowerMode
            ? .blocked(reason: "Low Power Mode is on", until: nil) : .satisfied
    }
}

/// A critically low battery off the charger leaves room for essential work only; an empty one has shut the
/// device down, and nothing runs then whatever the critical level (even a policy's 0).
public struct CriticalBatteryConstraint: Constraint {
    public init() {}
    public var name: String { "criticalBattery" }
    public var factor: WorkFactor? { .criticalBattery }
    /// The charger, the battery's level, and the device starting up again lift it.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts {
        [.charger, .batteryLevel, .otherDeviceState]
    }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        let device = context.device
        guard !device.isCharging else { return .satisfied }
        if device.batteryLevel < context.policy.criticalBatteryLevel {
            let level = Int((device.batteryLevel * 100).rounded())
            let limit = Int((context.policy.criticalBatteryLevel * 100).rounded())
            return .blocked(reason: "battery at \(level)% (below \(limit)%) and not charging", until: nil)
        }
        return device.isShutDown ? .blocked(reason: "the device is off: its battery is empty", until: nil) : .satisfied
    }
}

/// Heat: discretionary work waits from `serious`; at `critical` running work is expired.
public struct ThermalConstraint: Constraint {
    public init() {}
    public var name: String { "thermalState" }
    /// The device cooling lifts it.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { .otherDeviceState }
    public func applies(to work: WorkKind) -> Bool { work != .continuedProcessing }  // pushes wait for it too
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        context.device.thermalState >= .serious
            ? .blocked(reason: "thermal state is \(context.device.thermalState.rawValue)", until: nil) : .satisfied
    }
    public func interrupts(_ request: TaskRequest, in context: ConstraintContext) -> String? {
        context.device.thermalState == .critical ? "thermal state is critical" : nil
    }
}

/// `requiresNetworkConnectivity`: a network, and not a constrained one (Low Data Mode) for deferrable transfers.
public struct NetworkConstraint: Constraint {
    public init() {}
    public var name: String { "network" }
    /// A network, or Low Data Mode turned off, lifts it.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { [.network, .settings] }
    public func applies(to request: TaskRequest) -> Bool {
        request.isDiscretionary && request.requiresNetworkConnectivity
    }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        if context.device.network == .none { return .blocked(reason: "no network connection", until: nil) }
        if context.settings.lowDataMode { return .blocked(reason: "Low Data Mode is on", until: nil) }
        return .satisfied
    }
    public func interrupts(_ request: TaskRequest, in context: ConstraintContext) -> String? {
        context.device.network == .none ? "the network connection was lost" : nil
    }
}

/// `requiresExternalPower`: the device must be on the charger, and the task stops when unplugged.
public struct ExternalPowerConstraint: Constraint {
    public init() {}
    public var name: String { "externalPower" }
    /// Plugging in lifts it.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { .charger }
    public func applies(to request: TaskRequest) -> Bool {
        request.kind == .processing && request.requiresExternalPower
    }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        context.device.isCharging ? .satisfied : .blocked(reason: "not on external power", until: nil)
    }
    public func interrupts(_ request: TaskRequest, in context: ConstraintContext) -> String? {
        context.device.isCharging ? nil : "the device was unplugged"
    }
}

/// Processing tasks run only while the device is idle: screen off and locked for a while.
/// A running one is expired when the user starts using the device.
public struct DeviceIdleConstraint: Constraint {
    public init() {}
    public var name: String { "deviceIdle" }
    /// The screen going dark and the device locking lift it (then the idle delay, by time).
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { .screenDark }
    public func applies(to request: TaskRequest) -> Bool { request.kind == .processing }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        guard let since = context.device.idleSince else {
            return .blocked(reason: "the device is in use", until: nil)
        }
        let idleAt = since + context.policy.deviceIdleDelay
        if context.now >= idleAt { return .satisfied }
        let minutes = Int((context.policy.deviceIdleDelay / 60).rounded())
        return .blocked(reason: "the device has not been idle for \(minutes) min", until: idleAt)
    }
    public func interrupts(_ request: TaskRequest, in context: ConstraintContext) -> String? {
        context.device.idleSince == nil ? "the user started using the device" : nil
    }
}

/// An app the user swiped away gets no refresh (nor what else the table says) until the user opens it again.
public struct ForceQuitConstraint: Constraint {
    public init() {}
    public var name: String { "forceQuit" }
    public var factor: WorkFactor? { .appSwitcher }
    /// It reads only the time and its own app.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { [] }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        context.appForceQuit
            ? .blocked(reason: "the user swiped the app away; waits until they open it", until: nil) : .satisfied
    }
}

/// A refresh is for content the user will see next time; while the app is on screen it waits.
public struct ForegroundConstraint: Constraint {
    public init() {}
    public var name: String { "foreground" }
    /// It reads only the time and its own app.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { [] }
    public func applies(to request: TaskRequest) -> Bool { request.kind == .appRefresh }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        context.appState.isForeground ? .blocked(reason: "the app is in the foreground", until: nil) : .satisfied
    }
}

/// One run per identifier at a time: a request submitted while its task runs waits for that run to end.
public struct NotAlreadyRunningConstraint: Constraint {
    public init() {}
    public var name: String { "alreadyRunning" }
    /// It reads only the time and its own app.
    public func lifts(_ request: TaskRequest, in context: ConstraintContext) -> BlockerLifts { [] }
    public func applies(to request: TaskRequest) -> Bool { request.isDiscretionary }
    public func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict {
        context.runningIdentifiers.contains(request.identifier)
            ? .blocked(reason: "a task with this identifier is running", until: nil) : .satisfied
    }
}
