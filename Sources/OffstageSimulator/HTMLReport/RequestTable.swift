import OffstageCore

/// The table of every task request submitted in the run: when, how long it waited, how the wait ended, and
/// why it waited — the constraints that held it back, every deferral with its time (the history `--why`
/// prints), and for a request still waiting, what blocks it at the end. Data: `ReportTimeline.requests`.
struct RequestTable {
    static let id = "requests"
    /// Deferrals listed per request; a long wait's rest is one `--why` away.
    static let deferralsShown = 40

    let timeline: ReportTimeline
    let axis: TimeAxis

    /// The id of the table row of `timeline.requests[index]`, which task bars and wakes link to.
    static func rowID(_ index: Int) -> String { "request-\(index)" }

    var markup: String {
        guard !timeline.requests.isEmpty else {
            return "<p id=\"\(Self.id)\" class=\"note\">No task request was submitted in this run.</p>"
        }
        let header = [
            "request", "kind", "submitted", "waited", "beyond its earliest begin date", "outcome", "the run used",
            "why it waited",
        ]
        var rows: [String] = []
        // Grouped by app, in the scenario's order; within an app, by submission.
        let order = timeline.apps.map(\.app)
        let groups = Dictionary(grouping: timeline.requests.indices) { timeline.requests[$0].app }
        for app in order + groups.keys.filter({ !order.contains($0) }).sorted() {
            guard let indices = groups[app] else { continue }
            let waiting = indices.filter { timeline.requests[$0].outcome == .waiting }.count
            rows.append(
                "<tr class=\"group\"><th colspan=\"\(header.count)\">\(escapeHTML(app.rawValue)): "
                    + "\(indices.count) request\(indices.count == 1 ? "" : "s")"
                    + (waiting > 0 ? ", \(waiting) still waiting at the end" : "") + "</th></tr>")
            for index in indices {
                let wait = timeline.requests[index]
                let cells = [
                    "<code>\(escapeHTML(wait.identifier))</code>", escapeHTML(Palette.name(wait.kind)),
                    escapeHTML(axis.moment(wait.submittedAt)), escapeHTML(Self.duration(wait.waited)),
                    escapeHTML(Self.duration(wait.delayedBeyondEarliestBegin)), outcome(wait),
                    escapeHTML(timeline.run(startedBy: wait)?.usage?.text ?? ""), why(wait),
                ]
                rows.append(
                    "<tr id=\"\(Self.rowID(index))\" class=\"\(wait.outcome.rawValue)\">"
                        + cells.map { "<td>\($0)</td>" }.joined() + "</tr>")
            }
        }
        let headings = header.map { "<th>\($0)</th>" }.joined()
        return "<table id=\"\(Self.id)\"><thead><tr>\(headings)</tr></thead><tbody>\n"
            + rows.joined(separator: "\n") + "\n</tbody></table>"
    }

    /// How the wait ended, and when.
    private func outcome(_ wait: RequestWait) -> String {
        switch wait.outcome {
        case .started: "started \(escapeHTML(axis.moment(wait.endedAt)))"
        case .replaced: "replaced by a new request \(escapeHTML(axis.moment(wait.endedAt)))"
        case .cancelled: "cancelled \(escapeHTML(axis.moment(wait.endedAt)))"
        case .waiting: "<strong>still waiting at the end</strong>"
        }
    }

    /// The constraints as tags, what blocks a waiting request now, and every deferral in a disclosure.
    private func why(_ wait: RequestWait) -> String {
        var parts: [String] = []
        let names = wait.constraints
        if names.isEmpty, wait.blockersAtEnd.isEmpty {
            parts.append("<span class=\"note\">nothing held it back</span>")
        }
        parts.append(names.map { "<span class=\"tag\">\(escapeHTML($0))</span>" }.joined(separator: " "))
        if !wait.blockersAtEnd.isEmpty {
            parts.append(
                "<div>now: " + wait.blockersAtEnd.map(escapeHTML).joined(separator: "; ") + "</div>")
        }
        if !wait.deferrals.isEmpty {
            var items = wait.deferrals.prefix(Self.deferralsShown).map {
                "<li>\(escapeHTML(axis.moment($0.at))): \(escapeHTML($0.reason))</li>"
            }
            let count = wait.deferrals.count
            if count > Self.deferralsShown {
                items.append(
                    "<li>… and \(count - Self.deferralsShown) more: <code>--why \(escapeHTML(wait.identifier))</code> "
                        + "lists them all</li>")
            }
            parts.append(
                "<details><summary>\(count) deferral\(count == 1 ? "" : "s")</summary><ul>" + items.joined()
                    + "</ul></details>")
        }
        return parts.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// "12 s" under a minute, else the short age of the text summary ("3m", "1h05m", "2d3h").
    static func duration(_ seconds: Double) -> String {
        seconds < 60 ? "\(Int(seconds.rounded())) s" : RunReport.age(seconds)
    }
}
