import OffstageCore

/// Spans on a lane reduced to what the screen can show: each pixel column shows the most important span that
/// touches it (a one-second background stint in a suspended hour still gets its pixel), and neighbouring
/// columns with the same winner become one rectangle. A year-long run then draws no more rectangles per lane
/// than the plot has pixels.
struct PixelColumns {
    /// A run of columns `[from, to)` won by the span at `index` in the input.
    struct Run: Hashable {
        var from: Int
        var to: Int
        var index: Int
    }

    /// The runs for `spans` on `axis`; `rank` orders spans by importance (higher wins a shared column, the
    /// earlier span on ties).
    static func runs(_ spans: [(start: Instant, end: Instant)], on axis: TimeAxis, rank: (Int) -> Int) -> [Run] {
        let count = Int(axis.width)
        var winner = [Int](repeating: -1, count: count)
        for (index, span) in spans.enumerated() where span.end >= axis.start && span.start <= axis.end {
            let first = axis.column(span.start)
            let last = max(first, Int((axis.x(span.end) - axis.left).rounded(.up)) - 1)
            for column in first...min(last, count - 1) {
                let current = winner[column]
                if current < 0 || rank(index) > rank(current) { winner[column] = index }
            }
        }
        var runs: [Run] = []
        for (column, index) in winner.enumerated() where index >= 0 {
            if let last = runs.last, last.index == index, last.to == column {
                runs[runs.count - 1].to = column + 1
            } else {
                runs.append(Run(from: column, to: column + 1, index: index))
            }
        }
        return runs
    }

    /// For marks at instants: per column the first mark, and how many share it (one symbol per pixel).
    static func marks(_ instants: [Instant], on axis: TimeAxis) -> [(index: Int, count: Int)] {
        var firstIn: [Int: Int] = [:]
        var counts: [Int: Int] = [:]
        for (index, instant) in instants.enumerated() where axis.start <= instant && instant <= axis.end {
            let column = axis.column(instant)
            if firstIn[column] == nil { firstIn[column] = index }
            counts[column, default: 0] += 1
        }
        return firstIn.keys.sorted().map { (index: firstIn[$0]!, count: counts[$0]!) }
    }
}
