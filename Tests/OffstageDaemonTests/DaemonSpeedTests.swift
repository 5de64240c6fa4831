import Foundation
import OffstageCore
import OffstageLinux
import OffstageProtocol
import Testing

@testable import OffstageDaemon

/// The daemon's hot paths (issue 4's benchmark targets): the daemon alone, freezer actions timed and taking effect
/// before anything else, the readings of the sampler. Timings are the benchmark's; these tests check behaviour.
@Suite(.serialized) struct DaemonSpeedTests {
    @Test func offstageDaemonRunsTheDaemonAloneWhenItIsBesideOffstage() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        let pid = try #require(try daemon.status()).pid
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        #expect(executable == DaemonHarness.product("offstage-daemon"))
        // The same daemon: it answers as `offstage daemon` always did.
        try daemon.install("test.alone", behaviours: [])
        #expect(try daemon.openAndWait("test.alone") > 0)
    }

    /// `offstage-bench` alone in a folder (a link to it, so it looks beside itself for the daemon) ends with a
    /// clear error and status 1, not a trap, before it makes anything.
    @Test func theBenchmarkWithoutTheDaemonBesideItEndsWithAClearError() throws {
        let folder = NSTemporaryDirectory() + "offstage-bench-alone-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/offstage-bench", withDestinationPath: DaemonHarness.product("offstage-bench"))
        let bench = Process()
        bench.executableURL = URL(fileURLWithPath: folder + "/offstage-bench")
        bench.arguments = ["--rounds", "1"]
        let errors = Pipe()
        bench.standardError = errors
        bench.standardOutput = FileHandle.nullDevice
        try bench.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bench.waitUntilExit()
        #expect(bench.terminationReason == .exit && bench.terminationStatus == 1)
        #expect(
            message == "offstage-bench: offstage is not built beside offstage-bench in \(folder): build it first "
                + "(swift build -c release --product offstage)\n")
    }

    @Test(arguments: testableFreezers)
    func statusTimesTheLastFreezeAndThawFromTheDecisionToTheWrite(freezer: String) throws {
        let daemon = try DaemonHarness(freezer: freezer)
        try daemon.install("test.timed", behaviours: [])
        _ = try daemon.openAndWait("test.timed")
        #expect(try daemon.status()?.lastFreezerAction == nil)
        try daemon.send(.home)
        try daemon.waitUntil("the app is frozen") { try daemon.app("test.timed")?.frozen == true }
        let freeze = try #require(try daemon.status()?.lastFreezerAction)
        #expect(freeze.app == "test.timed" && freeze.frozen)
        #expect(freeze.decidedAt <= freeze.writingAt && freeze.writingAt <= freeze.writtenAt)
        #expect(try daemon.ctl(["status"]).contains("last      froze test.timed: the write began"))
        try daemon.send(.open("test.timed"))
        try daemon.waitUntil("the app is thawed") { try daemon.app("test.timed")?.frozen == false }
        let thaw = try #require(try daemon.status()?.lastFreezerAction)
        #expect(thaw.app == "test.timed" && !thaw.frozen)
        #expect(freeze.writtenAt < thaw.decidedAt)
        #expect(thaw.decidedAt <= thaw.writingAt && thaw.writingAt <= thaw.writtenAt)
    }

    /// A call that ends the app's last work freezes it before it is answered: the app stops inside the call and
    /// gets the answer when it is thawed (the test app notes the answer right after `setTaskCompleted`).
    @Test(arguments: testableFreezers)
    func anAppFrozenByItsOwnCallGetsTheAnswerWhenItIsThawed(freezer: String) throws {
        let daemon = try DaemonHarness(freezer: freezer)
        try daemon.install("test.refresher", behaviours: ["refresh"])
        let pid = try daemon.openAndWait("test.refresher")
        try daemon.send(.home)
        try daemon.waitUntil("the task completed and the app is frozen again") {
            daemon.events("test.refresher").contains("refresh completed")
                && daemon.kernelShowsFrozen("test.refresher", pid: pid)
        }
        #expect(!daemon.events("test.refresher").contains("refresh completion answered"))
        // The answer waits in the daemon, not in the app's socket: a SIGSTOP stops the app only once the thread
        // the kernel woke for it runs, and an answer written at once was read by another thread before that.
        #expect(try daemon.unreadBytes(ofProcess: pid) == 0, "nothing is written to a frozen app")
        try daemon.send(.open("test.refresher"))
        try daemon.waitUntil("the answer reaches the thawed app") {
            daemon.events("test.refresher").contains("refresh completion answered")
        }
    }

    @Test func theSamplerReadsNumbersFromTheKernelsBytes() {
        #expect(SysFile.numbers(in: Array("2000 431 300 12 0 550 0\n".utf8)) == [2000, 431, 300, 12, 0, 550, 0])
        #expect(SysFile.numbers(in: Array("101\n2022\n".utf8)) == [101, 2022])
        #expect(SysFile.numbers(in: []) == [])
        let cpuStat = Array("usage_usec 123456\nuser_usec 100000\nsystem_usec 23456\nnr_periods 0\n".utf8)
        #expect(SysFile.number(after: "usage_usec", in: cpuStat) == 123_456)
        #expect(SysFile.number(after: "system_usec", in: cpuStat) == 23_456)
        #expect(SysFile.number(after: "usage", in: cpuStat) == nil, "a key is a whole word")
        #expect(SysFile.number(after: "nr_throttled", in: cpuStat) == nil)
        #expect(ProcFS.residentBytes(getpid()) > 0)
        #expect(ProcFS.residentBytes(-1) == 0)
    }

    @Test(.enabled(if: DaemonHarness.cgroupsAvailable, "needs root and cgroup v2"))
    func aKeptFreezerFileIsOpenedAgainWhenItsGroupWasMadeAgain() throws {
        let root = ["/sys/fs/cgroup/unified", "/sys/fs/cgroup"].first {
            FileManager.default.fileExists(atPath: "\($0)/cgroup.subtree_control")
        }!
        let group = "\(root)/offstage-test-kept-\(getpid())"
        #expect(SysFile.makeDirectory(group))
        defer { rmdir(group) }
        let files = KeptFiles()
        #expect(files.write("1", app: "test.kept", path: "\(group)/cgroup.freeze"))
        #expect(SysFile.read("\(group)/cgroup.freeze") == "1\n")
        #expect(files.write("0", app: "test.kept", path: "\(group)/cgroup.freeze"))
        #expect(rmdir(group) == 0)
        #expect(SysFile.makeDirectory(group))
        #expect(files.write("1", app: "test.kept", path: "\(group)/cgroup.freeze"))
        #expect(SysFile.read("\(group)/cgroup.freeze") == "1\n", "the write reached the new group")
        #expect(files.write("0", app: "test.kept", path: "\(group)/cgroup.freeze"))
    }
}
