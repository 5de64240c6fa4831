import OffstageCore

/// The commands of `offstage ctl` on the wire.
extension ControlCommand: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("install", "path", Self.install(path:)) { if case .install(let path) = $0 { path } else { nil } },
        WireCase(
            "event", "event", { .event(event: $0.value) },
            {
                if case .event(let event) = $0 { WireGeneral(event) } else { nil }
            }),
        WireCase("tap", ("bundle", "action"), Self.tap(bundle:action:)) {
            if case .tap(let bundle, let action) = $0 { (bundle, action) } else { nil }
        },
        WireCase("device", ("overrides", "reset"), Self.device(overrides:reset:)) {
            if case .device(let overrides, let reset) = $0 { (overrides, reset) } else { nil }
        },
        WireCase("apps", .apps),
        WireCase("tasks", .tasks),
        WireCase("why", ("bundle", "limit"), Self.why(bundle:limit:)) {
            if case .why(let bundle, let limit) = $0 { (bundle, limit) } else { nil }
        },
        WireCase("status", .status),
        WireCase("progress", .progress),
    ]
}

/// The daemon's answers to `offstage ctl` on the wire.
extension ControlReply: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("ok", "message", Self.ok(message:)) { if case .ok(let message) = $0 { message } else { nil } },
        WireCase("apps", "apps", Self.apps(apps:)) { if case .apps(let apps) = $0 { apps } else { nil } },
        WireCase("tasks", "tasks", Self.tasks(tasks:)) { if case .tasks(let tasks) = $0 { tasks } else { nil } },
        WireCase("records", "records", Self.records(records:)) {
            if case .records(let records) = $0 { records } else { nil }
        },
        WireCase("status", "status", Self.status(status:)) {
            if case .status(let status) = $0 { status } else { nil }
        },
        WireCase(
            "progress", "tasks", { .progress(tasks: $0.map(\.value)) },
            {
                if case .progress(let tasks) = $0 { tasks.map(WireGeneral.init) } else { nil }
            }),
    ]
}

extension DeviceOverrides: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("batteryLevel", batteryLevel)
            try members.field("charging", charging)
            try members.field("network", network)
            try members.field("thermal", thermal)
            try members.field("memoryPressureBytes", memoryPressureBytes)
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        var batteryLevel: Double??
        var charging: Bool??
        var network: NetworkKind??
        var thermal: ThermalState??
        var memoryPressureBytes: Int??
        try reader.members { reader, key throws(WireError) in
            switch key {
            case "batteryLevel": try reader.once(&batteryLevel, "batteryLevel")
            case "charging": try reader.once(&charging, "charging")
            case "network": try reader.once(&network, "network")
            case "thermal": try reader.once(&thermal, "thermal")
            case "memoryPressureBytes": try reader.once(&memoryPressureBytes, "memoryPressureBytes")
            default: return false
            }
            return true
        }
        self.init(
            batteryLevel: batteryLevel ?? nil, charging: charging ?? nil, network: network ?? nil,
            thermal: thermal ?? nil, memoryPressureBytes: memoryPressureBytes ?? nil)
    }
}

