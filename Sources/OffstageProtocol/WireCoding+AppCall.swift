package import OffstageCore

/// An app's calls on the wire, the frequent ones first (a case is found by going down the table).
extension AppCall: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .returned(let token): try out.enumCase("returned", ("token", token))
        case .beginBackgroundTask(let name): try out.enumCase("beginBackgroundTask", ("name", name))
        case .endBackgroundTask(let number): try out.enumCase("endBackgroundTask", ("_0", number))
        case .submit(let request): try out.enumCase("submit", ("_0", request))
        case .setTaskCompleted(let taskID, let success):
            try out.enumCase("setTaskCompleted", ("taskID", taskID), ("success", success))
        case .reportProgress(let taskID, let completed, let total):
            try out.enumCase("reportProgress", ("taskID", taskID), ("completed", completed), ("total", total))
        case .backgroundTimeRemaining: out.enumCase("backgroundTimeRemaining")
        case .applicationState: out.enumCase("applicationState")
        case .backgroundRefreshStatus: out.enumCase("backgroundRefreshStatus")
        case .register(let identifier): try out.enumCase("register", ("identifier", identifier))
        case .cancel(let identifier): try out.enumCase("cancel", ("identifier", identifier))
        case .cancelAll: out.enumCase("cancelAll")
        case .pendingRequests: out.enumCase("pendingRequests")
        case .supportedResources: out.enumCase("supportedResources")
        case .updateTitle(let taskID, let title, let subtitle):
            try out.enumCase("updateTitle", ("taskID", taskID), ("title", title), ("subtitle", subtitle))
        case .backgroundEventCompleted(let token, let result):
            try out.enumCase("backgroundEventCompleted", ("token", token), ("result", result))
        case .simulateLaunch(let identifier): try out.enumCase("simulateLaunch", ("identifier", identifier))
        case .simulateExpiration(let identifier): try out.enumCase("simulateExpiration", ("identifier", identifier))
        case .beginExpiringActivity(let reason): try out.enumCase("beginExpiringActivity", ("reason", reason))
        case .setMinimumBackgroundFetchInterval(let interval):
            try out.enumCase("setMinimumBackgroundFetchInterval", ("_0", interval))
        case .setBackgroundActivity(let mode, let active):
            try out.enumCase("setBackgroundActivity", ("_0", mode), ("active", active))
        case .setSignificantLocationMonitoring(let on): try out.enumCase("setSignificantLocationMonitoring", ("_0", on))
        case .setRegionMonitoring(let identifier, let on):
            try out.enumCase("setRegionMonitoring", ("identifier", identifier), ("_1", on))
        case .workBegan(let number, let cpu, let seconds):
            try out.enumCase("workBegan", ("number", number), ("cpuSeconds", cpu), ("seconds", seconds))
        case .workEnded(let number): try out.enumCase("workEnded", ("number", number))
        case .allowBackgroundLocationUpdates: out.enumCase("allowBackgroundLocationUpdates")
        case .launchOptions: out.enumCase("launchOptions")
        case .startBackgroundTransfer(let request): try out.enumCase("startBackgroundTransfer", ("_0", request))
        case .cancelBackgroundTransfer(let session, let task):
            try out.enumCase("cancelBackgroundTransfer", ("session", session), ("task", task))
        case .scheduleNotification(let schedule): try out.enumCase("scheduleNotification", ("_0", schedule))
        case .removePendingNotifications(let identifiers):
            try out.enumCase("removePendingNotifications", ("identifiers", identifiers))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("returned", "token", Self.returned(token:)),
        WireCase("beginBackgroundTask", "name", Self.beginBackgroundTask(name:)),
        WireCase("endBackgroundTask", "_0", Self.endBackgroundTask(_:)),
        WireCase("submit", "_0", Self.submit(_:)),
        WireCase("setTaskCompleted", ("taskID", "success"), Self.setTaskCompleted(taskID:success:)),
        WireCase("reportProgress", ("taskID", "completed", "total"), Self.reportProgress(taskID:completed:total:)),
        WireCase("backgroundTimeRemaining", .backgroundTimeRemaining),
        WireCase("applicationState", .applicationState),
        WireCase("backgroundRefreshStatus", .backgroundRefreshStatus),
        WireCase("register", "identifier", Self.register(identifier:)),
        WireCase("cancel", "identifier", Self.cancel(identifier:)),
        WireCase("cancelAll", .cancelAll),
        WireCase("pendingRequests", .pendingRequests),
        WireCase("supportedResources", .supportedResources),
        WireCase("updateTitle", ("taskID", "title", "subtitle"), Self.updateTitle(taskID:title:subtitle:)),
        WireCase("backgroundEventCompleted", ("token", "result"), Self.backgroundEventCompleted(token:result:)),
        WireCase("simulateLaunch", "identifier", Self.simulateLaunch(identifier:)),
        WireCase("simulateExpiration", "identifier", Self.simulateExpiration(identifier:)),
        WireCase("beginExpiringActivity", "reason", Self.beginExpiringActivity(reason:)),
        WireCase("setMinimumBackgroundFetchInterval", "_0", Self.setMinimumBackgroundFetchInterval(_:)),
        WireCase("setBackgroundActivity", ("_0", "active"), Self.setBackgroundActivity(_:active:)),
        WireCase("setSignificantLocationMonitoring", "_0", Self.setSignificantLocationMonitoring(_:)),
        WireCase("setRegionMonitoring", ("identifier", "_1"), Self.setRegionMonitoring(identifier:_:)),
        WireCase("workBegan", ("number", "cpuSeconds", "seconds"), Self.workBegan(number:cpuSeconds:seconds:)),
        WireCase("workEnded", "number", Self.workEnded(number:)),
        WireCase("allowBackgroundLocationUpdates", .allowBackgroundLocationUpdates),
        WireCase("launchOptions", .launchOptions),
        WireCase("startBackgroundTransfer", "_0", Self.startBackgroundTransfer(_:)),
        WireCase("cancelBackgroundTransfer", ("session", "task"), Self.cancelBackgroundTransfer(session:task:)),
        WireCase("scheduleNotification", "_0", Self.scheduleNotification(_:)),
        WireCase("removePendingNotifications", "identifiers", Self.removePendingNotifications(identifiers:)),
    ]
}

