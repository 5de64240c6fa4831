package import OffstageCore

/// The core's records and the device's state on the wire, for `ctl why` and `ctl status`.
extension Record: WireCoded {
    /// The stored fields and the typed detail, with `value` and `taskKind` spelled out for readers of the JSON
    /// (as the core's own coding writes them).
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("at", at)
            try members.field("app", app)
            try members.field("kind", kind)
            try members.field("task", task)
            try members.field("reason", reason)
            try members.field("detail", detail.map(WireGeneral.init))
            try members.field("value", value)
            try members.field("taskKind", taskKind)
        }
    }

    /// A record read back keeps its words as written; `value` and `taskKind`, which follow from the detail, are
    /// read only to be checked.
    package init(reading reader: inout WireReader) throws(WireError) {
        var at: Instant?
        var app: BundleID??
        var kind: RecordKind?
        var task: String??
        var reason: String?
        var detail: WireGeneral<RecordDetail>??
        var value: Double??
        var taskKind: TaskKind??
        try reader.members { reader, key throws(WireError) in
            switch key {
            case "at": try reader.once(&at, "at")
            case "app": try reader.once(&app, "app")
            case "kind": try reader.once(&kind, "kind")
            case "task": try reader.once(&task, "task")
            case "reason": try reader.once(&reason, "reason")
            case "detail": try reader.once(&detail, "detail")
            case "value": try reader.once(&value, "value")
            case "taskKind": try reader.once(&taskKind, "taskKind")
            default: return false
            }
            return true
        }
        self.init(
            at: try WireReader.required(at, "at"), app: try WireReader.required(app, "app"),
            kind: try WireReader.required(kind, "kind"), task: try WireReader.required(task, "task"),
            reason: try WireReader.required(reason, "reason"))
        self.detail = try WireReader.required(detail, "detail")?.value
    }
}

extension Instant: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) { try seconds.write(to: &out) }
    package init(reading reader: inout WireReader) throws(WireError) { self.init(seconds: try reader.double()) }
}

extension DeviceState: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("batteryLevel", batteryLevel)
            try members.field("isCharging", isCharging)
            try members.field("network", network)
            try members.field("thermalState", thermalState)
            try members.field("isScreenOn", isScreenOn)
            try members.field("isLocked", isLocked)
            try members.field("hasBackgroundGPU", hasBackgroundGPU)
            try members.field("resumeCallback", resumeCallback)
            try members.field("idleSince", idleSince)
            try members.field("battery", battery)
            try members.field("simulatesBattery", simulatesBattery)
            try members.field("isShutDown", isShutDown)
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        var batteryLevel: Double?
        var isCharging: Bool?
        var network: NetworkKind?
        var thermalState: ThermalState?
        var isScreenOn: Bool?
        var isLocked: Bool?
        var hasBackgroundGPU: Bool?
        var resumeCallback: ResumeCallback?
        var idleSince: Instant??
        var battery: Battery?
        var simulatesBattery: Bool?
        var isShutDown: Bool?
        try reader.members { reader, key throws(WireError) in
            switch key {
            case "batteryLevel": try reader.once(&batteryLevel, "batteryLevel")
            case "isCharging": try reader.once(&isCharging, "isCharging")
            case "network": try reader.once(&network, "network")
            case "thermalState": try reader.once(&thermalState, "thermalState")
            case "isScreenOn": try reader.once(&isScreenOn, "isScreenOn")
            case "isLocked": try reader.once(&isLocked, "isLocked")
            case "hasBackgroundGPU": try reader.once(&hasBackgroundGPU, "hasBackgroundGPU")
            case "resumeCallback": try reader.once(&resumeCallback, "resumeCallback")
            case "idleSince": try reader.once(&idleSince, "idleSince")
            case "battery": try reader.once(&battery, "battery")
            case "simulatesBattery": try reader.once(&simulatesBattery, "simulatesBattery")
            case "isShutDown": try reader.once(&isShutDown, "isShutDown")
            default: return false
            }
            return true
        }
        self.init()
        self.batteryLevel = try WireReader.required(batteryLevel, "batteryLevel")
        self.isCharging = try WireReader.required(isCharging, "isCharging")
        self.network = try WireReader.required(network, "network")
        self.thermalState = try WireReader.required(thermalState, "thermalState")
        self.isScreenOn = try WireReader.required(isScreenOn, "isScreenOn")
        self.isLocked = try WireReader.required(isLocked, "isLocked")
        self.hasBackgroundGPU = try WireReader.required(hasBackgroundGPU, "hasBackgroundGPU")
        self.resumeCallback = try WireReader.required(resumeCallback, "resumeCallback")
        self.idleSince = try WireReader.required(idleSince, "idleSince")
        self.battery = try WireReader.required(battery, "battery")
        self.simulatesBattery = try WireReader.required(simulatesBattery, "simulatesBattery")
        self.isShutDown = try WireReader.required(isShutDown, "isShutDown")
    }
}

