package import OffstageCore

/// What `offstage ctl event` hands the system: the user, the settings, the device and the processes, on the wire.
extension SystemEvent: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .open(let app): try out.enumCase("open", ("_0", app))
        case .home: out.enumCase("home")
        case .lock: out.enumCase("lock")
        case .unlock: out.enumCase("unlock")
        case .screenOn: out.enumCase("screenOn")
        case .notificationShown(let app): try out.enumCase("notificationShown", ("_0", app))
        case .notificationTapped(let app, let identifier):
            try out.enumCase("notificationTapped", ("_0", app), ("identifier", identifier))
        case .openSwitcher: out.enumCase("openSwitcher")
        case .swipeAway(let app): try out.enumCase("swipeAway", ("_0", app))
        case .interruptionBegan: out.enumCase("interruptionBegan")
        case .interruptionEnded(let accepted): try out.enumCase("interruptionEnded", ("accepted", accepted))
        case .setBackgroundAppRefresh(let on): try out.enumCase("setBackgroundAppRefresh", ("_0", on))
        case .setBackgroundAppRefreshRestricted(let on):
            try out.enumCase("setBackgroundAppRefreshRestricted", ("_0", on))
        case .setAppBackgroundAppRefresh(let app, let on):
            try out.enumCase("setAppBackgroundAppRefresh", ("_0", app), ("_1", on))
        case .setContinuedProcessing(let app, let on):
            try out.enumCase("setContinuedProcessing", ("_0", app), ("_1", on))
        case .setLowPowerMode(let on): try out.enumCase("setLowPowerMode", ("_0", on))
        case .setLowDataMode(let on): try out.enumCase("setLowDataMode", ("_0", on))
        case .setBattery(let level, let charging):
            try out.enumCase("setBattery", ("level", level), ("charging", charging))
        case .setNetwork(let kind): try out.enumCase("setNetwork", ("_0", kind))
        case .setThermalState(let state): try out.enumCase("setThermalState", ("_0", state))
        case .setResumeCallback(let callback): try out.enumCase("setResumeCallback", ("_0", callback))
        case .memoryPressure(let bytes): try out.enumCase("memoryPressure", ("bytes", bytes))
        case .setMemoryFootprint(let app, let bytes):
            try out.enumCase("setMemoryFootprint", ("_0", app), ("bytes", bytes))
        case .setWallClock(let clock): try out.enumCase("setWallClock", ("_0", clock))
        case .processExited(let app, let reason): try out.enumCase("processExited", ("_0", app), ("reason", reason))
        case .resourceUsage(let app, let usage): try out.enumCase("resourceUsage", ("_0", app), ("_1", usage))
        case .simulateLaunch(let app, let identifier):
            try out.enumCase("simulateLaunch", ("_0", app), ("identifier", identifier))
        case .simulateExpiration(let app, let identifier):
            try out.enumCase("simulateExpiration", ("_0", app), ("identifier", identifier))
        case .tick: out.enumCase("tick")
        case .cancelContinuedProcessingTask(let app, let identifier):
            try out.enumCase("cancelContinuedProcessingTask", ("_0", app), ("identifier", identifier))
        case .answerContinuedProcessingQuestion(let app, let identifier, let answer):
            try out.enumCase(
                "answerContinuedProcessingQuestion", ("_0", app), ("identifier", identifier), ("answer", answer))
        case .setCharging(let on): try out.enumCase("setCharging", ("_0", on))
        case .backgroundPush(let app, let payload):
            try out.enumCase("backgroundPush", ("_0", app), ("payload", payload))
        case .locationEvent(let app, let event): try out.enumCase("locationEvent", ("_0", app), ("_1", event))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("open", "_0", Self.open(_:)),
        WireCase("home", .home),
        WireCase("lock", .lock),
        WireCase("unlock", .unlock),
        WireCase("screenOn", .screenOn),
        WireCase("notificationShown", "_0", Self.notificationShown(_:)),
        WireCase("notificationTapped", ("_0", "identifier"), Self.notificationTapped(_:identifier:)),
        WireCase("openSwitcher", .openSwitcher),
        WireCase("swipeAway", "_0", Self.swipeAway(_:)),
        WireCase("interruptionBegan", .interruptionBegan),
        WireCase("interruptionEnded", "accepted", Self.interruptionEnded(accepted:)),
        WireCase("setBackgroundAppRefresh", "_0", Self.setBackgroundAppRefresh(_:)),
        WireCase("setBackgroundAppRefreshRestricted", "_0", Self.setBackgroundAppRefreshRestricted(_:)),
        WireCase("setAppBackgroundAppRefresh", ("_0", "_1"), Self.setAppBackgroundAppRefresh(_:_:)),
        WireCase("setContinuedProcessing", ("_0", "_1"), Self.setContinuedProcessing(_:_:)),
        WireCase("setLowPowerMode", "_0", Self.setLowPowerMode(_:)),
        WireCase("setLowDataMode", "_0", Self.setLowDataMode(_:)),
        WireCase("setBattery", ("level", "charging"), Self.setBattery(level:charging:)),
        WireCase("setNetwork", "_0", Self.setNetwork(_:)),
        WireCase("setThermalState", "_0", Self.setThermalState(_:)),
        WireCase("setResumeCallback", "_0", Self.setResumeCallback(_:)),
        WireCase("memoryPressure", "bytes", Self.memoryPressure(bytes:)),
        WireCase("setMemoryFootprint", ("_0", "bytes"), Self.setMemoryFootprint(_:bytes:)),
        WireCase("setWallClock", "_0", Self.setWallClock(_:)),
        WireCase("processExited", ("_0", "reason"), Self.processExited(_:reason:)),
        WireCase("resourceUsage", ("_0", "_1"), Self.resourceUsage(_:_:)),
        WireCase("simulateLaunch", ("_0", "identifier"), Self.simulateLaunch(_:identifier:)),
        WireCase("simulateExpiration", ("_0", "identifier"), Self.simulateExpiration(_:identifier:)),
        WireCase("tick", .tick),
        WireCase(
            "cancelContinuedProcessingTask", ("_0", "identifier"), Self.cancelContinuedProcessingTask(_:identifier:)),
        WireCase(
            "answerContinuedProcessingQuestion", ("_0", "identifier", "answer"),
            Self.answerContinuedProcessingQuestion(_:identifier:answer:)),
        WireCase("setCharging", "_0", Self.setCharging(_:)),
        WireCase("backgroundPush", ("_0", "payload"), Self.backgroundPush(_:payload:)),
        WireCase("locationEvent", ("_0", "_1"), Self.locationEvent(_:_:)),
    ]
}

extension WallClock: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(("epochAtZero", epochAtZero), ("utcOffset", utcOffset))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (epochAtZero, utcOffset) = try reader.fields(("epochAtZero", Double.self), ("utcOffset", Double.self))
        self.init(epochAtZero: epochAtZero, utcOffset: utcOffset)
    }
}

extension ResourceUsage: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(
                ("cpuSeconds", cpuSeconds), ("gpuSeconds", gpuSeconds), ("wifiBytes", wifiBytes),
                ("cellularBytes", cellularBytes), ("interval", interval))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (cpu, gpu, wifi, cellular, interval) = try reader.fields(
            ("cpuSeconds", Double.self), ("gpuSeconds", Double.self), ("wifiBytes", Int.self),
            ("cellularBytes", Int.self), ("interval", Double.self))
        self.init(cpuSeconds: cpu, gpuSeconds: gpu, wifiBytes: wifi, cellularBytes: cellular, interval: interval)
    }
}

extension SlowTaskAnswer: WireCoded {}
