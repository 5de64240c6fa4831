import Foundation
import OffstageCore
import Testing

@testable import OffstageCLI
@testable import OffstageSimulator

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The HTML report: its timeline model (states, runs, pushes, wakes, battery, energy, requests) is built from
/// what the run produced, and the page is self-contained, well-formed and escaped.
@Suite struct HTMLReportTests {
    /// The demo day, run to its end, with its report and HTML report.
    static func demo() throws -> (simulation: Simulation, report: RunReport, html: HTMLReport) {
        let simulation = try Simulation(scenario: try DemoScenario.load(), catalog: .bundled)
        let report = simulation.report()
        return (simulation, report, HTMLReport(report: report, simulation: simulation))
    }

    /// One declarative app that saves for 2 s on leaving the screen, opened at 1 min and left at 2 min.
    static func leavingApp(name: String = "states") throws -> (Simulation, RunReport) {
        let scenario = try ScenarioLoader.parse(
            yaml: """
                name: \(name)
                duration: 10m
                apps:
                  - manifest:
                      CFBundleIdentifier: com.example.app
                    behaviour:
                      onEnterBackground:
                        - backgroundTask: { name: save, work: 2s }
                timeline:
                  - { at: 1m, do: open com.example.app }
                  - { at: 2m, do: home }
                """, source: "states.yaml")
        let simulation = try Simulation(scenario: scenario)
        return (simulation, simulation.report())
    }

    static func instant(_ text: String) -> Instant { Instant(seconds: ScenarioSyntax.duration(text)!) }

    @Test func stateLanesFollowForegroundBackgroundSuspended() throws {
        let (simulation, report) = try Self.leavingApp()
        let html = HTMLReport(report: report, simulation: simulation)
        let states = try #require(html.timeline.apps.first).states
        #expect(states.map(\.state) == [.notRunning, .foreground, .background, .suspended])
        #expect(states.map(\.start) == [.zero, Instant(seconds: 60), Instant(seconds: 120), Instant(seconds: 122)])
        #expect(states.last?.end == Instant(seconds: 600))
        // Each segment ends where the next begins: the lane has no gap.
        #expect(zip(states, states.dropFirst()).allSatisfy { $0.end == $1.start })
        // In the demo too, where resuming for the user passes through the background in an instant: neighbours
        // always differ, and every lane covers the whole run.
        let (demoRun, _, demo) = try Self.demo()
        for lane in demo.timeline.apps {
            #expect(zip(lane.states, lane.states.dropFirst()).allSatisfy { $0.state != $1.state && $0.end == $1.start })
            #expect(lane.states.first?.start == .zero && lane.states.last?.end == demoRun.now)
        }
    }

    @Test func laneStatesMergeAnInstantsDetour() {
        let clock = WallClock(epochAtZero: 0)
        func state(_ at: Double, _ from: AppState, _ to: AppState) -> Record {
            Record(
                at: Instant(seconds: at), app: "com.example.app", kind: .state,
                detail: .stateChanged(from: from, to: to),
                on: clock)
        }
        let records = [
            state(10, .notRunning, .inactive), state(20, .inactive, .background), state(20, .background, .inactive),
            Record(
                at: Instant(seconds: 30), app: "com.example.app", kind: .suspended, detail: .suspendedWithoutWork,
                on: clock),
        ]
        let states = ReportTimeline.states(records, until: Instant(seconds: 40))
        #expect(states.map(\.state) == [.notRunning, .foreground, .suspended])
        #expect(states.map(\.start) == [0, 10, 30].map { Instant(seconds: $0) })
    }

    @Test func taskRunsAndExpirationsAppearOnTheTaskLane() throws {
        let (_, report, html) = try Self.demo()
        let photos = try #require(html.timeline.apps.first { $0.app == "com.example.photosync" })
        let upload = try #require(photos.runs.first { $0.identifier == "com.example.photosync.upload" })
        #expect(upload.kind == .processing)
        #expect(upload.start == Self.instant("22:30"))
        #expect(upload.expiredAt == Self.instant("22:40"))
        #expect(upload.outcome == .completed)
        // Every started record is one run on its app's lane.
        let runs = html.timeline.apps.reduce(0) { $0 + $1.runs.count }
        #expect(runs == report.records.filter { $0.kind == .started }.count)
        #expect(html.timeline.apps.flatMap(\.runs).allSatisfy { $0.start <= $0.end })
    }

