import Glibc
package import OffstageCore

/// The device as Linux reports it: battery and charger (`/sys/class/power_supply`), network
/// (`/sys/class/net` and the routing table), heat (`/sys/class/thermal`), load and memory pressure (`/proc`).
/// Machines without a battery read as plugged in at 100 %.
package struct DeviceReading: Sendable, Equatable {
    package var batteryLevel: Double = 1
    package var charging = true
    package var network: NetworkKind = .none
    package var thermal: ThermalState = .nominal
    package var loadAverage: Double?
    /// `/proc/pressure/memory` "some avg10", percent.
    package var memoryPressure: Double?

    package init() {}
}

package enum DeviceProbe {
    /// Reads everything now (a few small files).
    package static func read() -> DeviceReading {
        var reading = DeviceReading()
        readPower(into: &reading)
        reading.network = network()
        reading.thermal = thermal()
        reading.loadAverage = SysFile.read("/proc/loadavg")?.split(separator: " ").first.flatMap { Double($0) }
        reading.memoryPressure = SysFile.read("/proc/pressure/memory").flatMap { text in
            text.split(separator: "\n").first { $0.hasPrefix("some") }?.split(separator: " ")
                .first { $0.hasPrefix("avg10=") }.flatMap { Double($0.dropFirst(6)) }
        }
        return reading
    }

    /// Battery capacity and status; any online mains/USB supply counts as charging.
    package static func readPower(into reading: inout DeviceReading) {
        let base = "/sys/class/power_supply"
        var sawBattery = false
        var onMains = false
        for name in directoryEntries(base) {
            let type = SysFile.read("\(base)/\(name)/type")?.trimmed ?? ""
            if type == "Battery",
                let capacity = SysFile.read("\(base)/\(name)/capacity").flatMap({ Double($0.trimmed) })
            {
                sawBattery = true
                reading.batteryLevel = min(max(capacity / 100, 0), 1)
                let status = SysFile.read("\(base)/\(name)/status")?.trimmed ?? ""
                if status == "Charging" || status == "Full" { onMains = true }
            } else if SysFile.read("\(base)/\(name)/online")?.trimmed == "1" {
                onMains = true
            }
        }
        reading.charging = sawBattery ? onMains : true
    }

    /// The network of the default route's interface: wireless → Wi-Fi, `wwan*`/`rmnet*` → cellular,
    /// any other interface that is up → Wi-Fi (a wired machine); no default route → none.
    package static func network() -> NetworkKind {
        let routes = (SysFile.read("/proc/net/route") ?? "").split(separator: "\n").dropFirst()
        let defaults = routes.compactMap { line -> String? in
            let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            return fields.count > 2 && fields[1] == "00000000" ? String(fields[0]) : nil
        }
        for interface in defaults where SysFile.read("/sys/class/net/\(interface)/operstate")?.trimmed != "down" {
            if interface.hasPrefix("wwan") || interface.hasPrefix("rmnet") { return .cellular }
            return .wifi
        }
        return .none
    }

    /// The hottest thermal zone against its first passive/hot trip point (or fixed limits).
    package static func thermal() -> ThermalState {
        let base = "/sys/class/thermal"
        var worst = ThermalState.nominal
        for zone in directoryEntries(base) where zone.hasPrefix("thermal_zone") {
            guard let milli = SysFile.read("\(base)/\(zone)/temp").flatMap({ Double($0.trimmed) }) else { continue }
            let celsius = milli / 1000
            let state: ThermalState =
                celsius >= 95 ? .critical : celsius >= 85 ? .serious : celsius >= 70 ? .fair : .nominal
            worst = max(worst, state)
        }
        return worst
    }

    package static func directoryEntries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var result: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { result.append(name) }
        }
        return result.sorted()
    }
}

extension String {
    fileprivate var trimmed: String { String(filter { !$0.isNewline && $0 != " " }) }
}
