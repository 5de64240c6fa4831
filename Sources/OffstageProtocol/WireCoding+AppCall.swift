package import OffstageCore

/// An app's calls on the wire, the frequent ones first (a case is found by going down the table).
extension AppCall: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("returned", "token", Self.returned(token:)) {
            if case .returned(let token) = $0 { token } else { nil }
        },
        WireCase("beginBackgroundTask", "name", Self.beginBackgroundTask(name:)) {
            if case .beginBackgroundTask(let name) = $0 { name } else { nil }
        },
        WireCase("endBackgroundTask", "_0", Self.endBackgroundTask(_:)) {
            if case .endBackgroundTask(let number) = $0 { number } else { nil }
        },
        WireCase("submit", "_0", Self.submit(_:)) { if case .submit(let request) = $0 { request } else { nil } },
        WireCase("setTaskCompleted", ("taskID", "success"), Self.setTaskCompleted(taskID:success:)) {
            if case .setTaskCompleted(let taskID, let success) = $0 { (taskID, success) } else { nil }
        },
        WireCase(
            "reportProgress", ("taskID", "completed", "total"), Self.reportProgress(taskID:completed:total:)
        ) {
            if case .reportProgress(let taskID, let completed, let total) = $0 {
                (taskID, completed, total)
            } else {
                nil
            }
        },
        WireCase("backgroundTimeRemaining", .backgroundTimeRemaining),
        WireCase("applicationState", .applicationState),
        WireCase("backgroundRefreshStatus", .backgroundRefreshStatus),
        WireCase("register", "identifier", Self.register(identifier:)) {
            if case .register(let identifier) = $0 { identifier } else { nil }
        },
        WireCase("cancel", "identifier", Self.cancel(identifier:)) {
            if case .cancel(let identifier) = $0 { identifier } else { nil }
        },
        WireCase("cancelAll", .cancelAll),
        WireCase("pendingRequests", .pendingRequests),
        WireCase("supportedResources", .supportedResources),
        WireCase("updateTitle", ("taskID", "title", "subtitle"), Self.updateTitle(taskID:title:subtitle:)) {
            if case .updateTitle(let taskID, let title, let subtitle) = $0 { (taskID, title, subtitle) } else { nil }
        },
        WireCase("backgroundEventCompleted", ("token", "result"), Self.backgroundEventCompleted(token:result:)) {
            if case .backgroundEventCompleted(let token, let result) = $0 { (token, result) } else { nil }
        },
        WireCase("simulateLaunch", "identifier", Self.simulateLaunch(identifier:)) {
            if case .simulateLaunch(let identifier) = $0 { identifier } else { nil }
        },
        WireCase("simulateExpiration", "identifier", Self.simulateExpiration(identifier:)) {
            if case .simulateExpiration(let identifier) = $0 { identifier } else { nil }
        },
        WireCase("beginExpiringActivity", "reason", Self.beginExpiringActivity(reason:)) {
            if case .beginExpiringActivity(let reason) = $0 { reason } else { nil }
        },
        WireCase("setMinimumBackgroundFetchInterval", "_0", Self.setMinimumBackgroundFetchInterval(_:)) {
            if case .setMinimumBackgroundFetchInterval(let interval) = $0 { interval } else { nil }
        },
        WireCase("setBackgroundActivity", ("_0", "active"), Self.setBackgroundActivity(_:active:)) {
            if case .setBackgroundActivity(let mode, let active) = $0 { (mode, active) } else { nil }
        },
        WireCase("setSignificantLocationMonitoring", "_0", Self.setSignificantLocationMonitoring(_:)) {
            if case .setSignificantLocationMonitoring(let on) = $0 { on } else { nil }
        },
        WireCase("setRegionMonitoring", ("identifier", "_1"), Self.setRegionMonitoring(identifier:_:)) {
            if case .setRegionMonitoring(let identifier, let on) = $0 { (identifier, on) } else { nil }
        },
        WireCase(
            "workBegan", ("number", "cpuSeconds", "seconds"), Self.workBegan(number:cpuSeconds:seconds:)
        ) {
            if case .workBegan(let number, let cpu, let seconds) = $0 { (number, cpu, seconds) } else { nil }
        },
        WireCase("workEnded", "number", Self.workEnded(number:)) {
            if case .workEnded(let number) = $0 { number } else { nil }
        },
        WireCase("allowBackgroundLocationUpdates", .allowBackgroundLocationUpdates),
        WireCase("launchOptions", .launchOptions),
        WireCase(
            "startBackgroundTransfer", "_0", { .startBackgroundTransfer($0.value) },
            {
                if case .startBackgroundTransfer(let request) = $0 { WireGeneral(request) } else { nil }
            }),
        WireCase("cancelBackgroundTransfer", ("session", "task"), Self.cancelBackgroundTransfer(session:task:)) {
            if case .cancelBackgroundTransfer(let session, let task) = $0 { (session, task) } else { nil }
        },
        WireCase(
            "scheduleNotification", "_0", { .scheduleNotification($0.value) },
            {
                if case .scheduleNotification(let schedule) = $0 { WireGeneral(schedule) } else { nil }
            }),
        WireCase("removePendingNotifications", "identifiers", Self.removePendingNotifications(identifiers:)) {
            if case .removePendingNotifications(let identifiers) = $0 { identifiers } else { nil }
        },
    ]
}

