import ArgumentParser
import Foundation
import OffstageSimulator

/// `offstage evaluate --trace FILE [--shard i/n | --shard-from-env VARIABLE/n] [--json OUT] [--launches OUT]
/// [--policy FILE…]`: replays a usage trace under several scheduling policies and prints one table;
/// `offstage evaluate merge` joins the JSON of shards into the same table.
/// The options are the command's own (not a default subcommand's), so `offstage evaluate --help` shows them.
struct EvaluateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Measure scheduling policies on a usage trace: freshness against cost.",
        discussion: """
            Replays the trace under Offstage's policy, fixed 15 min and 1 h periods, the literal API, an oracle \
            that keeps `earliestBeginDate` and one that does not, and each --policy file's variant of the numbers. \
            `offstage evaluate merge` joins shards written with --json.
            """,
        subcommands: [MergeEvaluationsCommand.self])

    @Option(help: "The usage trace (CSV; see docs/traces.md); `offstage trace generate` makes one.")
    var trace: String?
    @Option(help: "Evaluate only shard i of n (users i, i+n, i+2n… in the trace's order), e.g. 2/4.")
    var shard: String?
    @Option(
        name: .customLong("shard-from-env"),
        help: """
            Evaluate shard VARIABLE of n, its index read from that environment variable counting from 0: an array \
            job's index, e.g. JOB_COMPLETION_INDEX/4 (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID/4 (Slurm, \
            --array=0-3).
            """)
    var shardFromEnvironment: String?
    @Option(help: "Write the raw results as JSON to this file (for `offstage evaluate merge`); - for standard output.")
    var json: String?
    @Option(help: "Write every launch (user, policy, time, app, content age, class) as JSON to this file.")
    var launches: String?
    @Option(
        name: .customLong("policy"),
        help:
            "Also evaluate the policy of this YAML or JSON file (Policy fields, strategy:), named after the file; repeatable."
    )
    var policyFiles: [String] = []
    @Option(
        name: .customLong("only"),
        help: "Evaluate only this one of the standard policies (e.g. Offstage), besides the --policy files; repeatable."
    )
    var onlyPolicies: [String] = []

    /// The shard as (index from 0, count), from `--shard` or from the variable `--shard-from-env` names in
    /// `environment`; nil for the whole trace; a validation error that names the option or the variable.
    func parsedShard(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (
        index: Int, count: Int
    )? {
        switch (shard, shardFromEnvironment) {
        case (nil, nil):
            return nil
        case (let shard?, nil):
            let parts = shard.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, (1...count).contains(index)
            else {
                throw ValidationError("--shard: expected i/n with 1 ≤ i ≤ n, like 2/4, got \"\(shard)\"")
            }
            return (index - 1, count)
        case (nil, let option?):
            return try ArrayJobShard(option: option).shard(in: environment)
        case (.some, .some):
            throw ValidationError("--shard and --shard-from-env: give one of them, not both")
        }
    }

    func validate() throws {
        _ = try parsedShard()
        if let json, json != "-" { try OutputFile(option: "--json", path: json).check() }
        if let launches { try OutputFile(option: "--launches", path: launches).check() }
    }

    func run() async throws {
        guard let trace else {
            throw ValidationError("--trace: give the usage trace to evaluate (`offstage trace generate` makes one)")
        }
        let usage: UsageTrace
        do {
            usage = try TraceLoader.load(contentsOf: trace)
        } catch {
            throw CLIError("\(error)")
        }
        var policies = EvaluatedPolicy.standard
        if !onlyPolicies.isEmpty {
            let names = policies.map(\.name)
            for name in onlyPolicies where !names.contains(name) {
                throw ValidationError(
                    "--only: no standard policy is named \"\(name)\" (\(names.joined(separator: ", ")))")
            }
            policies.removeAll { !onlyPolicies.contains($0.name) }
        }
        for file in policyFiles {
            do {
                policies.append(try EvaluatedPolicy.load(contentsOf: file))
            } catch {
                throw CLIError("\(error)")
            }
        }
        for (index, policy) in policies.enumerated()
        where policies[..<index].contains(where: { $0.name == policy.name }) {
            throw CLIError("--policy: two policies are named \(policy.name); name the files apart")
        }
        let shard = try parsedShard().map {
            EvaluationShard(index: $0.index + 1, count: $0.count, traceUsers: usage.users.count)
        }
        let start = Date()
        let progress = ProgressBar(label: "evaluate")
        let evaluation = await Evaluation.run(usage, policies: policies, shard: shard, progress: progress.update)
        progress.finish()
        try EvaluationOutput(json: json).write(evaluation, seconds: Date().timeIntervalSince(start))
        if let launches {
            try OutputFile(option: "--launches", path: launches).write(try evaluation.launchesJSON())
        }
    }
}

