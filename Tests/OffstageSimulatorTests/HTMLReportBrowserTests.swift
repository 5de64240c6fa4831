import Foundation
import OffstageCore
import Testing

@testable import OffstageCLI
@testable import OffstageSimulator

/// The demo's HTML report in a real browser: headless Chromium lays it out, and every plot has a size on
/// screen. Skipped where Chromium is not installed (`.ci/run` installs it).
@Suite struct HTMLReportBrowserTests {
    static let plots = ["plot-states", "plot-tasks", "plot-device", "plot-events", "plot-battery", "plot-energy"]

    @Test(
        .enabled(
            if: Chromium.path != nil,
            "Chromium is not installed (looked for chromium, chromium-browser, google-chrome on PATH): skipped"),
        .timeLimit(.minutes(3)))
    func demoReportRendersEveryPlotInChromium() throws {
        let chromium = try #require(Chromium.path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("offstage-browser-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = try HTMLReportTests.demo().html.html()

        // Each plot's rendered box.
        let sizes = try Chromium.probe(
            chromium, page: page,
            lines: """
                [...document.querySelectorAll('svg.plot')].map(svg => {
                  const box = svg.getBoundingClientRect();
                  return svg.id + ' ' + Math.round(box.width) + ' ' + Math.round(box.height);
                })
                """, in: directory)
        var rendered: [String: (width: Int, height: Int)] = [:]
        for line in sizes.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 3, let width = Int(parts[1]), let height = Int(parts[2]) {
                rendered[String(parts[0])] = (width, height)
            }
        }
        for id in Self.plots {
            let size = try #require(rendered[id], "plot \(id) is not on the rendered page")
            #expect(size.width == 1200 && size.height > 50, "plot \(id) renders at \(size.width)×\(size.height)")
        }

        // A screenshot of the report itself: a PNG of the window's size, with more than a blank page's bytes.
        let report = directory.appendingPathComponent("report.html")
        try Data(page.utf8).write(to: report)
        let screenshot = directory.appendingPathComponent("report.png")
        _ = try Chromium.run(
            chromium,
            ["--screenshot=\(screenshot.path)", "--window-size=1400,3000", "--hide-scrollbars", report.absoluteString],
            in: directory)
        let png = try Data(contentsOf: screenshot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 50_000, "the screenshot has only \(png.count) bytes")
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1400 && height == 3000)
    }
}

