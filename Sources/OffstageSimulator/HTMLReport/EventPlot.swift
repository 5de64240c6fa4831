import OffstageCore

/// Wake-ups and pushes: the device's maintenance wakes on one row, then per app its background pushes —
/// arrived, held back (a band until delivery), delivered or dropped. Data: `ReportTimeline.wakes` (the `wake`
/// records) and `ReportTimeline.apps[].pushes` (the `push`, `delivered` and `dropped` records).
struct EventPlot {
    static let id = "plot-events"
    static let rowHeight = 18.0
    static let rowGap = 10.0

    let timeline: ReportTimeline
    let axis: TimeAxis

    /// The apps that had any background push: only they get a push row.
    var pushLanes: [ReportTimeline.AppLane] {
        timeline.apps.filter { !$0.pushes.arrived.isEmpty || !$0.pushes.delivered.isEmpty }
    }

    var svg: SVG {
        let top = 8.0
        let lanes = pushLanes
        let rows = 1 + max(1, lanes.count)
        let bottom = top + Double(rows) * (Self.rowHeight + Self.rowGap)
        var svg = SVG(
            id: Self.id, width: TimeAxis.drawingWidth, height: bottom + 26,
            label: "Maintenance wakes of the device, and background pushes per app")
        axis.draw(on: &svg, top: top, bottom: bottom)
        drawWakes(on: &svg, y: top)
        for (row, lane) in lanes.enumerated() {
            drawPushes(lane, on: &svg, y: top + Double(row + 1) * (Self.rowHeight + Self.rowGap))
        }
        if lanes.isEmpty {
            let y = top + Self.rowHeight + Self.rowGap
            svg.text("pushes", x: axis.left - 8, y: y + Self.rowHeight / 2 + 4, anchor: "end")
            svg.text(
                "no background pushes in this run", x: axis.left + axis.width / 2, y: y + Self.rowHeight / 2 + 4,
                anchor: "middle", size: 11, fill: "#888")
        }
        return svg
    }

    private func drawWakes(on svg: inout SVG, y: Double) {
        svg.text("maintenance wakes", x: axis.left - 8, y: y + Self.rowHeight / 2 + 4, anchor: "end")
        let wakes = timeline.wakes
        for mark in PixelColumns.marks(wakes.map(\.at), on: axis) {
            let wake = wakes[mark.index]
            let x = axis.x(wake.at)
            let served = [wake.app?.rawValue, wake.task.map { "[\($0)]" }].compactMap { $0 }.joined(separator: " ")
            let row = wake.app.flatMap { app in
                wake.task.flatMap { timeline.requestIndex(app: app, identifier: $0, startedAt: wake.at) }
            }
            svg.link(to: row.map(RequestTable.rowID) ?? RequestTable.id) { svg in
                svg.path(
                    [
                        (x, y + 2), (x + 4, y + Self.rowHeight / 2), (x, y + Self.rowHeight - 2),
                        (x - 4, y + Self.rowHeight / 2),
                    ],
                    fill: Palette.wake, stroke: nil,
                    title: "\(axis.moment(wake.at)) \(wake.detail)"
                        + (served.isEmpty ? "" : ", served \(served)") + more(mark.count))
            }
        }
    }

    private func drawPushes(_ lane: ReportTimeline.AppLane, on svg: inout SVG, y: Double) {
        svg.text(
            laneName("pushes " + lane.app.rawValue), x: axis.left - 8, y: y + Self.rowHeight / 2 + 4, anchor: "end",
            title: lane.app.rawValue)
        let pushes = lane.pushes
        let held = pushes.held.map { (start: $0.start, end: $0.end) }
        for run in PixelColumns.runs(held, on: axis, rank: { _ in 0 }) {
            let span = pushes.held[run.index]
            svg.rect(
                x: axis.left + Double(run.from), y: y + 3, width: Double(run.to - run.from), height: Self.rowHeight - 6,
                fill: Palette.pushHeld,
                title: "push held from \(axis.moment(span.start)) to \(axis.moment(span.end))")
        }
        for mark in PixelColumns.marks(pushes.arrived.map(\.at), on: axis) {
            let push = pushes.arrived[mark.index]
            let x = axis.x(push.at)
            svg.path(
                [(x - 4, y + 1), (x + 4, y + 1), (x, y + 8)], fill: Palette.pushArrived, stroke: nil,
                title: "\(axis.moment(push.at)) \(push.detail)" + more(mark.count))
        }
        for mark in PixelColumns.marks(pushes.delivered.map(\.at), on: axis) {
            let push = pushes.delivered[mark.index]
            let x = axis.x(push.at)
            svg.path(
                [(x - 5, y + Self.rowHeight - 1), (x + 5, y + Self.rowHeight - 1), (x, y + 8)],
                fill: Palette.pushDelivered, stroke: nil,
                title: "\(axis.moment(push.at)) delivered: \(push.detail)" + more(mark.count))
        }
        for mark in PixelColumns.marks(pushes.dropped.map(\.at), on: axis) {
            let push = pushes.dropped[mark.index]
            svg.text(
                "✕", x: axis.x(push.at), y: y + Self.rowHeight - 3, anchor: "middle", size: 13,
                fill: Palette.pushDropped,
                title: "\(axis.moment(push.at)) dropped: \(push.detail)" + more(mark.count))
        }
    }

    private func more(_ count: Int) -> String { count > 1 ? " (and \(count - 1) more here)" : "" }

    /// The legend: the wake and push marks.
    static var legend: [(color: String, name: String)] {
        [
            (color: Palette.wake, name: "◆ maintenance wake"),
            (color: Palette.pushArrived, name: "▼ push arrived"),
            (color: Palette.pushHeld, name: "push held back"),
            (color: Palette.pushDelivered, name: "▲ push delivered"),
            (color: Palette.pushDropped, name: "✕ push dropped"),
        ]
    }
}