/// The system's answers to an app's calls on the wire.
extension AppCallResult: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .ok: out.enumCase("ok")
        case .backgroundTask(let number): try out.enumCase("backgroundTask", ("_0", number))
        case .registered(let done): try out.enumCase("registered", ("_0", done))
        case .failed(let code): try out.enumCase("failed", ("_0", code))
        case .pending(let requests): try out.enumCase("pending", ("_0", requests))
        case .timeRemaining(let seconds): try out.enumCase("timeRemaining", ("_0", seconds))
        case .state(let state): try out.enumCase("state", ("_0", state))
        case .refreshStatus(let status): try out.enumCase("refreshStatus", ("_0", status))
        case .resources(let gpu): try out.enumCase("resources", ("gpu", gpu))
        case .crash(let message): try out.enumCase("crash", ("_0", message))
        case .notRunning: out.enumCase("notRunning")
        case .launchOptions(let options): try out.enumCase("launchOptions", ("_0", options))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("ok", .ok),
        WireCase("backgroundTask", "_0", Self.backgroundTask(_:)),
        WireCase("registered", "_0", Self.registered(_:)),
        WireCase("failed", "_0", Self.failed(_:)),
        WireCase("pending", "_0", Self.pending(_:)),
        WireCase("timeRemaining", "_0", Self.timeRemaining(_:)),
        WireCase("state", "_0", Self.state(_:)),
        WireCase("refreshStatus", "_0", Self.refreshStatus(_:)),
        WireCase("resources", "gpu", Self.resources(gpu:)),
        WireCase("crash", "_0", Self.crash(_:)),
        WireCase("notRunning", .notRunning),
        WireCase("launchOptions", "_0", Self.launchOptions(_:)),
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
