import Foundation
import OffstageCore
import Testing

@testable import OffstageCLI
@testable import OffstageSimulator

/// What a newcomer meets on the command line (issue 17): no crash on odd input, no flag ignored, outputs checked
/// before the work, errors that name what is wrong.
@Suite struct CLITests {
    static let oneRowTrace = "user,timestamp,app,event\nann,2026-11-23T07:30:00+01:00,com.example.news,opened\n"

    // MARK: No crash on odd numbers

    @Test func evaluatingATraceOfOneRowPrintsNeverInsteadOfCrashing() async throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("one.csv").path
        try Self.oneRowTrace.write(toFile: trace, atomically: true, encoding: .utf8)
        let json = folder.appendingPathComponent("out.json").path
        let outcome = await CLI.run(["evaluate", "--trace", trace, "--json", json])
        #expect(outcome.error == nil)
        #expect(outcome.output.contains("never"))
        #expect(FileManager.default.fileExists(atPath: json))
    }

    @Test func evaluatingAGeneratedTraceOfOneUserDayWithThirtyAppsWorks() async throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("g.csv").path
        let generated = await CLI.run(
            ["trace", "generate", "--users", "1", "--days", "1", "--apps", "30", "--seed", "1", "-o", trace])
        #expect(generated.error == nil)
        #expect(generated.output.hasPrefix("Trace written to \(trace): 1 user, 1 day, 30 apps,"))
        let outcome = await CLI.run(["evaluate", "--trace", trace])
        #expect(outcome.error == nil)
        // The day's last session may end after midnight: the replay then covers a second local day.
        #expect(outcome.output.contains("Evaluation of \(trace): 1 user, "))
        #expect(outcome.output.split(separator: "\n").contains { $0.hasPrefix("Offstage ") })
    }

    @Test func evaluateOnlyRunsTheStandardPoliciesNamed() async throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("g.csv").path
        _ = await CLI.run(["trace", "generate", "--users", "1", "--days", "1", "--seed", "2", "-o", trace])
        let outcome = await CLI.run(["evaluate", "--trace", trace, "--only", "Offstage", "--only", "fixed 1 h"])
        #expect(outcome.error == nil)
        let names = outcome.output.split(separator: "\n").map { String($0).components(separatedBy: "  ")[0] }
        #expect(names.contains("Offstage") && names.contains("fixed 1 h"))
        #expect(!names.contains("fixed 15 min") && !names.contains("oracle"))
        let wrong = await CLI.run(["evaluate", "--trace", trace, "--only", "fixed 2 h"])
        #expect(wrong.error?.contains("--only: no standard policy is named \"fixed 2 h\"") == true)
    }

    @Test func theGeneratorsNumbersAreOptionsCheckedByName() async throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("g.csv").path
        let base = ["trace", "generate", "--users", "2", "--days", "3", "--seed", "4", "-o", trace]
        let plain = await CLI.run(base + ["--reopen-chance", "0", "--glances-per-day", "0"])
        #expect(plain.error == nil)
        let stats = TraceStatistics(try TraceLoader.load(contentsOf: trace))
        let usual = TraceStatistics(TraceGenerator.generate(TraceModel(users: 2, days: 3, apps: 10, seed: 4)))
        #expect(stats.reopenShare < usual.reopenShare)
        #expect(stats.glances < usual.glances)
        // The statistics are printed with the file.
        #expect(plain.output.contains("re-opens:            \(Evaluation.percent(stats.reopenShare, digits: 1))"))
        let bad = await CLI.run(base + ["--notification-open-chance", "1.5"])
        #expect(bad.error?.contains("--notification-open-chance: expected a number from 0 to 1, got 1.5") == true)
    }

    @Test func ageOfNeverRefreshedContentIsNeverAndFiguresSurviveNaN() {
        #expect(RunReport.age(.infinity) == "never")
        #expect(RunReport.age(.nan) == "never")
        #expect(RunReport.age(3_900) == "1h05m")
        #expect(Figures.percent(.nan) == "—")
        #expect(Figures.percent(0.426) == "43%")
        #expect(Figures.filled(-3, of: 30) == 0 && Figures.filled(.infinity, of: 30) == 30)
        #expect(BatteryReport.sparkline([.infinity, 1]) == "  ")
    }

    // MARK: Every flag honoured, or refused

    @Test func whyWithHTMLJSONAndBatteryHonoursEveryOne() async throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = folder.appendingPathComponent("r.html").path
        let json = folder.appendingPathComponent("r.json").path
        let outcome = await CLI.run([
            "demo", "--until", "10h", "--why", "com.colorfeed.wwdc25.appRefresh", "--html", html, "--json", json,
            "--battery",
        ])
        #expect(outcome.error == nil)
        #expect(outcome.output.hasPrefix("Why [com.colorfeed.wwdc25.appRefresh]"))
        #expect(outcome.output.contains("Battery"))
        #expect(!outcome.output.contains("Summary of"))
        #expect(FileManager.default.fileExists(atPath: html) && FileManager.default.fileExists(atPath: json))
    }

    @Test func conflictingFlagsAreErrorsThatNameBoth() async {
        let both = await CLI.run(["demo", "--summary", "--verbose"])
        #expect(both.error?.hasPrefix("Error: --summary prints no timeline, and --verbose") == true)
        #expect(both.exitCode != 0)
        let printing = await CLI.run(["demo", "--print-scenario", "--summary", "--html", "/tmp/x.html"])
        #expect(
            printing.error?.contains("--print-scenario prints the scenario and runs nothing, so --summary, --html")
                == true)
        #expect(printing.output.isEmpty)
        let why = await CLI.run(["demo", "--why", "x", "--summary"])
        #expect(why.error?.contains("drop --summary") == true)
        let same = await CLI.run(["demo", "--json", "/tmp/same-\(UUID())", "--html", "/tmp/same-x"])
        #expect(same.error == nil || same.error?.contains("both name") == false)
        let twice = await CLI.run(["demo", "--json", "/tmp/same", "--html", "/tmp/same"])
        #expect(twice.error?.contains("--json and --html both name /tmp/same") == true)
    }

    @Test func printScenarioAloneStillPrintsTheDemo() async {
        let outcome = await CLI.run(["demo", "--print-scenario"])
        #expect(outcome.error == nil && outcome.output.contains("name: A day on a phone with ColorFeed"))
    }

    // MARK: Outputs checked before the work

    @Test func unwritableOutputsFailBeforeAnythingRuns() async throws {
        for (arguments, option) in [
            (["demo", "--html", "/nonexistent/dir/x.html"], "--html"),
            (["demo", "--json", "/nonexistent/dir/x.json"], "--json"),
            (["trace", "generate", "-o", "/nonexistent/dir/t.csv"], "-o"),
            (["evaluate", "--trace", "/nonexistent/t.csv", "--json", "/nonexistent/dir/e.json"], "--json"),
            (["evaluate", "merge", "a.json", "--json", "/nonexistent/dir/e.json"], "--json"),
        ] {
            let outcome = await CLI.run(arguments)
            let path = arguments[arguments.firstIndex(of: option)! + 1]
            #expect(
                outcome.error?.hasPrefix("Error: \(option): cannot write \(path): the folder /nonexistent") == true,
                "\(arguments): \(outcome.error ?? "no error")")
            #expect(outcome.output.isEmpty, "\(arguments) worked before failing")
        }
        let folder = await CLI.run(["demo", "--html", "/tmp"])
        #expect(folder.error?.hasPrefix("Error: --html: cannot write /tmp: it is a folder") == true)
    }

    // MARK: The daemon is a separate executable

    @Test func daemonWithoutItsExecutableSaysHowToBuildIt() throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let message = DaemonExecutable.replaceThisProcess(arguments: ["--help"], folder: folder.path)
        #expect(message.contains("\(folder.path)/offstage-daemon is not there"))
        #expect(message.contains("swift build --product offstage-daemon") && message.contains("libsqlite3-dev"))
    }

    // MARK: Errors that help

    @Test func aFolderOrDevNullAsScenarioIsNamedAsSuch() async {
        let folder = await CLI.run(["simulate", "/tmp"])
        #expect(folder.error == "Error: /tmp: is a folder, not a scenario file (a YAML file like demo.yaml)")
        let null = await CLI.run(["simulate", "/dev/null"])
        #expect(null.error == "Error: /dev/null:1: the scenario is empty: it needs at least 'name:'")
    }

    @Test func scenarioErrorsNameTheLineOfAnUnknownCodeAndCallLargeSizesTooLarge() async throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let code = folder.appendingPathComponent("code.yaml").path
        try "name: x\napps:\n  - code: Nope\n    manifest: { CFBundleIdentifier: a.b }\n".write(
            toFile: code, atomically: true, encoding: .utf8)
        #expect(
            await CLI.run(["simulate", code]).error
                == "Error: \(code):3: field 'apps[0].code': no Swift app named 'Nope' in this host (known: "
                + SwiftAppCatalog.bundled.apps.keys.sorted().joined(separator: ", ") + ")")
        let big = folder.appendingPathComponent("big.yaml").path
        try "name: x\napps:\n  - memory: 99999999999TB\n    manifest: { CFBundleIdentifier: a.b }\n".write(
            toFile: big, atomically: true, encoding: .utf8)
        #expect(
            await CLI.run(["simulate", big]).error
                == "Error: \(big):3: field 'apps[0].memory': \"99999999999TB\" is too large (expected a size like 120MB)"
        )
    }

    @Test func mistypedManifestKeysAndUnknownModesAreWarnedWithTheNearestName() async throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("modes.yaml").path
        try """
        name: x
        duration: 1h
        apps:
          - manifest:
              CFBundleIdentifier: a.b
              UIBackgroundMode: [fetch]
              UIBackgroundModes: [fetchh, audio]
              CFBundleName: A
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let outcome = await CLI.run(["simulate", file, "--summary"])
        #expect(outcome.error == nil)
        let lines = outcome.warnings.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(
            lines.first
                == "warning: \(file):6: field 'apps[0].manifest.UIBackgroundMode': unknown Info.plist key "
                + "'UIBackgroundMode': did you mean 'UIBackgroundModes'? (Offstage ignores 'UIBackgroundMode')")
        #expect(
            lines.last?.contains(
                ":7: field 'apps[0].manifest.UIBackgroundModes[0]': unknown background mode 'fetchh': did you mean 'fetch'?"
            ) == true)
    }

    @Test func mistypedKeysInAnInfoPlistFileAreWarnedNamingThatFile() async throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = folder.appendingPathComponent("Info.plist").path
        let keys: [String: Any] = [
            "CFBundleIdentifier": "a.b", "BGTaskSchedulerPermitedIdentifiers": ["a.b.refresh"],
        ]
        try PropertyListSerialization.data(fromPropertyList: keys, format: .xml, options: 0).write(
            to: URL(fileURLWithPath: plist))
        let file = folder.appendingPathComponent("s.yaml").path
        try "name: x\nduration: 1h\napps:\n  - plist: Info.plist\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let outcome = await CLI.run(["simulate", file, "--summary"])
        #expect(
            outcome.warnings
                == "warning: \(plist): field 'BGTaskSchedulerPermitedIdentifiers': unknown Info.plist key "
                + "'BGTaskSchedulerPermitedIdentifiers': did you mean 'BGTaskSchedulerPermittedIdentifiers'? "
                + "(Offstage ignores 'BGTaskSchedulerPermitedIdentifiers')\n")
    }

    @Test func untilZeroIsCalledTooShortNotMalformed() async {
        let outcome = await CLI.run(["demo", "--until", "0s"])
        #expect(outcome.error?.hasPrefix("Error: --until: \"0s\" would end the run where it starts") == true)
        #expect(outcome.error?.contains("Usage: offstage demo") == true)
        let malformed = await CLI.run(["demo", "--until", "soon"])
        #expect(malformed.error?.hasPrefix("Error: --until: expected a duration from the start like 2h") == true)
        let before = await CLI.run(["demo", "--until", "2020-01-01 00:00:00Z"])
        #expect(
            before.error
                == "Error: --until: 2020-01-01 00:00:00Z is not after the scenario's start, 2026-11-21 00:00:00Z")
    }

    @Test func untilTakesATimeInTheTimelinesOwnNotation() async {
        let outcome = await CLI.run(["demo", "--until", "2026-11-21 08:30:00Z"])
        #expect(outcome.error == nil)
        let times = outcome.output.components(separatedBy: "\n").prefix { !$0.isEmpty }.map { String($0.prefix(20)) }
        #expect(
            times.last.map { $0 <= "2026-11-21 08:30:00Z" && $0 >= "2026-11-21 08:00:00Z" } == true,
            "\(times.last ?? "")")
        #expect(!outcome.output.contains("day 1"))
    }

    @Test func datesInYearOneArePrintedWithFourDigits() async throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("year1.yaml").path
        try "name: x\nstart: 0001-01-01T00:00:00Z\nduration: 1h\ntimeline:\n - {at: \"00:10\", do: unlock}\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let outcome = await CLI.run(["simulate", file])
        #expect(outcome.output.hasPrefix("0001-01-01 00:10:00Z  system"), "\(outcome.output)")
        #expect(WallClock(epochAtZero: -62_135_596_800 - 86_400 * 366).timestamp(at: .zero) == "0000-01-01 00:00:00Z")
    }

    @Test func badDeviceReadingIsAnsweredWithTheSubcommandsUsage() async {
        let outcome = await CLI.run(["ctl", "device", "set", "battery=banana", "--socket", "/nonexistent/s"])
        #expect(outcome.error?.hasPrefix("Error: battery: 'banana' is not a level between 0 and 1") == true)
        #expect(outcome.error?.contains("Usage: offstage ctl device set") == true)
        let setting = await CLI.run(["ctl", "settings", "low-power=maybe", "--socket", "/nonexistent/s"])
        #expect(setting.error?.contains("Usage: offstage ctl settings") == true)
    }

    @Test func evaluateHelpShowsTheTraceOption() async {
        let help = await CLI.run(["evaluate", "--help"])
        #expect(help.error?.contains("--trace <trace>") == true)
        #expect(help.error?.contains("merge") == true)
        let missing = await CLI.run(["evaluate"])
        #expect(missing.error?.hasPrefix("Error: --trace: give the usage trace") == true)
    }
}