extension Battery: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("capacityWattHours", capacityWattHours)
            try members.field("chargingWatts", chargingWatts)
            try members.field("taperLevel", taperLevel)
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        var capacity: Double?
        var charging: Double?
        var taper: Double?
        try reader.members { reader, key throws(WireError) in
            switch key {
            case "capacityWattHours": try reader.once(&capacity, "capacityWattHours")
            case "chargingWatts": try reader.once(&charging, "chargingWatts")
            case "taperLevel": try reader.once(&taper, "taperLevel")
            default: return false
            }
            return true
        }
        self.init(
            capacityWattHours: try WireReader.required(capacity, "capacityWattHours"),
            chargingWatts: try WireReader.required(charging, "chargingWatts"),
            taperLevel: try WireReader.required(taper, "taperLevel"))
    }
}

extension UserSettings: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("backgroundAppRefresh", backgroundAppRefresh)
            try members.field("backgroundAppRefreshRestricted", backgroundAppRefreshRestricted)
            try members.field("backgroundAppRefreshOff", Array(backgroundAppRefreshOff))
            try members.field("continuedProcessingOff", Array(continuedProcessingOff))
            try members.field("lowPowerMode", lowPowerMode)
            try members.field("lowDataMode", lowDataMode)
            try members.field("fullAccessKeyboards", Array(fullAccessKeyboards))
        }
    }

    /// As the core reads its settings: every member required but `fullAccessKeyboards`, which is younger.
    package init(reading reader: inout WireReader) throws(WireError) {
        var refresh: Bool?
        var restricted: Bool?
        var refreshOff: [BundleID]?
        var continuedOff: [BundleID]?
        var lowPower: Bool?
        var lowData: Bool?
        var keyboards: [BundleID]??
        try reader.members { reader, key throws(WireError) in
            switch key {
            case "backgroundAppRefresh": try reader.once(&refresh, "backgroundAppRefresh")
            case "backgroundAppRefreshRestricted": try reader.once(&restricted, "backgroundAppRefreshRestricted")
            case "backgroundAppRefreshOff": try reader.once(&refreshOff, "backgroundAppRefreshOff")
            case "continuedProcessingOff": try reader.once(&continuedOff, "continuedProcessingOff")
            case "lowPowerMode": try reader.once(&lowPower, "lowPowerMode")
            case "lowDataMode": try reader.once(&lowData, "lowDataMode")
            case "fullAccessKeyboards": try reader.once(&keyboards, "fullAccessKeyboards")
            default: return false
            }
            return true
        }
        self.init()
        backgroundAppRefresh = try WireReader.required(refresh, "backgroundAppRefresh")
        backgroundAppRefreshRestricted = try WireReader.required(restricted, "backgroundAppRefreshRestricted")
        backgroundAppRefreshOff = Set(try WireReader.required(refreshOff, "backgroundAppRefreshOff"))
        continuedProcessingOff = Set(try WireReader.required(continuedOff, "continuedProcessingOff"))
        lowPowerMode = try WireReader.required(lowPower, "lowPowerMode")
        lowDataMode = try WireReader.required(lowData, "lowDataMode")
        fullAccessKeyboards = Set(try WireReader.required(keyboards, "fullAccessKeyboards") ?? [])
    }
}

extension RecordKind: WireCoded {}
extension NetworkKind: WireCoded {}
extension ThermalState: WireCoded {}
extension ResumeCallback: WireCoded {}