extension AppInfo: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("bundle", bundle)
            try members.field("path", path)
            try members.field("state", state)
            try members.field("pid", pid)
            try members.field("frozen", frozen)
            try members.field("forceQuit", forceQuit)
            try members.field("cpuSeconds", cpuSeconds)
            try members.field("memoryBytes", memoryBytes)
            try members.field("usageTier", usageTier)
            try members.field("launches", launches)
            try members.field("cooperation", cooperation)
            try members.field("energyJoules", energyJoules)
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        var bundle: BundleID?
        var path: String?
        var state: AppState?
        var pid: Int32??
        var frozen: Bool??
        var forceQuit: Bool?
        var cpuSeconds: Double?
        var memoryBytes: Int?
        var usageTier: String?
        var launches: Int?
        var cooperation: Double?
        var energyJoules: Double?
        try reader.members { reader, key throws(WireError) in
            switch key {
            case "bundle": try reader.once(&bundle, "bundle")
            case "path": try reader.once(&path, "path")
            case "state": try reader.once(&state, "state")
            case "pid": try reader.once(&pid, "pid")
            case "frozen": try reader.once(&frozen, "frozen")
            case "forceQuit": try reader.once(&forceQuit, "forceQuit")
            case "cpuSeconds": try reader.once(&cpuSeconds, "cpuSeconds")
            case "memoryBytes": try reader.once(&memoryBytes, "memoryBytes")
            case "usageTier": try reader.once(&usageTier, "usageTier")
            case "launches": try reader.once(&launches, "launches")
            case "cooperation": try reader.once(&cooperation, "cooperation")
            case "energyJoules": try reader.once(&energyJoules, "energyJoules")
            default: return false
            }
            return true
        }
        self.init(
            bundle: try WireReader.required(bundle, "bundle"), path: try WireReader.required(path, "path"),
            state: try WireReader.required(state, "state"), pid: try WireReader.required(pid, "pid"),
            frozen: try WireReader.required(frozen, "frozen"),
            forceQuit: try WireReader.required(forceQuit, "forceQuit"),
            cpuSeconds: try WireReader.required(cpuSeconds, "cpuSeconds"),
            memoryBytes: try WireReader.required(memoryBytes, "memoryBytes"),
            usageTier: try WireReader.required(usageTier, "usageTier"),
            launches: try WireReader.required(launches, "launches"),
            cooperation: try WireReader.required(cooperation, "cooperation"),
            energyJoules: try WireReader.required(energyJoules, "energyJoules"))
    }
}

extension TaskInfo: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("bundle", bundle)
            try members.field("identifier", identifier)
            try members.field("kind", kind)
            try members.field("phase", phase)
            try members.field("waitingFor", waitingFor)
            try members.field("title", title)
            try members.field("subtitle", subtitle)
            try members.field("progressCompleted", progressCompleted)
            try members.field("progressTotal", progressTotal)
            try members.field("expired", expired)
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        var bundle: BundleID?
        var identifier: String?
        var kind: TaskKind?
        var phase: String?
        var waitingFor: [String]?
        var title: String?
        var subtitle: String?
        var progressCompleted: Int64?
        var progressTotal: Int64?
        var expired: Bool?
        try reader.members { reader, key throws(WireError) in
            switch key {
            case "bundle": try reader.once(&bundle, "bundle")
            case "identifier": try reader.once(&identifier, "identifier")
            case "kind": try reader.once(&kind, "kind")
            case "phase": try reader.once(&phase, "phase")
            case "waitingFor": try reader.once(&waitingFor, "waitingFor")
            case "title": try reader.once(&title, "title")
            case "subtitle": try reader.once(&subtitle, "subtitle")
            case "progressCompleted": try reader.once(&progressCompleted, "progressCompleted")
            case "progressTotal": try reader.once(&progressTotal, "progressTotal")
            case "expired": try reader.once(&expired, "expired")
            default: return false
            }
            return true
        }
        self.init(
            bundle: try WireReader.required(bundle, "bundle"),
            identifier: try WireReader.required(identifier, "identifier"), kind: try WireReader.required(kind, "kind"),
            phase: try WireReader.required(phase, "phase"),
            waitingFor: try WireReader.required(waitingFor, "waitingFor"),
            title: try WireReader.required(title, "title"), subtitle: try WireReader.required(subtitle, "subtitle"),
            progressCompleted: try WireReader.required(progressCompleted, "progressCompleted"),
            progressTotal: try WireReader.required(progressTotal, "progressTotal"),
            expired: try WireReader.required(expired, "expired"))
    }
}

extension LoggedRecord: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("time", time)
            try members.field("record", record)
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        var time: String?
        var record: Record?
        try reader.members { reader, key throws(WireError) in
            switch key {
            case "time": try reader.once(&time, "time")
            case "record": try reader.once(&record, "record")
            default: return false
            }
            return true
        }
        self.init(time: try WireReader.required(time, "time"), record: try WireReader.required(record, "record"))
    }
}

