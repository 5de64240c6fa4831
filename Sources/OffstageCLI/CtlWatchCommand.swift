import ArgumentParser
import Foundation
import OffstageCore
import OffstageProtocol
import OffstageSimulator

/// `ctl watch`: the system's progress UI for continued-processing tasks, live: a progress bar per task, the
/// question the system asks about a slow one, the outcome of finished ones. In a terminal the user can pick
/// a task (1–9), cancel it (c), answer the question (y: continue, n: stop) and quit (q).
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch continued-processing tasks; cancel them or answer the system's question.",
        discussion: "Keys in a terminal: 1-9 select a task, c cancel it, y continue, n stop, q quit.")
    @OptionGroup var daemon: DaemonAddress
    @Option(help: "Seconds between refreshes.") var interval = 1.0
    @Flag(help: "Print once and return.") var once = false

    func run() throws {
        let terminal = isatty(STDOUT_FILENO) == 1
        let keys = once ? nil : TerminalKeys()
        defer { keys?.restore() }
        var selected = 0
        var note = ""
        var drawnLines = 0
        var shownAny = false
        while true {
            guard case .progress(let tasks) = try daemon.send(.progress) else { return }
            selected = min(selected, max(0, tasks.count - 1))
            // The view ends after its last task has gone (or at once with nothing to show outside a terminal).
            let ending = once || (tasks.isEmpty && (shownAny || keys == nil))
            var lines = Self.lines(tasks, selected: keys == nil ? nil : selected)
            if keys != nil && !ending { lines += ["", "1-9 select · c cancel · y continue · n stop · q quit", note] }
            if terminal {
                let width = Self.terminalWidth() - 1
                lines = lines.map { $0.count > width ? String($0.prefix(width)) : $0 }
            }
            let clear = terminal && drawnLines > 0 ? "\u{1B}[\(drawnLines)A\u{1B}[J" : ""
            FileHandle.standardOutput.write(Data((clear + lines.joined(separator: "\n") + "\n").utf8))
            drawnLines = terminal ? lines.count : 0
            shownAny = shownAny || !tasks.isEmpty
            if ending { return }
            guard let keys else {
                Thread.sleep(forTimeInterval: interval)
                continue
            }
            guard let key = keys.next(within: interval) else { continue }
            if key == "q" { return }
            if let digit = key.wholeNumberValue, digit >= 1, digit <= tasks.count {
                selected = digit - 1
            } else if let event = Self.event(for: key, on: tasks.indices.contains(selected) ? tasks[selected] : nil) {
                note = Self.describe(try daemon.send(.event(event: event)))
            }
        }
    }

    /// The event a key sends for the selected task: c cancels it, y and n answer its question.
    static func event(for key: Character, on task: ContinuedProcessingUI?) -> SystemEvent? {
        guard let task, task.outcome == nil else { return nil }
        switch key {
        case "c": return .cancelContinuedProcessingTask(task.app, identifier: task.identifier)
        case "y": return .answerContinuedProcessingQuestion(task.app, identifier: task.identifier, answer: .proceed)
        case "n": return .answerContinuedProcessingQuestion(task.app, identifier: task.identifier, answer: .stop)
        default: return nil
        }
    }

    /// What the system did, in one line, for the line under the view.
    static func describe(_ reply: ControlReply) -> String {
        guard case .records(let records) = reply, let last = records.last else { return "" }
        return "\(last.record.kind.rawValue): \(last.record.reason)"
    }

    /// The view: one block per task, "› " before the selected one (nil: no selection shown).
    static func lines(_ tasks: [ContinuedProcessingUI], selected: Int?) -> [String] {
        guard !tasks.isEmpty else { return ["no continued-processing tasks"] }
        var lines: [String] = []
        for (index, task) in tasks.enumerated() {
            let marker = selected == nil ? "" : (index == selected ? "› " : "  ") + "\(index + 1). "
            lines += block(task).enumerated().map { number, line in
                (number == 0 ? marker : String(repeating: " ", count: marker.count)) + line
            }
        }
        return lines
    }

    /// One task: "com.app  Title — Subtitle", then "[#######.......]  42%  (42/100)" and the outcome once it
    /// ended, then the system's question if it asks one.
    static func block(_ task: ContinuedProcessingUI) -> [String] {
        let width = 30
        let filled = Figures.filled(task.fraction, of: width)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        var lines = [
            "\(task.app)  \(task.title)\(task.subtitle.isEmpty ? "" : " — \(task.subtitle)")",
            "  [\(bar)] \(Figures.percent(task.fraction))  (\(task.progressCompleted)/\(task.progressTotal))"
                + (task.outcome.map { "  \($0.rawValue)" } ?? ""),
        ]
        if let question = task.question { lines.append("  ? \(question)  (y: continue, n: stop)") }
        return lines
    }

    /// The terminal's width in columns (80 if unknown): lines are cut to it so that redrawing stays in place.
    static func terminalWidth() -> Int {
        var size = winsize()
        return ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }
}
