import OffstageCore

/// One lane per app on the shared time axis: the plot's frame, the axis and each app's name, with `drawLane`
/// filling each lane at its top `y`. The state and task plots share this layout.
enum AppLanes {
    static func svg(
        id: String, label: String, timeline: ReportTimeline, axis: TimeAxis, rowHeight: Double, rowGap: Double,
        drawLane: (inout SVG, ReportTimeline.AppLane, Double) -> Void
    ) -> SVG {
        let top = 8.0
        let bottom = top + Double(timeline.apps.count) * (rowHeight + rowGap)
        var svg = SVG(id: id, width: TimeAxis.drawingWidth, height: bottom + 26, label: label)
        axis.draw(on: &svg, top: top, bottom: bottom)
        for (row, lane) in timeline.apps.enumerated() {
            let y = top + Double(row) * (rowHeight + rowGap)
            svg.text(
                laneName(lane.app.rawValue), x: axis.left - 8, y: y + rowHeight / 2 + 4, anchor: "end",
                title: lane.app.rawValue)
            drawLane(&svg, lane, y)
        }
        return svg
    }
}
