import ArgumentParser
import Foundation
import OffstageCore
import OffstageProtocol

/// `ctl tasks`: every request and task, with each constraint a pending one waits for.
struct TasksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tasks", abstract: "List requests and tasks, and why each waits.")
    @OptionGroup var daemon: DaemonAddress
    func run() throws { Output.print(try daemon.send(.tasks)) }

    static func table(_ tasks: [TaskInfo]) -> String {
        guard !tasks.isEmpty else { return "no requests or tasks" }
        return tasks.map { task in
            var line = "\(task.bundle)  \(task.identifier)  (\(task.kind.rawValue))  \(task.phase)"
            if task.expired { line += ", expired" }
            if task.progressTotal > 0 { line += "  \(task.progressCompleted)/\(task.progressTotal)" }
            if task.phase == "pending" {
                line +=
                    task.waitingFor.isEmpty
                    ? "\n    eligible now" : task.waitingFor.map { "\n    waits for \($0)" }.joined()
            }
            return line
        }.joined(separator: "\n")
    }
}

/// `ctl why [APP]`: the latest decisions of the system, with their reasons.
struct WhyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "why", abstract: "Show the system's latest decisions and why.")
    @OptionGroup var daemon: DaemonAddress
    @Argument(help: "Only this app's decisions.") var app: String?
    @Option(help: "How many decisions.") var limit = 30
    func run() throws { Output.print(try daemon.send(.why(bundle: app.map { BundleID($0) }, limit: limit))) }
}

/// `ctl run-task APP ID`: Apple's `_simulateLaunchForTaskWithIdentifier:`: start a pending request now.
struct RunTaskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run-task", abstract: "Start a pending request now (simulate launch).")
    @OptionGroup var daemon: DaemonAddress
    @Argument(help: "Bundle identifier.") var app: String
    @Argument(help: "Task identifier.") var identifier: String
    func run() throws { try daemon.send(.simulateLaunch(BundleID(app), identifier: identifier)) }
}

/// `ctl expire-task APP ID`: Apple's `_simulateExpirationForTaskWithIdentifier:`: expire a running task now.
struct ExpireTaskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expire-task", abstract: "Expire a running task now (simulate expiration).")
    @OptionGroup var daemon: DaemonAddress
    @Argument(help: "Bundle identifier.") var app: String
    @Argument(help: "Task identifier.") var identifier: String
    func run() throws { try daemon.send(.simulateExpiration(BundleID(app), identifier: identifier)) }
}

/// `ctl watch`: a live view of continued-processing tasks with progress bars, until none is left.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Watch continued-processing tasks and their progress.")
    @OptionGroup var daemon: DaemonAddress
    @Option(help: "Seconds between refreshes.") var interval = 1.0
    @Flag(help: "Print once and return.") var once = false

    func run() throws {
        var shown: [String: TaskInfo] = [:]
        var drawnLines = 0
        let terminal = isatty(STDOUT_FILENO) == 1
        while true {
            guard case .tasks(let all) = try daemon.send(.tasks) else { return }
            let tasks = all.filter { $0.kind == .continuedProcessing }
            var lines: [String] = []
            for (key, task) in shown where !tasks.contains(where: { Self.key($0) == key }) {
                lines.append("\(task.bundle)  \(task.title): finished")
                shown[key] = nil
            }
            for task in tasks {
                shown[Self.key(task)] = task
                lines.append(Self.line(task))
            }
            if tasks.isEmpty && lines.isEmpty { lines.append("no continued-processing tasks") }
            let clear = terminal && drawnLines > 0 ? "\u{1B}[\(drawnLines)A\u{1B}[J" : ""
            FileHandle.standardOutput.write(Data((clear + lines.joined(separator: "\n") + "\n").utf8))
            drawnLines = terminal ? lines.count : 0
            if once || (tasks.isEmpty && shown.isEmpty) { return }
            Thread.sleep(forTimeInterval: interval)
        }
    }

    static func key(_ task: TaskInfo) -> String { "\(task.bundle) \(task.identifier)" }

    /// "com.app  Title — Subtitle  [#######.......]  42%  (42/100)".
    static func line(_ task: TaskInfo) -> String {
        let fraction = task.progressTotal > 0 ? Double(task.progressCompleted) / Double(task.progressTotal) : 0
        let width = 30
        let filled = min(width, Int(fraction * Double(width)))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let state = task.phase == "running" ? (task.expired ? "expiring" : "") : task.phase
        return "\(task.bundle)  \(task.title) — \(task.subtitle)  [\(bar)] \(Int(fraction * 100))%  "
            + "(\(task.progressCompleted)/\(task.progressTotal))\(state.isEmpty ? "" : "  \(state)")"
    }
}
