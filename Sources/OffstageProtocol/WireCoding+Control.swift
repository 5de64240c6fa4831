import OffstageCore

/// The commands of `offstage ctl` on the wire.
extension ControlCommand: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("install", "path", Self.install(path:)) { if case .install(let path) = $0 { path } else { nil } },
        WireCase("event", "event", Self.event(event:)) { if case .event(let event) = $0 { event } else { nil } },
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
        WireCase("progress", "tasks", Self.progress(tasks:)) {
            if case .progress(let tasks) = $0 { tasks } else { nil }
        },
    ]
}

extension DeviceOverrides: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("batteryLevel", batteryLevel), ("charging", charging), ("network", network), ("thermal", thermal),
                ("memoryPressureBytes", memoryPressureBytes))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (batteryLevel, charging, network, thermal, memoryPressureBytes) = try reader.fields(
            ("batteryLevel", Double?.self), ("charging", Bool?.self), ("network", NetworkKind?.self),
            ("thermal", ThermalState?.self), ("memoryPressureBytes", Int?.self))
        self.init(
            batteryLevel: batteryLevel, charging: charging, network: network, thermal: thermal,
            memoryPressureBytes: memoryPressureBytes)
    }
}

extension AppInfo: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("bundle", bundle), ("path", path), ("state", state), ("pid", pid), ("frozen", frozen),
                ("forceQuit", forceQuit), ("cpuSeconds", cpuSeconds), ("memoryBytes", memoryBytes),
                ("usageTier", usageTier), ("launches", launches), ("cooperation", cooperation),
                ("energyJoules", energyJoules))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (
            bundle, path, state, pid, frozen, forceQuit, cpuSeconds, memoryBytes, usageTier, launches, cooperation,
            energyJoules
        ) = try reader.fields(
            ("bundle", BundleID.self), ("path", String.self), ("state", AppState.self), ("pid", Int32?.self),
            ("frozen", Bool?.self), ("forceQuit", Bool.self), ("cpuSeconds", Double.self), ("memoryBytes", Int.self),
            ("usageTier", String.self), ("launches", Int.self), ("cooperation", Double.self),
            ("energyJoules", Double.self))
        self.init(
            bundle: bundle, path: path, state: state, pid: pid, frozen: frozen, forceQuit: forceQuit,
            cpuSeconds: cpuSeconds, memoryBytes: memoryBytes, usageTier: usageTier, launches: launches,
            cooperation: cooperation, energyJoules: energyJoules)
    }
}

extension TaskInfo: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("bundle", bundle), ("identifier", identifier), ("kind", kind), ("phase", phase),
                ("waitingFor", waitingFor), ("title", title), ("subtitle", subtitle),
                ("progressCompleted", progressCompleted), ("progressTotal", progressTotal), ("expired", expired))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (bundle, identifier, kind, phase, waitingFor, title, subtitle, progressCompleted, progressTotal, expired) =
            try reader.fields(
                ("bundle", BundleID.self), ("identifier", String.self), ("kind", TaskKind.self), ("phase", String.self),
                ("waitingFor", [String].self), ("title", String.self), ("subtitle", String.self),
                ("progressCompleted", Int64.self), ("progressTotal", Int64.self), ("expired", Bool.self))
        self.init(
            bundle: bundle, identifier: identifier, kind: kind, phase: phase, waitingFor: waitingFor, title: title,
            subtitle: subtitle, progressCompleted: progressCompleted, progressTotal: progressTotal, expired: expired)
    }
}

extension LoggedRecord: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in try members.fields(("time", time), ("record", record)) }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (time, record) = try reader.fields(("time", String.self), ("record", Record.self))
        self.init(time: time, record: record)
    }
}

extension DaemonStatus: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("pid", pid), ("protocolVersion", protocolVersion), ("uptimeSeconds", uptimeSeconds),
                ("freezer", freezer), ("socket", socket), ("stateDirectory", stateDirectory), ("device", device),
                ("overrides", overrides), ("settings", settings), ("loadAverage", loadAverage),
                ("memoryPressure", memoryPressure), ("installedApps", installedApps), ("runningApps", runningApps),
                ("nextDueIn", nextDueIn), ("memoryWritePending", memoryWritePending),
                ("lastFreezerAction", lastFreezerAction))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (
            pid, protocolVersion, uptimeSeconds, freezer, socket, stateDirectory, device, overrides, settings,
            loadAverage, memoryPressure, installedApps, runningApps, nextDueIn, memoryWritePending, lastFreezerAction
        ) = try reader.fields(
            ("pid", Int32.self), ("protocolVersion", Int.self), ("uptimeSeconds", Double.self),
            ("freezer", String.self), ("socket", String.self), ("stateDirectory", String.self),
            ("device", DeviceState.self), ("overrides", DeviceOverrides.self), ("settings", UserSettings.self),
            ("loadAverage", Double?.self), ("memoryPressure", Double?.self), ("installedApps", Int.self),
            ("runningApps", Int.self), ("nextDueIn", Double?.self), ("memoryWritePending", Bool.self),
            ("lastFreezerAction", FreezerAction?.self))
        self.init(
            pid: pid, protocolVersion: protocolVersion, uptimeSeconds: uptimeSeconds, freezer: freezer, socket: socket,
            stateDirectory: stateDirectory, device: device, overrides: overrides, settings: settings,
            loadAverage: loadAverage, memoryPressure: memoryPressure, installedApps: installedApps,
            runningApps: runningApps, nextDueIn: nextDueIn, memoryWritePending: memoryWritePending,
            lastFreezerAction: lastFreezerAction)
    }
}

extension FreezerAction: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("app", app), ("frozen", frozen), ("decidedAt", decidedAt), ("writingAt", writingAt),
                ("writtenAt", writtenAt))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (app, frozen, decidedAt, writingAt, writtenAt) = try reader.fields(
            ("app", BundleID.self), ("frozen", Bool.self), ("decidedAt", UInt64.self), ("writingAt", UInt64.self),
            ("writtenAt", UInt64.self))
        self.init(app: app, frozen: frozen, decidedAt: decidedAt, writingAt: writingAt, writtenAt: writtenAt)
    }
}

/// The progress UI of one continued-processing task, its members in the core's order, those not set left out.
/// The core keeps its initializer internal: a value read is made by its `Decodable` initializer, handed the members
/// read here (`WireReadMembers`).
extension ContinuedProcessingUI: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("app", app), ("taskID", taskID), ("identifier", identifier), ("title", title), ("subtitle", subtitle),
                ("progressCompleted", progressCompleted), ("progressTotal", progressTotal), ("question", question),
                ("outcome", outcome), ("dismissAt", dismissAt))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (app, taskID, identifier, title, subtitle, completed, total, question, outcome, dismissAt) =
            try reader.fields(
                ("app", BundleID.self), ("taskID", Int.self), ("identifier", String.self), ("title", String.self),
                ("subtitle", String.self), ("progressCompleted", Int64.self), ("progressTotal", Int64.self),
                ("question", String?.self), ("outcome", Outcome?.self), ("dismissAt", Instant?.self))
        var members: [String: any Sendable] = [
            "app": app, "taskID": taskID, "identifier": identifier, "title": title, "subtitle": subtitle,
            "progressCompleted": completed, "progressTotal": total,
        ]
        members["question"] = question
        members["outcome"] = outcome
        members["dismissAt"] = dismissAt
        try self.init(reading: WireReadMembers(members))
    }
}

extension ContinuedProcessingUI.Outcome: WireCoded {}
