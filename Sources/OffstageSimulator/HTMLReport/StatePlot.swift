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
        AppLanes.svg(
            id: Self.id, label: "App state lanes: foreground, background, suspended, not running",
            timeline: timeline, axis: axis, rowHeight: Self.rowHeight, rowGap: Self.rowGap
        ) { svg, lane, y in
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
    }

    /// The legend: one swatch per state.
    static var legend: [(color: String, name: String)] {
        LaneState.allCases.map { (color: Palette.color($0), name: $0.rawValue) }
    }
}
