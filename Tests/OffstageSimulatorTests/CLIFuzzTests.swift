import Foundation
import Testing

@testable import OffstageCLI
@testable import OffstageSimulator

/// Random command lines, scenario files and traces through `offstage` in-process (issue 17): a crash would end the
/// test process, so finishing is the finding; each run must also end in output or an error that says something.
/// Seeded, so a failure comes back the same way. Every file (good, damaged, not a file) reaches its command once
/// with options that parse; the random lines then mix commands, options and odd values. A case costs about 20 ms
/// of parsing in a debug build (ArgumentParser) and up to a few hundred of work: 2 000 random cases took 94 s of
/// CPU, more than 10 minutes at a load of 16 on the project's 2 cores; 400 draw every choice of the generator
/// (its branches, options, odd values) many times over.
@Suite struct CLIFuzzTests {
    static let randomCases = 400

    @Test(.timeLimit(.minutes(10))) func randomCommandLinesNeverCrash() async throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var random = SeededRandom(seed: 17)
        let files = try FuzzFiles(in: folder, random: &random)
        let commands =
            FuzzCommand.everyFile(files)
            + (0..<Self.randomCases).map { _ in FuzzCommand.make(files: files, random: &random) }
        // One at a time on a thread of its own (the evaluations' task groups too, which inherit it): on the shared
        // cooperative pool each case waited behind the whole suite's queued tests, so in a full run this test
        // ended with the suite, past its time limit on a loaded machine.
        let executor = ThreadTaskExecutor(name: "offstage-cli-fuzz")
        defer { executor.finish() }
        let outcomes = await withTaskExecutorPreference(executor) {
            var outcomes: [(Int, CLI.Outcome)] = []
            for (index, arguments) in commands.enumerated() { outcomes.append((index, await CLI.run(arguments))) }
            return outcomes
        }
        var succeeded = 0
        var refused = 0
        for (index, outcome) in outcomes {
            guard let error = outcome.error else {
                succeeded += 1
                continue
            }
            // `--help` ends in a clean exit with its text; every other end is an error that says something.
            #expect(!error.isEmpty, "case \(index) \(commands[index]): an empty error")
            if outcome.exitCode != 0 { refused += 1 } else { succeeded += 1 }
        }
        #expect(outcomes.count == commands.count)
        // Both kinds of end, in real numbers: the inputs reach the work, not only the parser.
        #expect(
            succeeded > commands.count / 10 && refused > commands.count / 10, "\(succeeded) ran, \(refused) refused")
    }
}

/// The files the fuzzed command lines name: good ones, damaged copies of them, and things that are not files.
struct FuzzFiles {
    var scenarios: [String] = []
    var traces: [String] = []
    var evaluations: [String] = []
    /// Where outputs may go, and where they may not.
    var outputs: [String] = []

    /// Numbers and words a damaged file gets in place of one of its values.
    static let oddValues = [
        "-1", "0", "nan", "inf", "1e309", "99999999999999999999", "abc", "", "~", "[]", "{}", "0.0000001", "-0",
        "0s", "100%", "101%", "0001-01-01T00:00:00Z", "9999-12-31", "\"\"", "1d 25:00", "..", "5s..1s",
    ]

    init(in folder: URL, random: inout SeededRandom) throws {
        func write(_ name: String, _ text: String) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let short = """
            name: short
            start: 2026-11-21T06:00:00Z
            duration: 3h
            device: { battery: 50%, charging: false, network: wifi, screen: off, locked: true }
            apps:
              - memory: 30MB
                manifest:
                  CFBundleIdentifier: com.example.news
                  UIBackgroundModes: [fetch]
                  BGTaskSchedulerPermittedIdentifiers: [com.example.news.refresh]
                behaviour:
                  register: [com.example.news.refresh]
                  onEnterBackground:
                    - submit: { refresh: com.example.news.refresh, after: 20m }
                  tasks:
                    com.example.news.refresh: { work: 5s..12s }
            timeline:
              - { at: "00:10", do: unlock }
              - { at: "00:11", do: open com.example.news }
              - { at: "00:20", do: lock }
              - { at: "01:00", do: battery 10% }
            """
        scenarios = [try write("short.yaml", short), try write("demo.yaml", DemoScenario.yaml)]
        for index in 0..<40 {
            let source = index % 10 == 0 ? DemoScenario.yaml : short
            scenarios.append(try write("damaged-\(index).yaml", Self.damage(source, random: &random)))
        }
        scenarios += ["/dev/null", folder.path, "/nonexistent/s.yaml"]

        let model = TraceModel(users: 1, days: 1, apps: 2, seed: 5)
        let generated = TraceGenerator.generate(model).csv()
        traces = [
            try write("one.csv", CLITests.oneRowTrace), try write("header.csv", "user,timestamp,app,event\n"),
            try write("empty.csv", ""), try write("generated.csv", generated),
        ]
        for index in 0..<20 {
            traces.append(try write("damaged-\(index).csv", Self.damage(generated, random: &random, separator: ",")))
        }
        traces += ["/dev/null", folder.path]

        let evaluation = Evaluation(trace: "one.csv", policies: EvaluatedPolicy.standard, outcomes: [])
        evaluations = [
            try write("evaluation.json", String(decoding: try evaluation.json(), as: UTF8.self)),
            try write("garbage.json", "{\"trace\": 3}"), traces[0],
        ]
        outputs = [
            folder.appendingPathComponent("out.json").path, folder.appendingPathComponent("out.html").path,
            "/nonexistent/dir/out", folder.path,
        ]
    }

