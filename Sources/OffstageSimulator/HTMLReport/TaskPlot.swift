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
        let top = 8.0
        let bottom = top + Double(timeline.apps.count) * (Self.rowHeight + Self.rowGap)
        var svg = SVG(
            id: Self.id, width: TimeAxis.drawingWidth, height: bottom + 26,
            label: "Background task runs per app, with expirations and kills")
        axis.draw(on: &svg, top: top, bottom: bottom)
        for (row, lane) in timeline.apps.enumerated() {
            let y = top + Double(row) * (Self.rowHeight + Self.rowGap)
            svg.text(
                laneName(lane.app.rawValue), x: axis.left - 8, y: y + Self.rowHeight / 2 + 4, anchor: "end",
                title: lane.app.rawValue)
            svg.rect(x: axis.left, y: y, width: axis.width, height: Self.rowHeight, fill: "#fafafa")
            let spans = lane.runs.map { (start: $0.start, end: $0.end) }
            for run in PixelColumns.runs(spans, on: axis, rank: { _ in 0 }) {
                let bar = lane.runs[run.index]
                svg.rect(
                    x: axis.left + Double(run.from), y: y + 2, width: max(2, Double(run.to - run.from)),
                    height: Self.rowHeight - 4, fill: Palette.color(bar.kind), title: describe(bar))
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
        return svg
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
