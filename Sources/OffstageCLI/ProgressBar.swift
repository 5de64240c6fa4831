import Foundation
import OffstageSimulator

/// A one-line progress bar on standard error, drawn only when it is a terminal.
/// Long simulations show it (with `--html` too); pipes, files and CI logs stay clean.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let enabled: Bool
    private let write: (String) -> Void
    private var drawn = false

    /// A bar on standard error, shown if standard error is a terminal; tests pass their own `isTerminal`
    /// and `write`.
    init(
        label: String, isTerminal: Bool = isatty(STDERR_FILENO) == 1,
        write: @escaping (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.label = label
        enabled = isTerminal
        self.write = write
    }

    func update(_ fraction: Double) {
        guard enabled else { return }
        let width = 30
        let filled = Figures.filled(fraction, of: width)
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        write("\r\(label) [\(bar)] \(Figures.percent(Figures.unit(fraction)))")
        drawn = true
    }

    /// Clears the bar's line, if one was drawn, before the output that follows.
    func finish() {
        guard drawn else { return }
        write("\r\u{1B}[2K")
    }
}
