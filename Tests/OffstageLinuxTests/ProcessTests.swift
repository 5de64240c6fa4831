import Foundation
import Testing

@testable import OffstageLinux

/// `/proc` read for this process and for real children the spawner starts; each child is waited for by its pid.
@Suite struct ProcessTests {
    /// A temporary folder for one test's scripts and logs.
    let folder = NSTemporaryDirectory() + "offstage-linux-\(getpid())-\(UUID().uuidString.prefix(8))"

    /// Writes an executable shell script and returns its path.
    func script(_ name: String, _ body: String) throws -> String { try makeScript(in: folder, name, body) }

    /// Waits for the child `pid` (and only it) and describes how it ended.
    func waitFor(_ pid: Int32) -> String {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return Reaper.describe(status)
    }

    @Test func thisProcessStatIsRead() throws {
        let stat = try #require(ProcStat.read(getpid()))
        #expect(stat.pid == getpid())
        #expect("RS".contains(stat.state))
        #expect(stat.processGroup == getpgrp())
        #expect(stat.startTicks > 0)
        #expect(ProcFS.residentBytes(getpid()) > 1_000_000)
        #expect(ProcFS.threads(of: getpid()).contains(getpid()))
        #expect(ProcStat.read(-1) == nil)
    }

    @Test func aSpawnedChildGetsItsEnvironmentLogAndOwnSessionAndIsReaped() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let executable = try script("child", #"echo "value $OFFSTAGE_TEST_VALUE"; exit 3"#)
        let log = folder + "/child.log"
        let pid = try ProcessSpawner.spawn(
            executable: executable, environment: ["OFFSTAGE_TEST_VALUE": "hello"], joining: [], logPath: log)
        #expect(waitFor(pid) == "exited with status 3")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "value hello\n")
    }

    @Test func aRunningChildIsInThisProcessTreeUntilKilled() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let executable = try script("sleeper", "exec sleep 30")
        let pid = try ProcessSpawner.spawn(
            executable: executable, environment: [:], joining: [], logPath: folder + "/sleeper.log")
        #expect(ProcFS.tree(getpid()).contains(pid))
        let stat = try #require(ProcStat.read(pid))
        #expect(stat.processGroup == pid, "the child leads a session and group of its own")
        kill(pid, SIGKILL)
        #expect(waitFor(pid) == "killed by signal 9")
        #expect(ProcStat.read(pid) == nil)
    }

    @Test func aMissingExecutableEndsTheChildWithTheShellsStatus() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let pid = try ProcessSpawner.spawn(
            executable: folder + "/absent", environment: [:], joining: [], logPath: folder + "/absent.log")
        #expect(waitFor(pid) == "exited with status 127")
    }

    /// Where glibc cannot close the daemon's descriptors in the child (before 2.34), the spawner marks them all
    /// close-on-exec instead, so that none reaches an app.
    @Test func withoutClosingInTheChildEveryDescriptorIsMarkedCloseOnExec() throws {
        let fd = open("/dev/null", O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC == 0)
        ProcessSpawner.markCloseOnExec(from: fd)
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
    }
}
