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
        WireCase("startBackgroundTransfer", "_0", Self.startBackgroundTransfer(_:)) {
            if case .startBackgroundTransfer(let request) = $0 { request } else { nil }
        },
        WireCase("cancelBackgroundTransfer", ("session", "task"), Self.cancelBackgroundTransfer(session:task:)) {
            if case .cancelBackgroundTransfer(let session, let task) = $0 { (session, task) } else { nil }
        },
        WireCase("scheduleNotification", "_0", Self.scheduleNotification(_:)) {
            if case .scheduleNotification(let schedule) = $0 { schedule } else { nil }
        },
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
        WireCase("launchOptions", "_0", Self.launchOptions(_:)) {
            if case .launchOptions(let options) = $0 { options } else { nil }
        },
    ]
}

extension TaskRequest: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("identifier", identifier)
            try members.field("kind", kind)
            try members.field("earliestBeginDate", earliestBeginDate)
            try members.field("requiresNetworkConnectivity", requiresNetworkConnectivity)
            try members.field("requiresExternalPower", requiresExternalPower)
            try members.field("title", title)
            try members.field("subtitle", subtitle)
            try members.field("strategy", strategy)
            try members.field("requiresGPU", requiresGPU)
            try members.field("protectionTypeOfRequiredData", protectionTypeOfRequiredData)
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        var identifier: String?
        var kind: TaskKind?
        var earliest: Double??
        var network: Bool?
        var power: Bool?
        var title: String?
        var subtitle: String?
        var strategy: SubmissionStrategy?
        var gpu: Bool?
        var protection: String??
        try reader.members { reader, key throws(WireError) in
            switch key {
            case "identifier": try reader.once(&identifier, "identifier")
            case "kind": try reader.once(&kind, "kind")
            case "earliestBeginDate": try reader.once(&earliest, "earliestBeginDate")
            case "requiresNetworkConnectivity": try reader.once(&network, "requiresNetworkConnectivity")
            case "requiresExternalPower": try reader.once(&power, "requiresExternalPower")
            case "title": try reader.once(&title, "title")
            case "subtitle": try reader.once(&subtitle, "subtitle")
            case "strategy": try reader.once(&strategy, "strategy")
            case "requiresGPU": try reader.once(&gpu, "requiresGPU")
            case "protectionTypeOfRequiredData": try reader.once(&protection, "protectionTypeOfRequiredData")
            default: return false
            }
            return true
        }
        self.init(
            identifier: try WireReader.required(identifier, "identifier"), kind: try WireReader.required(kind, "kind"),
            earliestBeginDate: try WireReader.required(earliest, "earliestBeginDate"),
            requiresNetworkConnectivity: try WireReader.required(network, "requiresNetworkConnectivity"),
            requiresExternalPower: try WireReader.required(power, "requiresExternalPower"),
            title: try WireReader.required(title, "title"), subtitle: try WireReader.required(subtitle, "subtitle"),
            strategy: try WireReader.required(strategy, "strategy"),
            requiresGPU: try WireReader.required(gpu, "requiresGPU"),
            protectionTypeOfRequiredData: try WireReader.required(protection, "protectionTypeOfRequiredData"))
    }
}

/// Why the app was launched, as its launch callbacks receive it: a push's payload (left out if none), a location.
extension LaunchOptions: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(("remoteNotification", remoteNotification), ("location", location))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (remoteNotification, location) = try reader.fields(
            ("remoteNotification", String?.self), ("location", Bool.self))
        self.init(remoteNotification: remoteNotification, location: location)
    }
}

/// A transfer an app hands to a background session, its members in the core's order.
extension BackgroundTransferRequest: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("session", session), ("task", task), ("url", url), ("seconds", seconds), ("bytes", bytes),
                ("isDiscretionary", isDiscretionary), ("sendsLaunchEvents", sendsLaunchEvents))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (session, task, url, seconds, bytes, isDiscretionary, sendsLaunchEvents) = try reader.fields(
            ("session", String.self), ("task", Int.self), ("url", String.self), ("seconds", Double.self),
            ("bytes", Int.self), ("isDiscretionary", Bool.self), ("sendsLaunchEvents", Bool.self))
        self.init(
            session: session, task: task, url: url, seconds: seconds, bytes: bytes, isDiscretionary: isDiscretionary,
            sendsLaunchEvents: sendsLaunchEvents)
    }
}

/// When a local notification is due and what it shows; no repeat is left out.
extension LocalNotificationSchedule: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("identifier", identifier), ("fireEpochs", fireEpochs), ("repeatEvery", repeatEvery), ("text", text))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (identifier, fireEpochs, repeatEvery, text) = try reader.fields(
            ("identifier", String.self), ("fireEpochs", [Double].self), ("repeatEvery", Double?.self),
            ("text", NotificationText.self))
        self.init(identifier: identifier, fireEpochs: fireEpochs, repeatEvery: repeatEvery, text: text)
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
