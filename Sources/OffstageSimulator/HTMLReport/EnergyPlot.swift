import OffstageCore

/// Energy per app over the run: one stacked bar per consumer, foreground then background, the apps that used
/// the most first, as in Settings › Battery. Data: `ReportTimeline.energy`, the energy ledger's all-time totals
/// in the rows of `BatteryReport`.
struct EnergyPlot {
    static let id = "plot-energy"
    static let rowHeight = 20.0
    static let rowGap = 8.0

    let timeline: ReportTimeline
    let battery: BatteryReport

    var svg: SVG {
        let top = 8.0
        let rows = timeline.energy
        let left = TimeAxis.laneLabelWidth
        let barWidth = 480.0
        let height = top + Double(max(1, rows.count)) * (Self.rowHeight + Self.rowGap) + 8
        var svg = SVG(
            id: Self.id, width: TimeAxis.drawingWidth, height: height,
            label: "Energy per app over the run, foreground and background")
        guard let most = rows.first?.energy.total, most > 0 else {
            svg.text("nothing used energy", x: left, y: top + 14, fill: "#888")
            return svg
        }
        for (index, row) in rows.enumerated() {
            let y = top + Double(index) * (Self.rowHeight + Self.rowGap)
            let name = row.consumer.description
            svg.text(laneName(name), x: left - 8, y: y + Self.rowHeight / 2 + 4, anchor: "end", title: name)
            let foreground = row.energy.foreground / most * barWidth
            let background = row.energy.background / most * barWidth
            let total = "\(BatteryReport.joules(row.energy.total)) (\(battery.percent(row.ofBattery)) of the battery)"
            svg.rect(
                x: left, y: y, width: foreground, height: Self.rowHeight, fill: Palette.foregroundEnergy,
                title: "\(name): \(BatteryReport.joules(row.energy.foreground)) in the foreground")
            svg.rect(
                x: left + foreground, y: y, width: background, height: Self.rowHeight, fill: Palette.backgroundEnergy,
                title: "\(name): \(BatteryReport.joules(row.energy.background)) in the background")
            svg.text(
                "\(total): foreground \(BatteryReport.joules(row.energy.foreground)), "
                    + "background \(BatteryReport.joules(row.energy.background))",
                x: left + foreground + background + 8, y: y + Self.rowHeight / 2 + 4, size: 11, fill: "#333")
        }
        return svg
    }

    /// The legend: foreground and background energy.
    static var legend: [(color: String, name: String)] {
        [
            (color: Palette.foregroundEnergy, name: "foreground (on screen)"),
            (color: Palette.backgroundEnergy, name: "background"),
        ]
    }
}
