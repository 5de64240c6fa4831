import Foundation
import Testing

/// `offstage evaluate --shard` and `--shard-from-env` run as the tasks of an array job, the built `offstage` run as
/// a scheduler runs it (a process with the task's environment): GNU parallel on this machine, and the Kubernetes
/// Indexed Job and Slurm array examples of `Examples/sharding` run task by task; `evaluate merge` of the shards
/// must print exactly the table of the whole run.
@Suite struct ShardingTests {
    /// The repository's `Examples/sharding` folder.
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/sharding")

    /// What a command run through `sh` printed and how it ended.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs `script` with `sh -c` in `folder`, the built `offstage` first on PATH, in this process's environment
    /// without `removing` and with `environment`, waiting for it to end.
    static func shell(
        _ script: String, in folder: URL, environment: [String: String] = [:], removing: [String] = []
    ) throws -> Run {
        let output = folder.appendingPathComponent("out-\(UUID()).txt")
        let errors = folder.appendingPathComponent("err-\(UUID()).txt")
        for file in [output, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = folder
        var variables = ProcessInfo.processInfo.environment
        for name in removing { variables[name] = nil }
        variables.merge(environment) { $1 }
        variables["PATH"] = InterpositionTests.products.path + ":" + (variables["PATH"] ?? "/usr/bin:/bin")
        process.environment = variables
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: try String(contentsOf: output, encoding: .utf8),
            errors: try String(contentsOf: errors, encoding: .utf8))
    }

