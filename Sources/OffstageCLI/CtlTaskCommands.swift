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

/// `ctl cancel-task APP ID`: the user taps cancel in a continued-processing task's progress UI.
struct CancelTaskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel-task", abstract: "Cancel a running continued-processing task, as the user would.")
    @OptionGroup var daemon: DaemonAddress
    @Argument(help: "Bundle identifier.") var app: String
    @Argument(help: "Task identifier.") var identifier: String
    func run() throws { try daemon.send(.cancelContinuedProcessingTask(BundleID(app), identifier: identifier)) }
}

/// `ctl answer APP ID continue|stop`: the user answers the system's question about a slow task.
struct AnswerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "answer", abstract: "Answer the system's \"continue?\" question about a slow task.")
    @OptionGroup var daemon: DaemonAddress
    @Argument(help: "Bundle identifier.") var app: String
    @Argument(help: "Task identifier.") var identifier: String
    @Argument(help: "continue or stop.") var answer: String

    func validate() throws { _ = try choice() }

    private func choice() throws -> SlowTaskAnswer {
        guard let choice = SlowTaskAnswer(rawValue: answer) else {
            throw ValidationError("answer: '\(answer)' is not continue or stop")
        }
        return choice
    }

    func run() throws {
        let choice = try choice()
        try daemon.send(.answerContinuedProcessingQuestion(BundleID(app), identifier: identifier, answer: choice))
    }
}
