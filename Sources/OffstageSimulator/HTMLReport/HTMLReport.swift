public import OffstageCore

/// The report a developer opens after a run: one self-contained HTML page (inline CSS and SVG, no script, no
/// network) in the spirit of Android's Battery Historian — app state lanes, task runs, wake-ups and pushes,
/// the battery, energy per app and every request with why it waited, on one shared time axis.
public struct HTMLReport: Sendable {
    public var report: RunReport
    public var timeline: ReportTimeline
    public var battery: BatteryReport
    /// Whether the time axis shows a window of the run (`--from`/`--to`) rather than all of it.
    public var isWindow = false

    /// The report of a finished simulation (`report` is what `Simulation.report` returned); `from` and `to` show
    /// a window of a long run (clamped to the run).
    public init(report: RunReport, simulation: Simulation, from: Instant? = nil, to: Instant? = nil) {
        let battery = BatteryReport(system: simulation.system)
        let end = min(to ?? simulation.now, simulation.now)
        var timeline = ReportTimeline(
            report: report, start: min(max(from ?? .zero, .zero), end), end: end,
            battery: simulation.batteryHistory.samples, energy: battery)
        timeline.device = simulation.deviceHistory.readings
        timeline.attach(simulation.taskUsage)
        self.init(report: report, timeline: timeline, battery: battery)
        isWindow = timeline.start > .zero || timeline.end < simulation.now
    }

    public init(report: RunReport, timeline: ReportTimeline, battery: BatteryReport) {
        self.report = report
        self.timeline = timeline
        self.battery = battery
    }

    /// The page.
    public func html() -> String {
        let axis = TimeAxis(start: timeline.start, end: timeline.end, clock: timeline.clock)
        let scenario = report.scenario
        let sections = [
            section(
                "App states",
                "What each app was doing: on screen, running in the background, suspended or not running.",
                StatePlot.legend, StatePlot(timeline: timeline, axis: axis).svg.markup),
            section(
                "Background tasks", "Each task run from its start to its end; the system's expirations and kills.",
                TaskPlot.legend, TaskPlot(timeline: timeline, axis: axis).svg.markup),
            section(
                "Device", "What the scheduler's constraints read: a deferral's blockers lift where these lanes change.",
                DevicePlot.legend,
                DevicePlot(
                    timeline: timeline, axis: axis,
                    lanes: DeviceLanes(
                        readings: timeline.device, end: timeline.end, idleDelay: scenario.policy.deviceIdleDelay)
                ).svg.markup),
            section(
                "Wake-ups and pushes",
                "When the system woke the sleeping device for background work, and each app's background pushes.",
                EventPlot.legend, EventPlot(timeline: timeline, axis: axis).svg.markup),
            section(
                "Battery", "The simulated battery's level; the time on the charger is shaded.", BatteryPlot.legend,
                BatteryPlot(timeline: timeline, axis: axis, criticalLevel: scenario.policy.criticalBatteryLevel).svg
                    .markup),
            section(
                "Energy per app",
                "Every joule of the run, by who used it, on screen or in the background"
                    + (isWindow ? " (the whole run, not only the window)." : "."),
                EnergyPlot.legend, EnergyPlot(timeline: timeline, battery: battery).svg.markup),
            section(
                "Task requests", "Every request submitted, how long it waited, and why.", [],
                RequestTable(timeline: timeline, axis: axis).markup),
        ]
        let facts = [
            ("scenario", scenario.name), ("source", scenario.source), ("seed", "\(scenario.seed)"),
            ("from", axis.moment(timeline.start)),
            ("to", axis.moment(timeline.end)), ("records", "\(report.records.count)"),
            ("maintenance wakes", "\(report.wakeUps)"),
            ("battery at the end", battery.percent(battery.level, digits: 0)),
        ]
        let factList = facts.map { "<dt>\(escapeHTML($0.0))</dt><dd>\(escapeHTML($0.1))</dd>" }.joined()
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Offstage report: \(escapeHTML(scenario.name))</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <h1>Offstage report: \(escapeHTML(scenario.name))</h1>
            <dl class="facts">\(factList)</dl>
            \(sections.joined(separator: "\n"))
            <section><h2>Summary</h2><details><summary>The text summary, as <code>offstage --summary</code> prints it</summary><pre>\(escapeHTML(report.summary()))</pre></details></section>
            <footer>Times are the scenario's wall clock (UTC). Hover over a mark for its record.</footer>
            </body>
            </html>

            """
    }

    /// One section: a heading, a sentence, the legend and the drawing (or table).
    private func section(
        _ title: String, _ description: String, _ legend: [(color: String, name: String)], _ content: String
    ) -> String {
        let items = legend.map {
            "<li><span class=\"swatch\" style=\"background:\($0.color)\"></span>\(escapeHTML($0.name))</li>"
        }
        let legendMarkup = items.isEmpty ? "" : "<ul class=\"legend\">\(items.joined())</ul>"
        return
            "<section><h2>\(escapeHTML(title))</h2><p>\(escapeHTML(description))</p>\(legendMarkup)\n\(content)</section>"
    }

    /// The page's whole style sheet.
    static let style = """
        body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #222; \
        background: #fff; }
        h1 { font-size: 22px; margin: 0 0 8px; }
        h2 { font-size: 17px; margin: 28px 0 4px; }
        p { margin: 2px 0 6px; color: #444; }
        .facts { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; font-size: 13px; }
        .facts dt { color: #666; }
        .facts dd { margin: 0; }
        .legend { list-style: none; padding: 0; margin: 4px 0 8px; display: flex; flex-wrap: wrap; gap: 4px 16px; \
        font-size: 12px; }
        .swatch { display: inline-block; width: 12px; height: 12px; margin-right: 5px; vertical-align: -1px; \
        border: 1px solid #0002; }
        svg.plot { display: block; max-width: none; }
        table { border-collapse: collapse; font-size: 12px; width: 1200px; }
        th, td { border-bottom: 1px solid #ddd; padding: 4px 6px; text-align: left; vertical-align: top; }
        th { background: #f5f5f5; }
        tr.waiting td { background: #fff8e1; }
        tr.group th { background: #e8eaf6; font-size: 13px; }
        tr:target td { outline: 2px solid #5d4037; }
        .tag { display: inline-block; background: #eceff1; border-radius: 3px; padding: 0 4px; margin: 1px 0; \
        font-family: ui-monospace, monospace; }
        .note { color: #888; }
        details ul { margin: 4px 0; padding-left: 18px; }
        pre { font-size: 12px; overflow-x: auto; }
        footer { margin-top: 24px; font-size: 12px; color: #666; }
        """
}