extension DaemonStatus: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("pid", pid)
            try members.field("protocolVersion", protocolVersion)
            try members.field("uptimeSeconds", uptimeSeconds)
            try members.field("freezer", freezer)
            try members.field("socket", socket)
            try members.field("stateDirectory", stateDirectory)
            try members.field("device", device)
            try members.field("overrides", overrides)
            try members.field("settings", settings)
            try members.field("loadAverage", loadAverage)
            try members.field("memoryPressure", memoryPressure)
            try members.field("installedApps", installedApps)
            try members.field("runningApps", runningApps)
            try members.field("nextDueIn", nextDueIn)
            try members.field("memoryWritePending", memoryWritePending)
            try members.field("lastFreezerAction", lastFreezerAction)
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        var pid: Int32?
        var protocolVersion: Int?
        var uptimeSeconds: Double?
        var freezer: String?
        var socket: String?
        var stateDirectory: String?
        var device: DeviceState?
        var overrides: DeviceOverrides?
        var settings: UserSettings?
        var loadAverage: Double??
        var memoryPressure: Double??
        var installedApps: Int?
        var runningApps: Int?
        var nextDueIn: Double??
        var memoryWritePending: Bool?
        var lastFreezerAction: FreezerAction??
        try reader.members { reader, key throws(WireError) in
            switch key {
            case "pid": try reader.once(&pid, "pid")
            case "protocolVersion": try reader.once(&protocolVersion, "protocolVersion")
            case "uptimeSeconds": try reader.once(&uptimeSeconds, "uptimeSeconds")
            case "freezer": try reader.once(&freezer, "freezer")
            case "socket": try reader.once(&socket, "socket")
            case "stateDirectory": try reader.once(&stateDirectory, "stateDirectory")
            case "device": try reader.once(&device, "device")
            case "overrides": try reader.once(&overrides, "overrides")
            case "settings": try reader.once(&settings, "settings")
            case "loadAverage": try reader.once(&loadAverage, "loadAverage")
            case "memoryPressure": try reader.once(&memoryPressure, "memoryPressure")
            case "installedApps": try reader.once(&installedApps, "installedApps")
            case "runningApps": try reader.once(&runningApps, "runningApps")
            case "nextDueIn": try reader.once(&nextDueIn, "nextDueIn")
            case "memoryWritePending": try reader.once(&memoryWritePending, "memoryWritePending")
            case "lastFreezerAction": try reader.once(&lastFreezerAction, "lastFreezerAction")
            default: return false
            }
            return true
        }
        self.init(
            pid: try WireReader.required(pid, "pid"),
            protocolVersion: try WireReader.required(protocolVersion, "protocolVersion"),
            uptimeSeconds: try WireReader.required(uptimeSeconds, "uptimeSeconds"),
            freezer: try WireReader.required(freezer, "freezer"), socket: try WireReader.required(socket, "socket"),
            stateDirectory: try WireReader.required(stateDirectory, "stateDirectory"),
            device: try WireReader.required(device, "device"),
            overrides: try WireReader.required(overrides, "overrides"),
            settings: try WireReader.required(settings, "settings"),
            loadAverage: try WireReader.required(loadAverage, "loadAverage"),
            memoryPressure: try WireReader.required(memoryPressure, "memoryPressure"),
            installedApps: try WireReader.required(installedApps, "installedApps"),
            runningApps: try WireReader.required(runningApps, "runningApps"),
            nextDueIn: try WireReader.required(nextDueIn, "nextDueIn"),
            memoryWritePending: try WireReader.required(memoryWritePending, "memoryWritePending"),
            lastFreezerAction: try WireReader.required(lastFreezerAction, "lastFreezerAction"))
    }
}

extension FreezerAction: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("app", app)
            try members.field("frozen", frozen)
            try members.field("decidedAt", decidedAt)
            try members.field("writingAt", writingAt)
            try members.field("writtenAt", writtenAt)
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        var app: BundleID?
        var frozen: Bool?
        var decidedAt: UInt64?
        var writingAt: UInt64?
        var writtenAt: UInt64?
        try reader.members { reader, key throws(WireError) in
            switch key {
            case "app": try reader.once(&app, "app")
            case "frozen": try reader.once(&frozen, "frozen")
            case "decidedAt": try reader.once(&decidedAt, "decidedAt")
            case "writingAt": try reader.once(&writingAt, "writingAt")
            case "writtenAt": try reader.once(&writtenAt, "writtenAt")
            default: return false
            }
            return true
        }
        self.init(
            app: try WireReader.required(app, "app"), frozen: try WireReader.required(frozen, "frozen"),
            decidedAt: try WireReader.required(decidedAt, "decidedAt"),
            writingAt: try WireReader.required(writingAt, "writingAt"),
            writtenAt: try WireReader.required(writtenAt, "writtenAt"))
    }
}
