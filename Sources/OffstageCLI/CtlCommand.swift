import ArgumentParser
import Foundation
import OffstageCore
import OffstageProtocol

/// `offstage ctl`: drive a running daemon (install, user actions, device, views).
struct CtlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Drive a running `offstage daemon`.",
        subcommands: [
            InstallCommand.self, LaunchCommand.self, OpenCommand.self, HomeCommand.self, LockCommand.self,
            UnlockCommand.self, SwitcherCommand.self, SwipeCommand.self, TapCommand.self, AppsCommand.self,
            TasksCommand.self, WhyCommand.self, RunTaskCommand.self, ExpireTaskCommand.self, WatchCommand.self,
            CancelTaskCommand.self, AnswerCommand.self, PushCommand.self,
            SettingsCommand.self, DeviceCommand.self, BatteryCommand.self, StatusCommand.self,
        ])
}

/// The options every `ctl` command shares: where the daemon listens.
struct DaemonAddress: ParsableArguments {
    @Option(help: "The daemon's socket (default: $XDG_RUNTIME_DIR/offstage.sock or the state folder's).")
    var socket: String?

    var path: String { socket ?? DaemonLocation.socketPath() }

    /// Sends one command and returns the reply; connection problems and refusals become clear errors.
    func send(_ command: ControlCommand) throws -> ControlReply {
        let client: ControlClient
        do { client = try ControlClient(path: path) } catch {
            throw CLIError("offstage ctl: \(error) (is `offstage daemon` running on \(path)?)")
        }
        do { return try client.send(command) } catch { throw CLIError("offstage ctl: \(error)") }
    }

    /// Sends a user, settings or debugging event and prints what the system did.
    func send(_ event: SystemEvent) throws {
        Output.print(try send(.event(event: event)))
    }
}

/// How `ctl` prints replies: one line per record, app or task.
enum Output {
    static func print(_ reply: ControlReply) {
        switch reply {
        case .ok(let message): Console.print(message)
        case .records(let records):
            for entry in records {
                let app = entry.record.app.map { "\($0)  " } ?? ""
                let task = entry.record.task.map { "[\($0)] " } ?? ""
                Console.print("\(entry.time)  \(app)\(entry.record.kind.rawValue): \(task)\(entry.record.reason)")
            }
        case .apps(let apps): Console.print(AppsCommand.table(apps))
        case .tasks(let tasks): Console.print(TasksCommand.table(tasks))
        case .status(let status): Console.print(StatusCommand.text(status))
        case .progress(let tasks): Console.print(WatchCommand.lines(tasks, selected: nil).joined(separator: "\n"))
        }
    }
}
