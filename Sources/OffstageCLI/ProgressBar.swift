import Foundation

/// A one-line progress bar on standard error, drawn only when it is a terminal.
/// Long simulations show it; pipes and CI logs stay clean.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let enabled = isatty(STDERR_FILENO) == 1
    private var drawn = false

    init(label: String) { self.label = label }

    func update(_ fraction: Double) {
        guard enabled else { return }
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(Int(fraction * 100))%".utf8))
        drawn = true
    }

    func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
