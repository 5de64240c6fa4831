import Foundation
public import OffstageCore

/// The Battery view of Settings › Battery for the end of a run (§8): the level now, then for the last 24 hours
/// and the last 10 days each app's energy in joules and in % of the battery, foreground and background,
/// the apps that affect the battery most first. The CLI prints it; other reports can reuse its parts.
public struct BatteryReport: Sendable {
    public var ledger: EnergyLedger
    public var battery: Battery
    public var level: Double
    public var isCharging: Bool
    /// The end of the run: the views count back from here.
    public var now: Instant

    public init(system: BackgroundSystem) {
        ledger = system.energy
        battery = system.device.battery
        level = system.device.batteryLevel
        isCharging = system.device.isCharging
        now = system.now
    }

    /// One consumer's line of a view.
    public struct Row: Hashable, Sendable {
        public var consumer: EnergyConsumer
        public var energy: EnergySplit
        /// The energy as a fraction of the battery's capacity.
        public var ofBattery: Double
    }

    /// The rows of a view, the consumers that used the most first.
    public func rows(_ usage: [EnergyConsumer: EnergySplit]) -> [Row] {
        EnergyLedger.ranked(usage).map {
            Row(consumer: $0.consumer, energy: $0.energy, ofBattery: battery.fraction(ofJoules: $0.energy.total))
        }
    }

    /// The whole view as text.
    public func text() -> String {
        var lines = [
            "Battery: \(percent(level, digits: 0)), \(isCharging ? "charging" : "not charging") "
                + "(capacity \(Self.number(battery.capacityWattHours)) Wh)"
        ]
        let hourly = ledger.hourlyTotals(lastHours: 24, at: now)
        lines.append("  Energy by hour, last 24 h (oldest first): \(Self.sparkline(hourly))")
        for (title, usage) in [
            ("Last 24 hours", ledger.last24Hours(at: now)), ("Last 10 days", ledger.last10Days(at: now)),
        ] {
            lines.append("")
            lines += table(title, rows(usage))
        }
        return lines.joined(separator: "\n")
    }

    /// A view's title with its total, and one line per consumer with foreground and background columns.
    private func table(_ title: String, _ rows: [Row]) -> [String] {
        let total = rows.reduce(0) { $0 + $1.energy.total }
        var lines = ["\(title): \(Self.joules(total)) (\(percent(battery.fraction(ofJoules: total))) of the battery)"]
        guard !rows.isEmpty else { return lines + ["  nothing used energy"] }
        let width = max(20, rows.map(\.consumer.description.count).max() ?? 0)
        func pad(_ text: String, _ count: Int, left: Bool = false) -> String {
            let space = String(repeating: " ", count: max(0, count - text.count))
            return left ? text + space : space + text
        }
        lines.append(
            "  " + pad("app", width, left: true) + pad("energy", 12) + pad("battery", 9) + pad("foreground", 13)
                + pad("background", 13))
        for row in rows {
            lines.append(
                "  " + pad(row.consumer.description, width, left: true) + pad(Self.joules(row.energy.total), 12)
                    + pad(percent(row.ofBattery), 9) + pad(Self.joules(row.energy.foreground), 13)
                    + pad(Self.joules(row.energy.background), 13))
        }
        return lines
    }

    /// "1234 J", "5.2 J": whole joules from 10 up.
    static func joules(_ value: Double) -> String { "\(number(value)) J" }

    static func number(_ value: Double) -> String {
        value >= 10 ? String(format: "%.0f", value) : String(format: "%.1f", value)
    }

    func percent(_ fraction: Double, digits: Int = 1) -> String {
        String(format: "%.\(digits)f%%", fraction * 100)
    }

    /// Bars from ▁ to █ scaled to the largest value; a space for nothing.
    static func sparkline(_ values: [Double]) -> String {
        let bars = Array("▁▂▃▄▅▆▇█")
        let top = values.max() ?? 0
        return String(
            values.map { value in
                guard top > 0, top.isFinite, value > 0 else { return " " }
                return bars[min(bars.count - 1, Int(value / top * Double(bars.count - 1)))]
            })
    }
}
