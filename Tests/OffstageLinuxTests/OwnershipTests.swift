import Foundation
import OffstageCore
import Synchronization
import Testing

@testable import OffstageLinux

/// The Linux layer's owners, with real child processes: the `ExitWatcher` (its watched set behind a `Mutex`,
/// shared by the caller and its thread) and `ProcessControl` (owned by one thread) freezing, thawing and ending a
/// real app group with the machine's freezer and with signals. Nothing sleeps to wait: each state is polled with
/// a deadline.
@Suite struct OwnershipTests {
    /// A temporary folder for one test's scripts and logs.
    let folder = NSTemporaryDirectory() + "offstage-owners-\(getpid())-\(UUID().uuidString.prefix(8))"

    /// Starts `sleep 30` as a child in a session of its own, joining `procsFiles`.
    func startSleeper(joining procsFiles: [String] = []) throws -> Int32 {
        let path = folder + "/sleeper"
        if !FileManager.default.fileExists(atPath: path) { _ = try makeScript(in: folder, "sleeper", "exec sleep 30") }
        return try ProcessSpawner.spawn(
            executable: path, environment: [:], joining: procsFiles, logPath: folder + "/sleeper.log")
    }

    /// Polls `condition` until it holds or 10 seconds pass (on the monotonic clock); whether it held.
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            sched_yield()  // not a sleep: gives the other threads the processor and looks again
        }
        return condition()
    }

    /// Reaps the child `pid` (and only it).
    func reap(_ pid: Int32) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    @Test func theExitWatcherReportsEachWatchedProcessOnceWhenItEnds() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reported = Mutex<[Int32]>([])
        let watcher = try ExitWatcher { pid, _ in reported.withLock { $0.append(pid) } }
        let first = try startSleeper()
        let second = try startSleeper()
        try #require(watcher.watch(first), "this kernel has pidfd_open")
        // The second is added while the thread already waits: the wake-up pipe makes it look again.
        #expect(watcher.watch(second))
        #expect(reported.withLock { $0.isEmpty }, "nothing ended yet")
        kill(first, SIGKILL)
        #expect(eventually { reported.withLock { $0 } == [first] })
        kill(second, SIGKILL)
        #expect(eventually { reported.withLock { $0 } == [first, second] })
        reap(first)
        reap(second)
        #expect(reported.withLock { $0 } == [first, second], "each is reported once")
    }

    @Test(arguments: [FreezerChoice.automatic, .signals])
    func processControlFreezesThawsAndEndsARealAppGroup(freezer: FreezerChoice) throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let control = try ProcessControl(
            choice: freezer, name: "offstage-linuxtests-\(getpid())-\(freezer.rawValue)")
        defer { _ = control.removeAllGroups(timeout: 5) }
        let app = BundleID("test.owned")
        let pid = try startSleeper(joining: control.groupProcsFiles(for: app))
        let process = AppProcess(pid: pid, startTicks: try #require(ProcStat.read(pid)).startTicks)
        // The child joins its groups itself, before it runs the app: look until it has.
        #expect(eventually { control.pids(of: app, process).contains(pid) })
        #expect(control.owns(app, process, pid: pid))
        #expect(!control.owns(app, process, pid: getpid()), "the test process is not the app's")
        control.freeze(app, process)
        #expect(eventually { control.isFrozen(app, process) }, "\(control.kind.rawValue) froze the app")
        control.thaw(app, process)
        #expect(eventually { !control.isFrozen(app, process) }, "\(control.kind.rawValue) thawed the app")
        if !control.terminate(app, process) { control.killNow(app, process) }
        reap(pid)
        #expect(ProcStat.read(pid) == nil, "the app's process ended")
    }
}