    @Test func pushesShowArrivedHeldDeliveredAndDropped() throws {
        let (_, _, html) = try Self.demo()
        let pushes = try #require(html.timeline.apps.first { $0.app == "com.example.photosync" }).pushes
        #expect(pushes.arrived.map(\.at) == ["09:40", "19:00", "19:30"].map(Self.instant))
        #expect(pushes.delivered.map(\.at) == ["09:40", "22:30"].map(Self.instant))
        #expect(pushes.dropped.count == 1)  // the 19:00 push gives way to the 19:30 one
        #expect(pushes.held == [ReportTimeline.Span(start: Self.instant("19:00"), end: Self.instant("22:30"))])
    }

    @Test func wakeUpsAreTheMaintenanceWakes() throws {
        let (_, report, html) = try Self.demo()
        #expect(html.timeline.wakes.count == report.wakeUps)
        #expect(html.timeline.wakes.count > 0)
    }

    @Test func batterySeriesMatchesTheBattery() throws {
        let (simulation, _, html) = try Self.demo()
        let battery = html.timeline.battery
        #expect(battery.first == BatteryHistory.Sample(at: .zero, level: 0.82, isCharging: false))
        #expect(battery.last?.at == simulation.now)
        #expect(battery.last?.level == simulation.system.device.batteryLevel)
        #expect(zip(battery, battery.dropFirst()).allSatisfy { $0.at <= $1.at })
        // The timeline sets 48 % at noon: the curve drops straight down from where the level was.
        let noon = battery.filter { $0.at == Self.instant("12:00") }.map(\.level)
        #expect(noon.count >= 2 && noon.first! > 0.7 && noon.last! == 0.48)
        // On the charger from 22:30 to 07:00 the next day.
        #expect(
            html.timeline.charging == [ReportTimeline.Span(start: Self.instant("22:30"), end: Self.instant("1d 07:00"))]
        )
    }

    @Test func batteryHistoryKeepsJumpsAndThinsASteadyDrain() {
        var history = BatteryHistory()
        for minute in 0...60 {
            history.observe(
                .init(
                    at: Instant(seconds: Double(minute) * 60), level: 0.9 - Double(minute) * 0.0001, isCharging: false))
        }
        history.observe(.init(at: Instant(seconds: 3700), level: 0.5, isCharging: false))
        history.finish()
        let samples = history.samples
        #expect(samples.count < 10)
        // The step before the jump is kept, so the curve falls from where it was.
        #expect(samples.suffix(2).map(\.level) == [0.9 - 0.006, 0.5])
    }

    @Test func energyPerAppIsTheLedgerSplitForegroundAndBackground() throws {
        let (simulation, _, html) = try Self.demo()
        let totals = simulation.system.energy.totals
        #expect(html.timeline.energy.count == totals.count)
        for row in html.timeline.energy { #expect(row.energy == totals[row.consumer]) }
        #expect(html.timeline.energy.map(\.energy.total) == html.timeline.energy.map(\.energy.total).sorted(by: >))
    }

    @Test func requestTableListsEveryRequestWithWhyItWaited() throws {
        let (_, report, html) = try Self.demo()
        let requests = html.timeline.requests
        #expect(requests.count == report.records.filter { $0.kind == .submitted || $0.kind == .replaced }.count)
        let upload = try #require(requests.first { $0.identifier == "com.example.photosync.upload" })
        #expect(upload.outcome == .started && upload.endedAt == Self.instant("22:30"))
        #expect(upload.constraints.contains("externalPower") && upload.constraints.contains("criticalBattery"))
        #expect(upload.constraints.allSatisfy { !$0.contains(" ") })
        // Those still waiting say what blocks them now, as `explain` does.
        let waiting = requests.filter { $0.outcome == .waiting }
        #expect(waiting.count == report.pendingAtEnd.count)
        #expect(waiting.allSatisfy { !$0.blockersAtEnd.isEmpty })
        let page = html.html()
        #expect(page.contains("still waiting at the end") && page.contains("<span class=\"tag\">externalPower</span>"))
    }

    @Test func pixelColumnsKeepTheMostImportantStateInEachPixel() {
        let axis = TimeAxis(start: .zero, end: Instant(seconds: 86_400), clock: WallClock(epochAtZero: 0))
        // A day suspended with one second in the background at noon: that second keeps its pixel.
        let spans = [
            (start: Instant.zero, end: Instant(seconds: 43_200)),
            (start: Instant(seconds: 43_200), end: Instant(seconds: 43_201)),
            (start: Instant(seconds: 43_201), end: Instant(seconds: 86_400)),
        ]
        let runs = PixelColumns.runs(spans, on: axis, rank: { $0 == 1 ? 1 : 0 })
        #expect(runs.map(\.index) == [0, 1, 2])
        #expect(runs[1].to - runs[1].from == 1)
        #expect(runs.first?.from == 0 && runs.last?.to == Int(axis.width))
    }

    @Test func htmlIsSelfContainedWithEverySizedPlot() throws {
        let page = try Self.demo().html.html()
        for id in [
            "plot-states", "plot-tasks", "plot-device", "plot-events", "plot-battery", "plot-energy", "requests",
        ] {
            #expect(page.contains("id=\"\(id)\""), "missing \(id)")
        }
        #expect(!page.contains("http://") && !page.contains("https://"))
        for external in ["<script", "<link", "src=", "@import", "url("] { #expect(!page.contains(external)) }
        // The only links are to rows of the page itself.
        let links = page.components(separatedBy: "href=\"").dropFirst()
        #expect(!links.isEmpty && links.allSatisfy { $0.hasPrefix("#") })
        let svgs = Self.svgs(in: page)
        #expect(svgs.count == 6)
        for svg in svgs {
            #expect(
                svg.contains(" width=\"1200\"") && svg.contains(" height=\"") && svg.contains("viewBox=\"0 0 1200 "))
        }
    }

    @Test func everySVGIsWellFormedXML() throws {
        #if canImport(FoundationXML) || canImport(Darwin)
            for svg in Self.svgs(in: try Self.demo().html.html()) {
                let parser = XMLParser(data: Data(svg.utf8))
                #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
            }
        #endif
        let page = try Self.demo().html.html()
        for tag in ["section", "table", "details", "svg", "title"] {
            #expect(page.components(separatedBy: "<\(tag)").count == page.components(separatedBy: "</\(tag)>").count)
        }
    }

    @Test func textFromTheScenarioIsEscaped() throws {
        #expect(escapeHTML("<b>\"Tom\" & 'Jerry'</b>") == "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;")
        let (simulation, report) = try Self.leavingApp(name: "\"<script>alert(1)</script> & co\"")
        let page = HTMLReport(report: report, simulation: simulation).html()
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; co"))
        #expect(!page.contains("<script>"))
    }

    @Test func htmlOptionWritesTheReport() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("offstage-\(UUID()).html").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = await CLI.run(["demo", "--until", "2h", "--summary", "--html", path])
        #expect(outcome.error == nil && outcome.output.hasSuffix("HTML report written to \(path)\n"))
        let page = try String(contentsOfFile: path, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("id=\"plot-battery\""))
    }

    @Test func progressBarIsSilentWhenNotATerminal() {
        var written: [String] = []
        let silent = ProgressBar(label: "run", isTerminal: false) { written.append($0) }
        silent.update(0.5)
        silent.finish()
        #expect(written.isEmpty)
        let shown = ProgressBar(label: "run", isTerminal: true) { written.append($0) }
        shown.update(0.5)
        shown.finish()
        #expect(written.first == "\rrun [###############...............] 50%")
        #expect(written.last == "\r\u{1B}[2K")
    }

    /// The `<svg …>…</svg>` drawings of a page.
    static func svgs(in page: String) -> [String] {
        page.components(separatedBy: "<svg ").dropFirst().map {
            "<svg " + $0.components(separatedBy: "</svg>")[0] + "</svg>"
        }
    }
}
