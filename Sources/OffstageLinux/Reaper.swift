import Foundation
import Glibc

/// Collects the daemon's exited children on one thread (`waitpid`) and hands them to the loop:
/// the daemon learns at once that an app died, whatever the reason. Shared by the loop (`childStarted`) and
/// its thread, it holds only constants and a semaphore, so it is `Sendable` as it stands.
package final class Reaper: Sendable {
    private let children = DispatchSemaphore(value: 0)
    private let onExit: @Sendable (Int32, String) -> Void

    package init(onExit: @escaping @Sendable (_ pid: Int32, _ how: String) -> Void) {
        self.onExit = onExit
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = "offstage-reaper"
        thread.start()
    }

    /// Tells the reaper a child was started (it sleeps while there are none).
    package func childStarted() { children.signal() }

    private func serve() {
        while true {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, 0)
            if pid > 0 {
                onExit(pid, Self.describe(status))
            } else if errno == ECHILD {
                children.wait()
            }
        }
    }

    /// "exited with status 3" or "killed by signal 9".
    package static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exited with status \((status >> 8) & 0xFF)" }
        return "killed by signal \(signal)"
    }
}
