package import OffstageCore

/// The core's records and the device's state on the wire, for `ctl why` and `ctl status`.
extension Record: WireCoded {
    /// The stored fields and the typed detail, with `value` and `taskKind` spelled out for readers of the JSON
    /// (as the core's own coding writes them).
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("at", at), ("app", app), ("kind", kind), ("task", task), ("reason", reason),
                ("detail", detail), ("value", value), ("taskKind", taskKind))
        }
    }

    /// A record read back keeps its words as written; `value` and `taskKind`, which follow from the detail, are
    /// read only to be checked.
    package init(reading reader: inout WireReader) throws(WireError) {
        let (at, app, kind, task, reason, detail, _, _) = try reader.fields(
            ("at", Instant.self), ("app", BundleID?.self), ("kind", RecordKind.self), ("task", String?.self),
            ("reason", String.self), ("detail", RecordDetail?.self), ("value", Double?.self),
            ("taskKind", TaskKind?.self))
        self.init(at: at, app: app, kind: kind, task: task, reason: reason)
        self.detail = detail
    }
}

extension Instant: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) { try seconds.write(to: &out) }
    package init(reading reader: inout WireReader) throws(WireError) { self.init(seconds: try reader.double()) }
}

extension DeviceState: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("batteryLevel", batteryLevel), ("isCharging", isCharging), ("network", network),
                ("thermalState", thermalState), ("isScreenOn", isScreenOn), ("isLocked", isLocked),
                ("hasBackgroundGPU", hasBackgroundGPU), ("resumeCallback", resumeCallback), ("idleSince", idleSince),
                ("battery", battery), ("simulatesBattery", simulatesBattery), ("isShutDown", isShutDown))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (
            batteryLevel, isCharging, network, thermalState, isScreenOn, isLocked, hasBackgroundGPU, resumeCallback,
            idleSince, battery, simulatesBattery, isShutDown
        ) = try reader.fields(
            ("batteryLevel", Double.self), ("isCharging", Bool.self), ("network", NetworkKind.self),
            ("thermalState", ThermalState.self), ("isScreenOn", Bool.self), ("isLocked", Bool.self),
            ("hasBackgroundGPU", Bool.self), ("resumeCallback", ResumeCallback.self), ("idleSince", Instant?.self),
            ("battery", Battery.self), ("simulatesBattery", Bool.self), ("isShutDown", Bool.self))
        self.init()
        (self.batteryLevel, self.isCharging, self.network, self.thermalState) = (
            batteryLevel, isCharging, network, thermalState
        )
        (self.isScreenOn, self.isLocked, self.hasBackgroundGPU) = (isScreenOn, isLocked, hasBackgroundGPU)
        (self.resumeCallback, self.idleSince, self.battery) = (resumeCallback, idleSince, battery)
        (self.simulatesBattery, self.isShutDown) = (simulatesBattery, isShutDown)
    }
}

extension Battery: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("capacityWattHours", capacityWattHours), ("chargingWatts", chargingWatts), ("taperLevel", taperLevel))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (capacity, charging, taper) = try reader.fields(
            ("capacityWattHours", Double.self), ("chargingWatts", Double.self), ("taperLevel", Double.self))
        self.init(capacityWattHours: capacity, chargingWatts: charging, taperLevel: taper)
    }
}

extension UserSettings: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("backgroundAppRefresh", backgroundAppRefresh),
                ("backgroundAppRefreshRestricted", backgroundAppRefreshRestricted),
                ("backgroundAppRefreshOff", Array(backgroundAppRefreshOff)),
                ("continuedProcessingOff", Array(continuedProcessingOff)), ("lowPowerMode", lowPowerMode),
                ("lowDataMode", lowDataMode), ("fullAccessKeyboards", Array(fullAccessKeyboards)))
        }
    }

    /// As the core reads its settings: every member required but `fullAccessKeyboards`, which is younger.
    package init(reading reader: inout WireReader) throws(WireError) {
        let (refresh, restricted, refreshOff, continuedOff, lowPower, lowData, keyboards) = try reader.fields(
            ("backgroundAppRefresh", Bool.self), ("backgroundAppRefreshRestricted", Bool.self),
            ("backgroundAppRefreshOff", [BundleID].self), ("continuedProcessingOff", [BundleID].self),
            ("lowPowerMode", Bool.self), ("lowDataMode", Bool.self), ("fullAccessKeyboards", [BundleID]?.self))
        self.init()
        (backgroundAppRefresh, backgroundAppRefreshRestricted) = (refresh, restricted)
        (backgroundAppRefreshOff, continuedProcessingOff) = (Set(refreshOff), Set(continuedOff))
        (lowPowerMode, lowDataMode, fullAccessKeyboards) = (lowPower, lowData, Set(keyboards ?? []))
    }
}

extension RecordKind: WireCoded {}
extension NetworkKind: WireCoded {}
extension ThermalState: WireCoded {}
extension ResumeCallback: WireCoded {}
