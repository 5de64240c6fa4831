import OffstageCore

/// The time scale every timeline plot shares: the run from start to end over the same horizontal pixels,
/// so plots stacked on the page line up; with ticks at round wall-clock times.
struct TimeAxis {
    let start: Instant
    let end: Instant
    /// Where the plotting area begins and how wide it is, in the drawing's units (pixels).
    let left: Double
    let width: Double
    let clock: WallClock

    /// The whole drawing's width: the lane names on the left, the plotting area, a margin.
    static let drawingWidth = 1200.0
    static let laneLabelWidth = 230.0

    init(start: Instant, end: Instant, clock: WallClock) {
        self.start = start
        self.end = max(end, start + 1)
        self.clock = clock
        left = Self.laneLabelWidth
        width = Self.drawingWidth - Self.laneLabelWidth - 20
    }

    /// The x of an instant (clamped to the plotting area).
    func x(_ instant: Instant) -> Double {
        let fraction = (instant - start) / (end - start)
        return left + min(1, max(0, fraction)) * width
    }

    /// The pixel column (0 ..< width) an instant falls in.
    func column(_ instant: Instant) -> Int { min(Int(width) - 1, Int(x(instant) - left)) }

    /// Round steps for ticks, in seconds: from a minute to a month.
    static let steps: [Double] = [
        60, 300, 600, 900, 1800, 3600, 2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400, 2 * 86_400, 7 * 86_400,
        14 * 86_400, 30 * 86_400,
    ]

    /// The labelled ticks' step: the smallest round step that gives at most 12 of them.
    var step: Double { Self.steps.first { (end - start) / $0 <= 12 } ?? Self.steps.last! }

    /// Ticks at multiples of the labelled step, on the wall clock (UTC).
    var ticks: [Instant] { ticks(every: step) }

    /// Unlabelled ticks every hour when the labelled ones are further apart and an hour is at least 4 pixels
    /// wide (runs up to about 10 days): on a multi-day axis, the hour of a mark can still be read.
    var hourTicks: [Instant] {
        guard step > 3600, width / ((end - start) / 3600) >= 4 else { return [] }
        return ticks(every: 3600)
    }

    /// Ticks at every multiple of `step` seconds of the wall clock between the start and the end.
    private func ticks(every step: Double) -> [Instant] {
        let epoch = clock.epoch(at: start)
        var tick = (epoch / step).rounded(.up) * step
        var result: [Instant] = []
        while tick <= clock.epoch(at: end) {
            result.append(clock.instant(forEpoch: tick))
            tick += step
        }
        return result
    }

    /// A tick's label: the date "2026-11-22" at midnight, else the time of day "07:00" (the timeline's notation).
    func label(_ instant: Instant) -> String {
        let stamp = moment(instant)
        let time = String(stamp.dropFirst(11).prefix(5))
        return time == "00:00" ? String(stamp.prefix(10)) : time
    }

    /// "2026-11-21 07:04:00Z": an instant for tooltips, on the scenario's clock (UTC), as the text timeline shows it.
    func moment(_ instant: Instant) -> String { clock.timestamp(at: instant) }

    /// Vertical grid lines at the ticks over `top ..< bottom`, and their labels below `bottom`.
    func draw(on svg: inout SVG, top: Double, bottom: Double) {
        svg.line(x1: left, y1: bottom, x2: left + width, y2: bottom, stroke: "#999")
        for tick in hourTicks {
            svg.line(x1: x(tick), y1: bottom, x2: x(tick), y2: bottom + 3, stroke: "#bbb")
        }
        for tick in ticks {
            let x = x(tick)
            svg.line(x1: x, y1: top, x2: x, y2: bottom, stroke: "#e3e3e3")
            svg.line(x1: x, y1: bottom, x2: x, y2: bottom + 4, stroke: "#999")
            svg.text(label(tick), x: x, y: bottom + 16, anchor: "middle", size: 11, fill: "#555")
        }
    }
}
