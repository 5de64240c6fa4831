package import OffstageCore

/// What `offstage ctl event` hands the system: the user, the settings, the device and the processes, on the wire.
extension SystemEvent: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("open", "_0", Self.open(_:)) { if case .open(let app) = $0 { app } else { nil } },
        WireCase("home", .home),
        WireCase("lock", .lock),
        WireCase("unlock", .unlock),
        WireCase("screenOn", .screenOn),
        WireCase("notificationShown", "_0", Self.notificationShown(_:)) {
            if case .notificationShown(let app) = $0 { app } else { nil }
        },
        WireCase("notificationTapped", ("_0", "identifier"), Self.notificationTapped(_:identifier:)) {
            if case .notificationTapped(let app, let identifier) = $0 { (app, identifier) } else { nil }
        },
        WireCase("openSwitcher", .openSwitcher),
        WireCase("swipeAway", "_0", Self.swipeAway(_:)) { if case .swipeAway(let app) = $0 { app } else { nil } },
        WireCase("interruptionBegan", .interruptionBegan),
        WireCase("interruptionEnded", "accepted", Self.interruptionEnded(accepted:)) {
            if case .interruptionEnded(let accepted) = $0 { accepted } else { nil }
        },
        WireCase("setBackgroundAppRefresh", "_0", Self.setBackgroundAppRefresh(_:)) {
            if case .setBackgroundAppRefresh(let on) = $0 { on } else { nil }
        },
        WireCase("setBackgroundAppRefreshRestricted", "_0", Self.setBackgroundAppRefreshRestricted(_:)) {
            if case .setBackgroundAppRefreshRestricted(let on) = $0 { on } else { nil }
        },
        WireCase("setAppBackgroundAppRefresh", ("_0", "_1"), Self.setAppBackgroundAppRefresh(_:_:)) {
            if case .setAppBackgroundAppRefresh(let app, let on) = $0 { (app, on) } else { nil }
        },
        WireCase("setContinuedProcessing", ("_0", "_1"), Self.setContinuedProcessing(_:_:)) {
            if case .setContinuedProcessing(let app, let on) = $0 { (app, on) } else { nil }
        },
        WireCase("setLowPowerMode", "_0", Self.setLowPowerMode(_:)) {
            if case .setLowPowerMode(let on) = $0 { on } else { nil }
        },
        WireCase("setLowDataMode", "_0", Self.setLowDataMode(_:)) {
            if case .setLowDataMode(let on) = $0 { on } else { nil }
        },
        WireCase("setBattery", ("level", "charging"), Self.setBattery(level:charging:)) {
            if case .setBattery(let level, let charging) = $0 { (level, charging) } else { nil }
        },
        WireCase("setNetwork", "_0", Self.setNetwork(_:)) { if case .setNetwork(let kind) = $0 { kind } else { nil } },
        WireCase("setThermalState", "_0", Self.setThermalState(_:)) {
            if case .setThermalState(let state) = $0 { state } else { nil }
        },
        WireCase("setResumeCallback", "_0", Self.setResumeCallback(_:)) {
            if case .setResumeCallback(let callback) = $0 { callback } else { nil }
        },
        WireCase("memoryPressure", "bytes", Self.memoryPressure(bytes:)) {
            if case .memoryPressure(let bytes) = $0 { bytes } else { nil }
        },
        WireCase("setMemoryFootprint", ("_0", "bytes"), Self.setMemoryFootprint(_:bytes:)) {
            if case .setMemoryFootprint(let app, let bytes) = $0 { (app, bytes) } else { nil }
        },
        WireCase("setWallClock", "_0", Self.setWallClock(_:)) {
            if case .setWallClock(let clock) = $0 { clock } else { nil }
        },
        WireCase("processExited", ("_0", "reason"), Self.processExited(_:reason:)) {
            if case .processExited(let app, let reason) = $0 { (app, reason) } else { nil }
        },
        WireCase("resourceUsage", ("_0", "_1"), Self.resourceUsage(_:_:)) {
            if case .resourceUsage(let app, let usage) = $0 { (app, usage) } else { nil }
        },
        WireCase("simulateLaunch", ("_0", "identifier"), Self.simulateLaunch(_:identifier:)) {
            if case .simulateLaunch(let app, let identifier) = $0 { (app, identifier) } else { nil }
        },
        WireCase("simulateExpiration", ("_0", "identifier"), Self.simulateExpiration(_:identifier:)) {
            if case .simulateExpiration(let app, let identifier) = $0 { (app, identifier) } else { nil }
        },
        WireCase("tick", .tick),
        WireCase(
            "cancelContinuedProcessingTask", ("_0", "identifier"), Self.cancelContinuedProcessingTask(_:identifier:)
        ) {
            if case .cancelContinuedProcessingTask(let app, let identifier) = $0 { (app, identifier) } else { nil }
        },
        WireCase(
            "answerContinuedProcessingQuestion", ("_0", "identifier", "answer"),
            Self.answerContinuedProcessingQuestion(_:identifier:answer:)
        ) {
            if case .answerContinuedProcessingQuestion(let app, let identifier, let answer) = $0 {
                (app, identifier, answer)
            } else {
                nil
            }
        },
        WireCase("setCharging", "_0", Self.setCharging(_:)) { if case .setCharging(let on) = $0 { on } else { nil } },
        WireCase("backgroundPush", ("_0", "payload"), Self.backgroundPush(_:payload:)) {
            if case .backgroundPush(let app, let payload) = $0 { (app, payload) } else { nil }
        },
        WireCase("locationEvent", ("_0", "_1"), Self.locationEvent(_:_:)) {
            if case .locationEvent(let app, let event) = $0 { (app, event) } else { nil }
        },
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