    /// A small generated trace (3 users, one day, 3 apps) and the table of its whole evaluation under every
    /// standard policy, as the examples run it (without its wall time): made once, shared by the tests, each of
    /// which evaluates its shards.
    static let whole: Result<(trace: Data, table: String), any Error> = Result {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let generated = try shell(
            "offstage trace generate --users 3 --days 1 --apps 3 --seed 5 -o trace.csv", in: folder)
        let evaluated = try shell("offstage evaluate --trace trace.csv", in: folder)
        guard generated.status == 0, evaluated.status == 0 else {
            throw CLIFailure(description: "the whole run failed: \(generated.errors)\(evaluated.errors)")
        }
        let table = evaluated.output.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("Wall time:") }.joined(separator: "\n")
        return (try Data(contentsOf: folder.appendingPathComponent("trace.csv")), table)
    }

    /// A fresh folder holding the shared trace as `trace.csv` and an empty `results` folder, and the whole run's table.
    static func evaluatedTrace() throws -> (folder: URL, table: String) {
        let (trace, table) = try whole.get()
        let folder = try CLI.folder()
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("results"), withIntermediateDirectories: true)
        try trace.write(to: folder.appendingPathComponent("trace.csv"))
        return (folder, table)
    }

    /// A command that failed, with what it printed on standard error.
    struct CLIFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// `offstage evaluate merge` of the given shard files in `folder`, which must succeed.
    static func merged(_ files: [String], in folder: URL) throws -> String {
        let merge = try shell("offstage evaluate merge " + files.joined(separator: " "), in: folder)
        guard merge.status == 0 else { throw CLIFailure(description: "merge failed: \(merge.errors)") }
        return merge.output
    }

    /// The one `offstage evaluate` command line of an example file.
    static func evaluateLine(of example: String) throws -> String {
        let text = try String(contentsOf: examples.appendingPathComponent(example), encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("offstage evaluate --trace") || $0.hasPrefix("- offstage evaluate --trace") }
        try #require(lines.count == 1, "\(example) holds \(lines.count) `offstage evaluate` lines")
        return lines[0].hasPrefix("- ") ? String(lines[0].dropFirst(2)) : lines[0]
    }

    @Test func gnuParallelShardsMergeToTheWholeRunsTable() throws {
        let (folder, table) = try Self.evaluatedTrace()
        defer { try? FileManager.default.removeItem(at: folder) }
        let parallel = try Self.shell("command -v parallel", in: folder)
        try #require(parallel.status == 0, "GNU parallel is not installed (apt-get install parallel; .ci/run does)")
        let sharded = try Self.shell(
            "parallel offstage evaluate --trace trace.csv --shard {}/3 --json results/shard-{}.json"
                + " ::: 1 2 3", in: folder)
        #expect(sharded.status == 0, "\(sharded.errors)")
        let files = (1...3).map { "results/shard-\($0).json" }
        let merged = try Self.merged(files, in: folder)
        #expect(merged == table)
    }

    @Test func kubernetesIndexedJobExampleEvaluatesEachShardOfItsIndex() throws {
        let manifest = try String(
            contentsOf: Self.examples.appendingPathComponent("evaluate-indexed-job.yaml"), encoding: .utf8)
        #expect(manifest.contains("completionMode: Indexed") && manifest.contains("completions: 4"))
        let command = try Self.evaluateLine(of: "evaluate-indexed-job.yaml")
        #expect(command.contains("--shard-from-env JOB_COMPLETION_INDEX/4"))
        let (folder, table) = try Self.evaluatedTrace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for index in 0..<4 {
            let task = try Self.shell(
                command, in: folder,
                environment: ["TRACE": "trace.csv", "RESULTS": "results", "JOB_COMPLETION_INDEX": "\(index)"])
            #expect(task.status == 0, "index \(index): \(task.errors)")
        }
        let files = (0..<4).map { "results/shard-\($0).json" }
        let merged = try Self.merged(files, in: folder)
        #expect(merged == table)
    }

    @Test func slurmArrayExampleEvaluatesEachShardOfItsTaskID() throws {
        let script = Self.examples.appendingPathComponent("evaluate-array.sbatch")
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.contains("#SBATCH --array=0-3"))
        #expect(try Self.evaluateLine(of: "evaluate-array.sbatch").contains("--shard-from-env SLURM_ARRAY_TASK_ID/4"))
        let (folder, table) = try Self.evaluatedTrace()
        defer { try? FileManager.default.removeItem(at: folder) }
        for task in 0..<4 {
            let run = try Self.shell(
                "sh '\(script.path)'", in: folder,
                environment: ["TRACE": "trace.csv", "RESULTS": "results", "SLURM_ARRAY_TASK_ID": "\(task)"])
            #expect(run.status == 0, "task \(task): \(run.errors)")
        }
        let files = (0..<4).map { "results/shard-\($0).json" }
        let merged = try Self.merged(files, in: folder)
        #expect(merged == table)
    }

    @Test(
        arguments: [
            (nil, "the environment variable JOB_COMPLETION_INDEX is not set"),
            ("two", "JOB_COMPLETION_INDEX is \"two\", not a shard index (0 to 3)"),
            ("4", "JOB_COMPLETION_INDEX is 4, outside 0 to 3 for 4 shards (it counts from 0)"),
            ("-1", "JOB_COMPLETION_INDEX is -1, outside 0 to 3 for 4 shards (it counts from 0)"),
        ] as [(String?, String)])
    func aShardVariableMissingNotANumberOrOutOfRangeIsNamed(value: String?, message: String) throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.shell(
            "offstage evaluate --trace trace.csv --shard-from-env JOB_COMPLETION_INDEX/4", in: folder,
            environment: value.map { ["JOB_COMPLETION_INDEX": $0] } ?? [:], removing: ["JOB_COMPLETION_INDEX"])
        #expect(run.status != 0)
        #expect(run.errors.contains("--shard-from-env: \(message)"), "\(run.errors)")
    }

    @Test(arguments: [
        ("--shard-from-env JOB_COMPLETION_INDEX/0", "--shard-from-env: expected VARIABLE/n with n ≥ 1"),
        ("--shard-from-env /4", "--shard-from-env: expected VARIABLE/n with n ≥ 1"),
        ("--shard 1/4 --shard-from-env JOB_COMPLETION_INDEX/4", "--shard and --shard-from-env: give one of them"),
    ])
    func aMalformedShardOptionIsNamed(options: String, message: String) throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.shell(
            "offstage evaluate --trace trace.csv \(options)", in: folder, environment: ["JOB_COMPLETION_INDEX": "1"])
        #expect(run.status != 0)
        #expect(run.errors.contains(message), "\(run.errors)")
    }
}
