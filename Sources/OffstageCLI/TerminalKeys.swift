import Glibc

/// Single key presses from a terminal: standard input in non-canonical mode without echo (and without
/// signals, so that Ctrl-C arrives as a key the caller can end on cleanly); the old mode comes back on `restore`.
final class TerminalKeys {
    private var saved = termios()

    /// Nil when standard input is not a terminal.
    init?() {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
    }

    /// Puts the terminal back as it was.
    func restore() { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }

    /// The next key pressed within `seconds`, or nil; Ctrl-C and Ctrl-D read as "q". Escape sequences
    /// (arrow keys) are read whole and ignored.
    func next(within seconds: Double) -> Character? {
        var entry = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(seconds * 1000)) > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 8)
        let count = read(STDIN_FILENO, &bytes, bytes.count)
        guard count > 0 else { return "q" }
        if bytes[0] == 3 || bytes[0] == 4 { return "q" }
        guard count == 1, bytes[0] >= 32, bytes[0] < 127 else { return nil }
        return Character(Unicode.Scalar(bytes[0]))
    }
}
