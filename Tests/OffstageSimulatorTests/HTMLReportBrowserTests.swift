import Foundation
import OffstageCore
import Testing

@testable import OffstageCLI
@testable import OffstageSimulator

/// The demo's HTML report in a real browser: headless Chromium lays it out, and every plot has a size on
/// screen. Skipped where Chromium is not installed (`.ci/run` installs it).
@Suite struct HTMLReportBrowserTests {
    static let plots = ["plot-states", "plot-tasks", "plot-events", "plot-battery", "plot-energy"]

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

        // The page with a probe that writes each plot's rendered box into the DOM, which --dump-dom prints.
        let probe = """
            <script>
            const boxes = [...document.querySelectorAll('svg.plot')].map(svg => {
              const box = svg.getBoundingClientRect();
              return svg.id + ' ' + Math.round(box.width) + ' ' + Math.round(box.height);
            });
            const out = document.createElement('pre');
            out.id = 'rendered-sizes';
            out.textContent = boxes.join('\\n');
            document.body.appendChild(out);
            </script>
            </body>
            """
        let probed = directory.appendingPathComponent("probed.html")
        try Data(page.replacingOccurrences(of: "</body>", with: probe).utf8).write(to: probed)
        let dom = try Chromium.run(chromium, ["--dump-dom", probed.absoluteString], in: directory)
        let sizes = try #require(
            dom.components(separatedBy: "<pre id=\"rendered-sizes\">").dropFirst().first?
                .components(separatedBy: "</pre>").first)
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
