import OffstageCore

/// The battery curve: the simulated level over the run, with the time on the charger shaded and the critical
/// level dashed (Battery Historian's battery level). Data: `ReportTimeline.battery` (the simulator's
/// `BatteryHistory`) and `ReportTimeline.charging`, derived from it.
struct BatteryPlot {
    static let id = "plot-battery"
    static let plotHeight = 150.0

    let timeline: ReportTimeline
    let axis: TimeAxis
    /// The level below which only essential work runs (`Policy.criticalBatteryLevel`), 0 for none.
    let criticalLevel: Double

    var svg: SVG {
        let top = 10.0
        let bottom = top + Self.plotHeight
        var svg = SVG(
            id: Self.id, width: TimeAxis.drawingWidth, height: bottom + 26,
            label: "Battery level over the run, charging periods shaded")
        func y(_ level: Double) -> Double { bottom - min(1, max(0, level)) * Self.plotHeight }
        for span in timeline.charging where span.end >= axis.start && span.start <= axis.end {
            let x = axis.x(span.start)
            svg.rect(
                x: x, y: top, width: max(1, axis.x(span.end) - x), height: Self.plotHeight, fill: Palette.charging,
                title: "charging from \(axis.moment(span.start)) to \(axis.moment(span.end))")
        }
        axis.draw(on: &svg, top: top, bottom: bottom)
        for level in [0.25, 0.5, 0.75, 1.0] {
            svg.line(x1: axis.left, y1: y(level), x2: axis.left + axis.width, y2: y(level), stroke: "#e3e3e3")
        }
        for level in [0.0, 0.5, 1.0] {
            svg.text("\(Int(level * 100))%", x: axis.left - 8, y: y(level) + 4, anchor: "end", size: 11, fill: "#555")
        }
        svg.text("battery", x: axis.left - 50, y: y(0.75) + 4, anchor: "end")
        if criticalLevel > 0 {
            svg.line(
                x1: axis.left, y1: y(criticalLevel), x2: axis.left + axis.width, y2: y(criticalLevel),
                stroke: Palette.critical, dashed: true)
        }
        let points = Self.thinned(Self.window(timeline.battery, on: axis), on: axis).map {
            (x: axis.x($0.at), y: y($0.level))
        }
        let last = timeline.battery.last.map { " (\(Int(($0.level * 100).rounded()))% at the end)" } ?? ""
        svg.path(points, fill: nil, stroke: Palette.battery, title: "battery level\(last)")
        // The scenario's own battery changes: where the curve jumps by design, not by use.
        for set in timeline.scenarioBattery where axis.start <= set.at && set.at <= axis.end {
            let x = axis.x(set.at)
            svg.line(x1: x, y1: top, x2: x, y2: bottom, stroke: Palette.scenarioBattery, dashed: true)
            svg.text(
                "set \(Figures.percent(set.level))", x: x + 3, y: top + 10, size: 10, fill: Palette.scenarioBattery,
                title: "\(axis.moment(set.at)) the scenario sets the battery to \(Figures.percent(set.level))")
        }
        return svg
    }

    /// The samples inside the axis's window, with the last one before it and the first after it, so the curve
    /// reaches both edges.
    static func window(_ samples: [BatteryHistory.Sample], on axis: TimeAxis) -> [BatteryHistory.Sample] {
        let first = samples.lastIndex { $0.at <= axis.start } ?? 0
        let last = samples.firstIndex { $0.at >= axis.end } ?? samples.count - 1
        return first <= last ? Array(samples[first...last]) : []
    }

    /// The samples a curve needs at this width: all of them when few, else per pixel column the first, lowest,
    /// highest and last, in time order, so no dip or jump is lost.
    static func thinned(_ samples: [BatteryHistory.Sample], on axis: TimeAxis) -> [BatteryHistory.Sample] {
        guard samples.count > 4 * Int(axis.width) else { return samples }
        var result: [BatteryHistory.Sample] = []
        var bucket: [BatteryHistory.Sample] = []
        func flush() {
            guard let first = bucket.first, let last = bucket.last else { return }
            let low = bucket.min { $0.level < $1.level }!
            let high = bucket.max { $0.level < $1.level }!
            var kept: [BatteryHistory.Sample] = []
            for sample in [first, low, high, last].sorted(by: { $0.at < $1.at }) where kept.last != sample {
                kept.append(sample)
            }
            result += kept
            bucket = []
        }
        for sample in samples {
            if let first = bucket.first, axis.column(first.at) != axis.column(sample.at) { flush() }
            bucket.append(sample)
        }
        flush()
        return result
    }

    /// The legend: the curve, the charger, the critical level.
    static var legend: [(color: String, name: String)] {
        [
            (color: Palette.battery, name: "battery level"),
            (color: Palette.charging, name: "on the charger"),
            (color: Palette.scenarioBattery, name: "set by the scenario"),
            (color: Palette.critical, name: "critical level (only essential work runs below it)"),
        ]
    }
}