    /// `text` with one value replaced by an odd one, a line dropped, or a line doubled.
    static func damage(_ text: String, random: inout SeededRandom, separator: Character = ":") -> String {
        var lines = text.components(separatedBy: "\n")
        let index = Int(random.next() % UInt64(lines.count))
        switch random.next() % 3 {
        case 0:
            let line = lines[index]
            if let cut = line.lastIndex(of: separator) {
                let odd = oddValues[Int(random.next() % UInt64(oddValues.count))]
                lines[index] = String(line[...cut]) + (separator == ":" ? " " : "") + odd
            }
        case 1: lines.remove(at: index)
        default: lines.insert(lines[index], at: index)
        }
        return lines.joined(separator: "\n")
    }
}

/// One random command line of `offstage`, from every command but `daemon` (which replaces the process).
enum FuzzCommand {
    static let goodUntils = ["1h", "2h", "30m", "10m", "03:00", "2026-11-21 07:00:00Z", "2026-11-21T06:30:00Z"]
    static let oddUntils = [
        "0s", "-1h", "nan", "inf", "1e400", "99999999999d", "25:00", "0001-01-01T00:00:00Z", "", "soon",
    ]
    static let counts = ["0", "1", "2", "-1", "abc", "100001"]

    /// One command line per file, with options that parse: each scenario simulated for an hour, each trace
    /// evaluated, each evaluation merged, so that every damaged file reaches the work whatever the random draws.
    static func everyFile(_ files: FuzzFiles) -> [[String]] {
        files.scenarios.map { ["simulate", $0, "--until", "1h"] } + files.traces.map { ["evaluate", "--trace", $0] }
            + files.evaluations.map { ["evaluate", "merge", $0] }
    }

    static func make(files: FuzzFiles, random: inout SeededRandom) -> [String] {
        func pick(_ values: [String]) -> String { values[Int(random.next() % UInt64(values.count))] }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        func runOptions() -> [String] {
            var options: [String] = []
            if chance(95) { options += ["--until", pick(chance(75) ? goodUntils : oddUntils)] }
            if chance(25) { options.append("--summary") }
            if chance(10) { options.append("--verbose") }
            if chance(15) { options += ["--why", pick(["com.example.news.refresh", "nope", ""])] }
            if chance(15) { options.append("--battery") }
            if chance(20) { options += ["--json", pick(files.outputs)] }
            if chance(20) { options += ["--html", pick(files.outputs)] }
            return options.shuffled(using: &random)
        }
        switch random.next() % 10 {
        case 0:
            return ["demo"] + runOptions() + (chance(10) ? ["--print-scenario"] : [])
        case 1, 2, 3, 4:
            return ["simulate", pick(files.scenarios)] + runOptions()
        case 5:
            // Mostly the small odd traces (one row, a header, nothing), which cost little to replay.
            var arguments = ["evaluate", "--trace", pick(chance(60) ? Array(files.traces.prefix(3)) : files.traces)]
            if chance(30) { arguments += ["--shard", pick(["1/2", "2/2", "0/2", "3/2", "x", "1/0"])] }
            // `-`: the JSON on standard output instead of the table (only evaluate reads it so).
            if chance(30) { arguments += ["--json", pick(files.outputs + ["-"])] }
            return arguments
        case 6:
            return ["evaluate", "merge"] + (0..<Int(random.next() % 3)).map { _ in pick(files.evaluations) }
                + (chance(30) ? ["--json", pick(files.outputs)] : [])
        case 7:
            var arguments = [
                "trace", "generate", "--users", pick(counts), "--days", pick(["0", "1", "2", "3651", "x"]),
            ]
            arguments += [
                "--apps", pick(["0", "1", "30", "1001", "x"]), "--seed",
                pick(["0", "1", "18446744073709551615", "-1"]),
            ]
            if chance(50) { arguments += ["-o", pick(files.outputs)] }
            return arguments
        case 8:
            let pairs = ["battery=banana", "battery=40%", "battery=nan", "charging=maybe", "network=wifi", "x=y", "="]
            return ["ctl", pick(["device", "settings"])] + (pick(["set", "x"]) == "set" ? ["set"] : [])
                + [pick(pairs), "--socket", "/nonexistent/offstage.sock"]
        default:
            let words = ["demo", "simulate", "evaluate", "trace", "ctl", "--help", "-h", "--until", "x", "", "--", "-"]
            return (0..<Int(1 + random.next() % 4)).map { _ in pick(words) }
        }
    }
}