/// `--shard-from-env VARIABLE/n`: the shard an array job's task evaluates, its index (from 0) read from the
/// variable the scheduler sets (`JOB_COMPLETION_INDEX`, `SLURM_ARRAY_TASK_ID`), so one command serves every task.
struct ArrayJobShard {
    /// The environment variable that holds the task's index.
    let variable: String
    /// How many shards the array has.
    let count: Int

    /// Reads `VARIABLE/n`; a validation error names the option and shows the expected form.
    init(option: String) throws {
        let parts = option.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, let count = Int(parts[1]), count >= 1 else {
            throw ValidationError(
                "--shard-from-env: expected VARIABLE/n with n ≥ 1, like JOB_COMPLETION_INDEX/4, got \"\(option)\"")
        }
        variable = String(parts[0])
        self.count = count
    }

    /// The shard (index from 0, count) the variable names in `environment`; a validation error names the
    /// variable when it is not set, not a whole number or not below the count.
    func shard(in environment: [String: String]) throws -> (index: Int, count: Int) {
        guard let value = environment[variable] else {
            throw ValidationError(
                "--shard-from-env: the environment variable \(variable) is not set (the array job's index, from 0)")
        }
        guard let index = Int(value) else {
            throw ValidationError(
                "--shard-from-env: \(variable) is \"\(value)\", not a shard index (0 to \(count - 1))")
        }
        guard (0..<count).contains(index) else {
            throw ValidationError(
                "--shard-from-env: \(variable) is \(index), outside 0 to \(count - 1) for \(count) shards (it counts from 0)"
            )
        }
        return (index, count)
    }
}

/// `offstage evaluate merge A.json B.json …`: the shards' results as one table.
struct MergeEvaluationsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Merge the JSON of evaluated shards into one table.")

    @Argument(help: "JSON files written by `offstage evaluate --json`.") var files: [String]
    @Option(help: "Write the merged results as JSON to this file; - for standard output.") var json: String?

    func validate() throws {
        if files.isEmpty { throw ValidationError("merge: give at least one JSON file") }
        if let json, json != "-" { try OutputFile(option: "--json", path: json).check() }
    }

    func run() throws {
        let evaluations = try files.map { file in
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError("\(file): no such file, or it cannot be read")
            }
            do {
                return try Evaluation.decode(data)
            } catch {
                throw CLIError("\(file): not the JSON of `offstage evaluate --json` (\(error))")
            }
        }
        do {
            try EvaluationOutput(json: json).write(try evaluations[0].merged(with: Array(evaluations.dropFirst())))
        } catch let error as EvaluationError {
            throw CLIError(error.description)
        }
    }
}

/// Where an evaluation goes: the table on standard output, the JSON to a file or, with `-`, instead of the table.
struct EvaluationOutput {
    var json: String?

    func write(_ evaluation: Evaluation, seconds: Double? = nil) throws {
        if json == "-" {
            return Console.print(String(decoding: try evaluation.json(), as: UTF8.self))
        }
        Console.print(evaluation.table())
        if let seconds { Console.print("Wall time: \(String(format: "%.1f", seconds)) s") }
        guard let json else { return }
        try OutputFile(option: "--json", path: json).write(try evaluation.json())
        Console.print("Results written to \(json)")
    }
}
