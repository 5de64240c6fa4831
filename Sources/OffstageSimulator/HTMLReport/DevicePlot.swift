import OffstageCore

/// The device lanes: what the scheduler's constraints read, over the run — screen and lock, the charger, the
/// network, Low Power and Low Data Mode, the thermal state and the idle window — so that a deferral's blockers
/// (`deviceIdle`, `externalPower`, `network`, `lowPowerMode`, `thermal`…) can be seen lifting. Data:
/// `DeviceLanes`, from the simulator's `DeviceHistory`.
struct DevicePlot {
    static let id = "plot-device"
    static let rowHeight = 16.0
    static let rowGap = 8.0

    let timeline: ReportTimeline
    let axis: TimeAxis
    let lanes: DeviceLanes

    var svg: SVG {
        let top = 8.0
        let bottom = top + Double(lanes.lanes.count) * (Self.rowHeight + Self.rowGap)
        var svg = SVG(
            id: Self.id, width: TimeAxis.drawingWidth, height: bottom + 26,
            label: "Device lanes: screen and lock, idle window, charger, network, Low Power and Low Data Mode, thermal")
        axis.draw(on: &svg, top: top, bottom: bottom)
        for (row, lane) in lanes.lanes.enumerated() {
            let y = top + Double(row) * (Self.rowHeight + Self.rowGap)
            svg.text(
                lane.name, x: axis.left - 8, y: y + Self.rowHeight / 2 + 4, anchor: "end",
                title: "\(lane.name): what the \(lane.constraint) constraint reads")
            let segments = lanes.segments(of: lane)
            let spans = segments.map { (start: $0.start, end: $0.end) }
            for run in PixelColumns.runs(spans, on: axis, rank: { segments[$0].rank }) {
                let segment = segments[run.index]
                svg.rect(
                    x: axis.left + Double(run.from), y: y, width: Double(run.to - run.from), height: Self.rowHeight,
                    fill: segment.color,
                    title:
                        "\(lane.name): \(segment.text) from \(axis.moment(segment.start)) to \(axis.moment(segment.end))"
                )
            }
        }
        return svg
    }

    /// The legend: what the colours of the busiest lanes mean.
    static var legend: [(color: String, name: String)] {
        [
            (color: Palette.Device.inUse, name: "in use"),
            (color: Palette.Device.screenOnLocked, name: "screen on, locked"),
            (color: Palette.Device.notYetIdle, name: "locked, not yet idle"),
            (color: Palette.Device.idle, name: "idle"),
            (color: Palette.Device.onCharger, name: "on the charger"), (color: Palette.Device.wifi, name: "Wi-Fi"),
            (color: Palette.Device.cellular, name: "cellular"), (color: Palette.Device.noNetwork, name: "no network"),
            (color: Palette.Device.lowPowerMode, name: "Low Power Mode"),
            (color: Palette.Device.thermalSerious, name: "thermal serious or worse"),
        ]
    }
}
