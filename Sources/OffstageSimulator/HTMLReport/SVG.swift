/// Text made safe for HTML and SVG: the five characters markup gives meaning to become entities, so names,
/// payloads and reasons from a scenario show as written and never as markup.
func escapeHTML(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.count)
    for character in text {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#39;"
        default: result.append(character)
        }
    }
    return result
}

/// A coordinate or length for markup: at most one decimal, no exponent, the same on every platform.
func svgNumber(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    let magnitude = abs(tenths)
    return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
}

/// One inline SVG drawing, built element by element: a fixed viewBox and an explicit width and height, so a
/// browser gives it its size before any style applies. Every text and tooltip is escaped here.
struct SVG {
    let id: String
    let width: Double
    let height: Double
    /// What the drawing shows, for screen readers.
    let label: String
    private var body: [String] = []

    init(id: String, width: Double, height: Double, label: String) {
        self.id = id
        self.width = width
        self.height = height
        self.label = label
    }

    /// A rectangle, with a tooltip if `title` is given.
    mutating func rect(
        x: Double, y: Double, width: Double, height: Double, fill: String, title: String? = nil
    ) {
        element(
            "rect",
            "x=\"\(svgNumber(x))\" y=\"\(svgNumber(y))\" width=\"\(svgNumber(width))\" height=\"\(svgNumber(height))\" "
                + "fill=\"\(fill)\"", title: title)
    }

    /// A straight line.
    mutating func line(
        x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1, dashed: Bool = false
    ) {
        let dash = dashed ? " stroke-dasharray=\"4 3\"" : ""
        element(
            "line",
            "x1=\"\(svgNumber(x1))\" y1=\"\(svgNumber(y1))\" x2=\"\(svgNumber(x2))\" y2=\"\(svgNumber(y2))\" "
                + "stroke=\"\(stroke)\" stroke-width=\"\(svgNumber(width))\"\(dash)", title: nil)
    }

    /// A closed or open shape through `points`, filled or stroked.
    mutating func path(_ points: [(x: Double, y: Double)], fill: String?, stroke: String?, title: String? = nil) {
        guard let first = points.first else { return }
        var d = "M\(svgNumber(first.x)) \(svgNumber(first.y))"
        for point in points.dropFirst() { d += "L\(svgNumber(point.x)) \(svgNumber(point.y))" }
        if fill != nil { d += "Z" }
        let paint = "fill=\"\(fill ?? "none")\"" + (stroke.map { " stroke=\"\($0)\" stroke-width=\"1.5\"" } ?? "")
        element("path", "d=\"\(d)\" \(paint) stroke-linejoin=\"round\"", title: title)
    }

    /// A label; `anchor` is SVG's `text-anchor` (start, middle, end).
    mutating func text(
        _ content: String, x: Double, y: Double, anchor: String = "start", size: Double = 12, fill: String = "#222",
        title: String? = nil
    ) {
        let attributes =
            "x=\"\(svgNumber(x))\" y=\"\(svgNumber(y))\" text-anchor=\"\(anchor)\" font-size=\"\(svgNumber(size))\" "
            + "fill=\"\(fill)\""
        let tooltip = title.map { "<title>\(escapeHTML($0))</title>" } ?? ""
        body.append("<text \(attributes)>\(tooltip)\(escapeHTML(content))</text>")
    }

    /// The elements `draw` adds, as a link to `anchor` (an element's id on the page): a click on the mark goes to
    /// its row in the table.
    mutating func link(to anchor: String, _ draw: (inout SVG) -> Void) {
        body.append("<a href=\"#\(escapeHTML(anchor))\">")
        draw(&self)
        body.append("</a>")
    }

    /// An element with its attributes (already escaped) and an optional tooltip.
    private mutating func element(_ name: String, _ attributes: String, title: String?) {
        if let title {
            body.append("<\(name) \(attributes)><title>\(escapeHTML(title))</title></\(name)>")
        } else {
            body.append("<\(name) \(attributes)/>")
        }
    }

    /// The drawing as markup.
    var markup: String {
        let size = "width=\"\(svgNumber(width))\" height=\"\(svgNumber(height))\""
        return "<svg id=\"\(escapeHTML(id))\" class=\"plot\" \(size) "
            + "viewBox=\"0 0 \(svgNumber(width)) \(svgNumber(height))\" role=\"img\" aria-label=\"\(escapeHTML(label))\" "
            + "font-family=\"system-ui, sans-serif\">\n" + body.joined(separator: "\n") + "\n</svg>"
    }
}