extension HTMLReportBrowserTests {
    /// What a person looks at to answer "why did my task wait?", as Chromium lays it out: the device lanes each
    /// labelled, in the left margin, one below the other; the plots stacked without overlapping; every task
    /// bar's link leading to a row of the request table.
    @Test(
        .enabled(if: Chromium.path != nil, "Chromium is not installed: skipped"), .timeLimit(.minutes(3)))
    func deviceLanesAreLabelledAndNothingOverlapsInChromium() throws {
        let chromium = try #require(Chromium.path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("offstage-browser-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = try HTMLReportTests.demo().html.html()
        let text = try Chromium.probe(
            chromium, page: page,
            lines: """
                (() => {
                const lines = [];
                const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom].map(Math.round).join(' '); };
                for (const svg of document.querySelectorAll('svg.plot')) lines.push('plot ' + svg.id + ' ' + box(svg));
                const device = document.getElementById('plot-device');
                for (const text of device.querySelectorAll('text[text-anchor="end"]')) lines.push('label ' + box(text) + ' ' + [...text.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join(''));
                for (const rect of device.querySelectorAll('rect')) lines.push('lane ' + box(rect));
                const links = [...document.querySelectorAll('#plot-tasks a')];
                const broken = links.filter(a => !document.getElementById(a.getAttribute('href').slice(1)));
                lines.push('links ' + links.length + ' ' + broken.length);
                lines.push('groups ' + document.querySelectorAll('#requests tr.group').length);
                return lines;
                })()
                """, in: directory)
        typealias Box = (left: Int, top: Int, right: Int, bottom: Int)
        func box(_ parts: ArraySlice<Substring>) -> Box? {
            let numbers = parts.prefix(4).compactMap { Int($0) }
            return numbers.count == 4 ? (numbers[0], numbers[1], numbers[2], numbers[3]) : nil
        }
        var plots: [(String, Box)] = []
        var labels: [(String, Box)] = []
        var lanes: [Box] = []
        var links = (count: 0, broken: -1)
        var groups = 0
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            switch parts.first {
            case "plot": if let b = box(parts.dropFirst(2)) { plots.append((String(parts[1]), b)) }
            case "label":
                if let b = box(parts.dropFirst()) { labels.append((parts.dropFirst(5).joined(separator: " "), b)) }
            case "lane": if let b = box(parts.dropFirst()) { lanes.append(b) }
            case "links": links = (Int(parts[1]) ?? 0, Int(parts[2]) ?? -1)
            case "groups": groups = Int(parts[1]) ?? 0
            default: break
            }
        }
        // Every plot on the page, each below the one before: none overlaps another.
        #expect(Set(plots.map(\.0)).isSuperset(of: Self.plots))
        for (upper, lower) in zip(plots, plots.dropFirst()) {
            #expect(upper.1.bottom <= lower.1.top, "\(upper.0) overlaps \(lower.0)")
        }
        // The device lanes, each labelled in the margin, labels one below the other, left of the lanes.
        let names = [
            "screen and lock", "idle window", "charger", "network", "Low Power Mode", "Low Data Mode", "thermal state",
        ]
        #expect(labels.map(\.0) == names)
        for (upper, lower) in zip(labels, labels.dropFirst()) {
            #expect(upper.1.bottom <= lower.1.top, "the labels \(upper.0) and \(lower.0) overlap")
        }
        let laneLeft = lanes.map(\.left).min() ?? 0
        #expect(labels.allSatisfy { $0.1.right <= laneLeft && $0.1.right > $0.1.left }, "a label runs into the lanes")
        // Lane rectangles sit in rows that do not overlap: any two either share their row or are apart.
        let rows = Set(lanes.map { [$0.top, $0.bottom] }).sorted { $0[0] < $1[0] }
        #expect(rows.count == names.count, "\(rows)")
        for (upper, lower) in zip(rows, rows.dropFirst()) { #expect(upper[1] <= lower[0]) }
        // Task bars link to request rows, and the rows are grouped by app.
        #expect(links.count > 5 && links.broken == 0, "\(links)")
        #expect(groups == 3)
    }
}

/// Headless Chromium for the browser test: where it is, and one bounded run of it.
enum Chromium {
    /// The first of chromium, chromium-browser or google-chrome on PATH; nil if none.
    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in directories {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The lines the JavaScript expression `lines` (an array of strings) gives once Chromium has laid out `page`:
    /// a script appended to the page writes them into the DOM, which `--dump-dom` prints.
    static func probe(_ path: String, page: String, lines: String, in directory: URL) throws -> String {
        let script = """
            <script>
            const probed = document.createElement('pre');
            probed.id = 'probe';
            probed.textContent = (\(lines)).join('\\n');
            document.body.appendChild(probed);
            </script>
            </body>
            """
        let file = directory.appendingPathComponent("probed-\(UUID()).html")
        try Data(page.replacingOccurrences(of: "</body>", with: script).utf8).write(to: file)
        let dom = try run(path, ["--dump-dom", file.absoluteString], in: directory)
        guard
            let text = dom.components(separatedBy: "<pre id=\"probe\">").dropFirst().first?
                .components(separatedBy: "</pre>").first
        else { throw Failure(description: "the probe wrote nothing: \(dom.prefix(200))") }
        return text
    }

    /// Runs headless Chromium with `arguments` (its own profile in `directory`) and returns what it printed;
    /// kills it and fails if it has not finished within `timeout` seconds.
    static func run(_ path: String, _ arguments: [String], in directory: URL, timeout: Double = 60) throws -> String {
        let output = directory.appendingPathComponent("chromium-\(UUID()).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
            ] + arguments
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        guard finished.wait(timeout: .now() + timeout) == .success else {
            process.terminate()
            throw Failure(description: "chromium did not finish within \(Int(timeout)) s: \(arguments)")
        }
        guard process.terminationStatus == 0 else {
            throw Failure(description: "chromium exited with status \(process.terminationStatus): \(arguments)")
        }
        return try String(contentsOf: output, encoding: .utf8)
    }
}
