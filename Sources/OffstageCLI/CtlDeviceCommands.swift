import ArgumentParser
import Foundation
import OffstageCore
import OffstageProtocol
import OffstageSimulator

/// `ctl device set KEY=VALUE…` and `ctl device reset`: override the probes (tests, machines with no battery).
struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device", abstract: "Override device readings.", subcommands: [Set.self, Reset.self])

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set readings: battery=0.4|40%, charging=yes|no, network=wifi|cellular|none, "
                + "thermal=nominal|fair|serious|critical, memory-pressure=BYTES.")
        @OptionGroup var daemon: DaemonAddress
        @Argument(help: "KEY=VALUE pairs.") var pairs: [String]

        /// Bad readings are reported with this command's usage, before the daemon is asked.
        func validate() throws { _ = try Self.parse(pairs) }

        func run() throws {
            Output.print(try daemon.send(.device(overrides: try Self.parse(pairs), reset: false)))
        }

        static func parse(_ pairs: [String]) throws -> DeviceOverrides {
            var result = DeviceOverrides()
            for pair in pairs {
                let (key, value) = try Settings.split(pair)
                switch key {
                case "battery":
                    let number = value.hasSuffix("%") ? Double(value.dropLast()).map { $0 / 100 } : Double(value)
                    guard let number, (0...1).contains(number) else {
                        throw ValidationError("battery: '\(value)' is not a level between 0 and 1 (or 0% and 100%)")
                    }
                    result.batteryLevel = number
                case "charging": result.charging = try Settings.bool(value, field: key)
                case "network":
                    guard let kind = NetworkKind(rawValue: value) else {
                        throw ValidationError("network: '\(value)' is not wifi, cellular or none")
                    }
                    result.network = kind
                case "thermal":
                    guard let state = ThermalState(rawValue: value) else {
                        throw ValidationError("thermal: '\(value)' is not nominal, fair, serious or critical")
                    }
                    result.thermal = state
                case "memory-pressure":
                    guard let bytes = Int(value), bytes > 0 else {
                        throw ValidationError("memory-pressure: '\(value)' is not a byte count")
                    }
                    result.memoryPressureBytes = bytes
                default:
                    throw ValidationError(
                        "'\(key)' is not a device reading (battery, charging, network, thermal, memory-pressure)")
                }
            }
            return result
        }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Drop every override: the probes' readings again.")
        @OptionGroup var daemon: DaemonAddress
        func run() throws { Output.print(try daemon.send(.device(overrides: DeviceOverrides(), reset: true))) }
    }
}

/// `ctl settings [KEY=VALUE…]`: show or change the user's settings.
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show or change settings: background-app-refresh, restricted, low-power, low-data (on|off); "
            + "app-refresh=APP:on|off, continued-processing=APP:on|off.")
    @OptionGroup var daemon: DaemonAddress
    @Argument(help: "KEY=VALUE pairs; none shows the settings.") var pairs: [String] = []

    func validate() throws { _ = try pairs.map(Settings.event) }

    func run() throws {
        guard !pairs.isEmpty else {
            guard case .status(let status) = try daemon.send(.status) else { return }
            return Console.print(Settings.text(status.settings))
        }
        for event in try pairs.map(Settings.event) { try daemon.send(event) }
    }
}

