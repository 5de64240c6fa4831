import OffstageCore

/// The app state lanes: per app, over the run, foreground, background, suspended or not running, coloured
/// (Battery Historian's app rows). Data: `ReportTimeline.apps[].states`, from the life-cycle records.
struct StatePlot {
    static let id = "plot-states"
    static let rowHeight = 22.0
    static let rowGap = 8.0

    let timeline: ReportTimeline
    let axis: TimeAxis

    var svg: SVG {
        let top = 8.0
        let bottom = top + Double(timeline.apps.count) * (Self.rowHeight + Self.rowGap)
        var svg = SVG(
            id: Self.id, width: TimeAxis.drawingWidth, height: bottom + 26,
            label: "App state lanes: foreground, background, suspended, not running")
        axis.draw(on: &svg, top: top, bottom: bottom)
        for (row, lane) in timeline.apps.enumerated() {
            let y = top + Double(row) * (Self.rowHeight + Self.rowGap)
            svg.text(
                laneName(lane.app.rawValue), x: axis.left - 8, y: y + Self.rowHeight / 2 + 4, anchor: "end",
                title: lane.app.rawValue)
            let rank = LaneState.allCases.count
            let spans = lane.states.map { (start: $0.start, end: $0.end) }
            for run in PixelColumns.runs(
                spans, on: axis, rank: { rank - LaneState.allCases.firstIndex(of: lane.states[$0].state)! })
            {
                let segment = lane.states[run.index]
                svg.rect(
                    x: axis.left + Double(run.from), y: y, width: Double(run.to - run.from), height: Self.rowHeight,
                    fill: Palette.color(segment.state),
                    title: "\(lane.app): \(segment.state.rawValue) from \(axis.moment(segment.start)) "
                        + "to \(axis.moment(segment.end))")
            }
        }
        return svg
    }

    /// The legend: one swatch per state.
    static var legend: [(color: String, name: String)] {
        LaneState.allCases.map { (color: Palette.color($0), name: $0.rawValue) }
    }
}