/// The system's answers to an app's calls on the wire.
extension AppCallResult: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("ok", .ok),
        WireCase("backgroundTask", "_0", Self.backgroundTask(_:)) {
            if case .backgroundTask(let number) = $0 { number } else { nil }
        },
        WireCase("registered", "_0", Self.registered(_:)) { if case .registered(let done) = $0 { done } else { nil } },
        WireCase("failed", "_0", Self.failed(_:)) { if case .failed(let code) = $0 { code } else { nil } },
        WireCase("pending", "_0", Self.pending(_:)) { if case .pending(let requests) = $0 { requests } else { nil } },
        WireCase("timeRemaining", "_0", Self.timeRemaining(_:)) {
            if case .timeRemaining(let seconds) = $0 { seconds } else { nil }
        },
        WireCase("state", "_0", Self.state(_:)) { if case .state(let state) = $0 { state } else { nil } },
        WireCase("refreshStatus", "_0", Self.refreshStatus(_:)) {
            if case .refreshStatus(let status) = $0 { status } else { nil }
        },
        WireCase("resources", "gpu", Self.resources(gpu:)) { if case .resources(let gpu) = $0 { gpu } else { nil } },
        WireCase("crash", "_0", Self.crash(_:)) { if case .crash(let message) = $0 { message } else { nil } },
        WireCase("notRunning", .notRunning),
        WireCase(
            "launchOptions", "_0", { .launchOptions($0.value) },
            {
                if case .launchOptions(let options) = $0 { WireGeneral(options) } else { nil }
            }),
    ]
}

extension TaskRequest: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("identifier", identifier), ("kind", kind), ("earliestBeginDate", earliestBeginDate),
                ("requiresNetworkConnectivity", requiresNetworkConnectivity),
                ("requiresExternalPower", requiresExternalPower), ("title", title), ("subtitle", subtitle),
                ("strategy", strategy), ("requiresGPU", requiresGPU),
                ("protectionTypeOfRequiredData", protectionTypeOfRequiredData))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (identifier, kind, earliest, network, power, title, subtitle, strategy, gpu, protection) =
            try reader.fields(
                ("identifier", String.self), ("kind", TaskKind.self), ("earliestBeginDate", Double?.self),
                ("requiresNetworkConnectivity", Bool.self), ("requiresExternalPower", Bool.self),
                ("title", String.self), ("subtitle", String.self), ("strategy", SubmissionStrategy.self),
                ("requiresGPU", Bool.self), ("protectionTypeOfRequiredData", String?.self))
        self.init(
            identifier: identifier, kind: kind, earliestBeginDate: earliest, requiresNetworkConnectivity: network,
            requiresExternalPower: power, title: title, subtitle: subtitle, strategy: strategy, requiresGPU: gpu,
            protectionTypeOfRequiredData: protection)
    }
}

extension BundleID: WireCoded {}
extension TaskKind: WireCoded {}
extension SubmissionStrategy: WireCoded {}
extension AppState: WireCoded {}
extension LifecycleCallback: WireCoded {}
extension BackgroundMode: WireCoded {}
extension TaskSchedulerErrorCode: WireCoded {}
extension BackgroundRefreshStatus: WireCoded {}
extension BackgroundFetchResult: WireCoded {}