/// Parsing and printing settings.
enum Settings {
    static func split(_ pair: String) throws -> (String, String) {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw ValidationError("'\(pair)': expected KEY=VALUE") }
        return (parts[0], parts[1])
    }

    static func bool(_ value: String, field: String) throws -> Bool {
        switch value {
        case "on", "yes", "true", "1": return true
        case "off", "no", "false", "0": return false
        default: throw ValidationError("\(field): '\(value)' is not on or off")
        }
    }

    static func event(_ pair: String) throws -> SystemEvent {
        let (key, value) = try split(pair)
        switch key {
        case "background-app-refresh": return .setBackgroundAppRefresh(try bool(value, field: key))
        case "restricted": return .setBackgroundAppRefreshRestricted(try bool(value, field: key))
        case "low-power": return .setLowPowerMode(try bool(value, field: key))
        case "low-data": return .setLowDataMode(try bool(value, field: key))
        case "app-refresh", "continued-processing":
            let parts = value.split(separator: ":").map(String.init)
            guard parts.count == 2 else { throw ValidationError("\(key): '\(value)' is not APP:on or APP:off") }
            let on = try bool(parts[1], field: key)
            return key == "app-refresh"
                ? .setAppBackgroundAppRefresh(BundleID(parts[0]), on) : .setContinuedProcessing(BundleID(parts[0]), on)
        default:
            throw ValidationError(
                "'\(key)' is not a setting (background-app-refresh, restricted, low-power, low-data, app-refresh, continued-processing)"
            )
        }
    }

    static func text(_ settings: UserSettings) -> String {
        func onOff(_ value: Bool) -> String { value ? "on" : "off" }
        var lines = [
            "background-app-refresh  \(onOff(settings.backgroundAppRefresh))",
            "restricted              \(onOff(settings.backgroundAppRefreshRestricted))",
            "low-power               \(onOff(settings.lowPowerMode))",
            "low-data                \(onOff(settings.lowDataMode))",
        ]
        lines += settings.backgroundAppRefreshOff.sorted().map { "app-refresh             \($0):off" }
        lines += settings.continuedProcessingOff.sorted().map { "continued-processing    \($0):off" }
        return lines.joined(separator: "\n")
    }
}

/// `ctl battery`: the battery, the charger and what each app used.
struct BatteryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "battery", abstract: "Battery, charger and use per app.")
    @OptionGroup var daemon: DaemonAddress

    func run() throws {
        guard case .status(let status) = try daemon.send(.status), case .apps(let apps) = try daemon.send(.apps) else {
            return
        }
        let device = status.device
        Console.print(
            "battery \(Figures.percent(device.batteryLevel)), \(device.isCharging ? "charging" : "on battery")")
        let rows = apps.sorted { $0.cpuSeconds > $1.cpuSeconds }.map { app in
            [app.bundle.rawValue, String(format: "%.2f s", app.cpuSeconds), app.state.rawValue]
        }
        if !rows.isEmpty { Console.print(Table.render(header: ["APP", "CPU", "STATE"], rows: rows)) }
    }
}

/// `ctl status`: the daemon, its freezer, the device and the settings.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the daemon's status.")
    @OptionGroup var daemon: DaemonAddress
    func run() throws { Output.print(try daemon.send(.status)) }

    static func text(_ status: DaemonStatus) -> String {
        let device = status.device
        let overridden = [
            status.overrides.batteryLevel.map { _ in "battery" }, status.overrides.charging.map { _ in "charging" },
            status.overrides.network.map { _ in "network" }, status.overrides.thermal.map { _ in "thermal" },
        ].compactMap { $0 }
        var lines = [
            "offstage daemon, pid \(status.pid), protocol \(status.protocolVersion), up \(Figures.whole(status.uptimeSeconds).map(String.init) ?? "?") s",
            "freezer   \(status.freezer)",
            "socket    \(status.socket)",
            "state     \(status.stateDirectory)",
            "apps      \(status.installedApps) installed, \(status.runningApps) with a process",
            "device    battery \(Figures.percent(device.batteryLevel))\(device.isCharging ? " charging" : ""), "
                + "network \(device.network.rawValue), thermal \(device.thermalState.rawValue), "
                + (device.isLocked ? "locked" : "unlocked")
                + (overridden.isEmpty ? "" : " (overridden: \(overridden.joined(separator: ", ")))"),
            "load      \(status.loadAverage.map { String(format: "%.2f", $0) } ?? "?"), memory pressure "
                + "\(status.memoryPressure.map { String(format: "%.2f%%", $0) } ?? "?")",
            "next due  \(status.nextDueIn.map { String(format: "in %.1f s", $0) } ?? "nothing due")",
        ]
        if let action = status.lastFreezerAction {
            func micros(_ nanos: UInt64) -> String { String(format: "%.1f µs", Double(nanos) / 1000) }
            lines.append(
                "last      \(action.frozen ? "froze" : "thawed") \(action.app): the write began "
                    + "\(micros(action.writingAt - action.decidedAt)) after the decision and took "
                    + "\(micros(action.writtenAt - action.writingAt))")
        }
        return lines.joined(separator: "\n")
    }
}
