import OffstageCore

/// The task lanes: per app, each background task run as a bar coloured by kind, from its start to its
/// completion, with its expiration (red tick) and a kill with its app (✕) marked. Data:
/// `ReportTimeline.apps[].runs`, from the `started`, `expired`, `completed` and `killed` records.
struct TaskPlot {
    static let id = "plot-tasks"
    static let rowHeight = 18.0
    static let rowGap = 10.0

    let timeline: ReportTimeline
    let axis: TimeAxis

    var svg: SVG {
        AppLanes.svg(
            id: Self.id, label: "Background task runs per app, with expirations and kills", timeline: timeline,
            axis: axis, rowHeight: Self.rowHeight, rowGap: Self.rowGap
        ) { svg, lane, y in
            svg.rect(x: axis.left, y: y, width: axis.width, height: Self.rowHeight, fill: "#fafafa")
            let spans = lane.runs.map { (start: $0.start, end: $0.end) }
            for run in PixelColumns.runs(spans, on: axis, rank: { _ in 0 }) {
                let bar = lane.runs[run.index]
                let row = timeline.requestIndex(app: lane.app, identifier: bar.identifier, startedAt: bar.start)
                svg.link(to: row.map(RequestTable.rowID) ?? RequestTable.id) { svg in
                    svg.rect(
                        x: axis.left + Double(run.from), y: y + 2, width: max(2, Double(run.to - run.from)),
                        height: Self.rowHeight - 4, fill: Palette.color(bar.kind), title: describe(bar))
                }
            }
            // The maintenance wakes this app's tasks were started in: which app each wake served.
            let served = timeline.wakes.filter { $0.app == lane.app }
            for mark in PixelColumns.marks(served.map(\.at), on: axis) {
                let wake = served[mark.index]
                let x = axis.x(wake.at)
                svg.path(
                    [(x, y - 5), (x + 3, y - 1), (x, y + 3), (x - 3, y - 1)], fill: Palette.wake, stroke: nil,
                    title: "\(axis.moment(wake.at)) \(wake.detail), for \(wake.task ?? "this app")" + more(mark.count))
            }
            let expired = lane.runs.filter { $0.expiredAt != nil }
            for mark in PixelColumns.marks(expired.map { $0.expiredAt! }, on: axis) {
                let bar = expired[mark.index]
                let x = axis.x(bar.expiredAt!)
                svg.rect(
                    x: x - 1, y: y - 2, width: 2.5, height: Self.rowHeight + 4, fill: Palette.expired,
                    title: "expired: \(describe(bar))" + more(mark.count))
            }
            let killed = lane.runs.filter { $0.outcome == .killed }
            for mark in PixelColumns.marks(killed.map(\.end), on: axis) {
                let bar = killed[mark.index]
                svg.text(
                    "✕", x: axis.x(bar.end), y: y + Self.rowHeight / 2 + 5, anchor: "middle", size: 14,
                    fill: Palette.killed, title: "killed with its app: \(describe(bar))" + more(mark.count))
            }
        }
    }

    /// A run in words, for its tooltip.
    private func describe(_ bar: TaskBar) -> String {
        var text = "\(bar.identifier) (\(Palette.name(bar.kind))): started \(axis.moment(bar.start))"
        if let expired = bar.expiredAt { text += ", expired \(axis.moment(expired))" }
        switch bar.outcome {
        case .completed: text += ", completed \(axis.moment(bar.end))"
        case .killed: text += ", killed \(axis.moment(bar.end))"
        case .running: text += ", still running at the end"
        }
        if let usage = bar.usage { text += "; used \(usage.text)" }
        return text
    }

    private func more(_ count: Int) -> String { count > 1 ? " (and \(count - 1) more here)" : "" }

    /// The legend: one swatch per task kind, and the marks.
    static var legend: [(color: String, name: String)] {
        TaskKind.allCases.map { (color: Palette.color($0), name: Palette.name($0)) } + [
            (color: Palette.expired, name: "expired (the system asked the task to stop)"),
            (color: Palette.killed, name: "✕ killed with its app"),
        ]
    }
}
