import OffstageCore

/// The commands of `offstage ctl` on the wire.
extension ControlCommand: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .install(let path): try out.enumCase("install", ("path", path))
        case .event(let event): try out.enumCase("event", ("event", event))
        case .tap(let bundle, let action): try out.enumCase("tap", ("bundle", bundle), ("action", action))
        case .device(let overrides, let reset): try out.enumCase("device", ("overrides", overrides), ("reset", reset))
        case .apps: out.enumCase("apps")
        case .tasks: out.enumCase("tasks")
        case .why(let bundle, let limit): try out.enumCase("why", ("bundle", bundle), ("limit", limit))
        case .status: out.enumCase("status")
        case .progress: out.enumCase("progress")
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("install", "path", Self.install(path:)),
        WireCase("event", "event", Self.event(event:)),
        WireCase("tap", ("bundle", "action"), Self.tap(bundle:action:)),
        WireCase("device", ("overrides", "reset"), Self.device(overrides:reset:)),
        WireCase("apps", .apps),
        WireCase("tasks", .tasks),
        WireCase("why", ("bundle", "limit"), Self.why(bundle:limit:)),
        WireCase("status", .status),
        WireCase("progress", .progress),
    ]
}

/// The daemon's answers to `offstage ctl` on the wire.
extension ControlReply: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .ok(let message): try out.enumCase("ok", ("message", message))
        case .apps(let apps): try out.enumCase("apps", ("apps", apps))
        case .tasks(let tasks): try out.enumCase("tasks", ("tasks", tasks))
        case .records(let records): try out.enumCase("records", ("records", records))
        case .status(let status): try out.enumCase("status", ("status", status))
        case .progress(let tasks): try out.enumCase("progress", ("tasks", tasks))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("ok", "message", Self.ok(message:)),
        WireCase("apps", "apps", Self.apps(apps:)),
        WireCase("tasks", "tasks", Self.tasks(tasks:)),
        WireCase("records", "records", Self.records(records:)),
        WireCase("status", "status", Self.status(status:)),
        WireCase("progress", "tasks", Self.progress(tasks:)),
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
        self.init(
            app: app, taskID: taskID, identifier: identifier, title: title, subtitle: subtitle,
            progressCompleted: completed, progressTotal: total, question: question, outcome: outcome,
            dismissAt: dismissAt)
    }
}

extension ContinuedProcessingUI.Outcome: WireCoded {}
