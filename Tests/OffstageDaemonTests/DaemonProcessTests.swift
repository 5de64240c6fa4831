import Foundation
import OffstageCore
import OffstageProtocol
import Testing

/// The freezers this machine can test: the cgroup v2 freezer needs root; SIGSTOP works everywhere.
let testableFreezers = DaemonHarness.cgroupsAvailable ? ["cgroup2", "sigstop"] : ["sigstop"]
/// The freezer the other tests use: the real one where possible.
let defaultFreezer = testableFreezers[0]

/// The daemon with real processes (§11): freezing, background tasks, expiration, swipe, persistence.
@Suite(.serialized) struct DaemonProcessTests {
    @Test(arguments: testableFreezers)
    func backgroundedAppWithNoWorkIsReallyFrozen(freezer: String) throws {
        let daemon = try DaemonHarness(freezer: freezer)
        try daemon.install("test.spinner", behaviours: ["spin"])
        let pid = try daemon.openAndWait("test.spinner")
        let before = try #require(ProcessProbe.stat(pid)).cpuTicks
        try daemon.waitUntil("the spinner burns CPU while on screen") {
            (ProcessProbe.stat(pid)?.cpuTicks ?? 0) > before + 5
        }
        try daemon.send(.home)
        try daemon.waitUntil("the app is suspended and frozen") {
            let app = try daemon.app("test.spinner")
            return app?.state == .suspended && app?.frozen == true
        }
        if freezer == "cgroup2" {
            let events = try String(
                contentsOfFile: "/sys/fs/cgroup/unified/\(daemon.cgroupName)/test.spinner/cgroup.events",
                encoding: .utf8)
            #expect(events.contains("frozen 1"))
        } else {
            // SIGSTOP reaches each thread on its own: the kernel stops them soon after the daemon's kill().
            try daemon.waitUntil("every thread of the app is stopped") {
                ProcessProbe.threadStates(pid).allSatisfy { $0 == "T" }
            }
        }
        // Frozen means its threads get no CPU at all: the spinner's ticks stand still.
        let frozenTicks = try #require(ProcessProbe.stat(pid)).cpuTicks
        let watchUntil = Date(timeIntervalSinceNow: 0.5)
        while Date() < watchUntil {
            #expect(ProcessProbe.stat(pid)?.cpuTicks == frozenTicks)
            usleep(50_000)
        }
        // Opening it again thaws it: the spinner runs again.
        try daemon.send(.open("test.spinner"))
        try daemon.waitUntil("the spinner runs again after opening") {
            (ProcessProbe.stat(pid)?.cpuTicks ?? 0) > frozenTicks + 5
        }
    }

    /// The daemon's loop runs on a thread it names, at the normal priority, and the apps it spawns inherit that
    /// priority: not the raised one (nice -2) of the Swift-concurrency worker the loop's thread was started from.
    @Test func launchedAppRunsAtTheNormalPriority() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.plain")
        let pid = try daemon.openAndWait("test.plain")
        #expect(ProcessProbe.niceAndName(pid)?.nice == 0)
        let daemonPID = try #require(daemon.daemon?.processIdentifier)
        let loop = ProcessProbe.threads(daemonPID).filter { $0.name == "offstage-loop" }
        #expect(loop.count == 1 && loop.allSatisfy { $0.nice == 0 })
    }

    @Test func backgroundTaskRequestRunsAndTheAppIsFrozenAgain() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.refresher", behaviours: ["refresh"])
        let pid = try daemon.openAndWait("test.refresher")
        try daemon.send(.home)
        try daemon.waitUntil("the refresh task ran and completed") {
            daemon.events("test.refresher").contains("refresh completed")
        }
        try daemon.waitUntil("the app is frozen again") {
            let app = try daemon.app("test.refresher")
            return app?.state == .suspended && app?.frozen == true && app?.pid == pid
        }
        #expect(
            try daemon.decisions("test.refresher").contains {
                $0.hasPrefix("completed: setTaskCompleted(success: true)")
            })
    }

    /// A real app process that registered its launch handler `using: .main` sees it run on its main thread.
    @Test func launchHandlerRegisteredUsingMainRunsOnTheMainThread() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.onmain", behaviours: ["onmain"], permitted: ["test.onmain.onmain"])
        _ = try daemon.openAndWait("test.onmain")
        try daemon.send(.home)
        try daemon.waitUntil("the task registered using .main ran") {
            daemon.events("test.onmain").contains { $0.hasPrefix("onmain started") }
        }
        #expect(daemon.events("test.onmain").contains("onmain started, main thread: true"))
        try daemon.waitUntil("the task completed") {
            try daemon.decisions("test.onmain").contains { $0.hasPrefix("completed: setTaskCompleted(success: true)") }
        }
    }

    /// Installs and opens `test.stuck`, sends it home so its task starts, expires the task, and waits until
    /// the app, which ignores its expiration, is killed.
    func runStuckAppUntilKilled(_ daemon: DaemonHarness) throws {
        try daemon.install("test.stuck", behaviours: ["stuck"])
        let pid = try daemon.openAndWait("test.stuck")
        try daemon.send(.home)
        try daemon.waitUntil("the stuck task started") { daemon.events("test.stuck").contains("stuck started") }
        try daemon.send(.simulateExpiration("test.stuck", identifier: "test.stuck.stuck"))
        try daemon.waitUntil("the app that ignored its expiration is killed") {
            try !ProcessProbe.isAlive(pid) && daemon.app("test.stuck")?.state == .notRunning
        }
    }

    @Test func appIgnoringExpirationIsKilled() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer, policy: ["expirationGrace=0.5"])
        try runStuckAppUntilKilled(daemon)
        #expect(daemon.events("test.stuck").contains("stuck ignores its expiration"))
        #expect(try daemon.decisions("test.stuck").contains { $0.contains("not completed within") })
    }

    @Test func swipeKillsTheProcessGroup() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.forker", behaviours: ["fork"])
        let pid = try daemon.openAndWait("test.forker")
        var child: Int32 = 0
        try daemon.waitUntil("the app started a child process") {
            guard let line = daemon.events("test.forker").first(where: { $0.hasPrefix("child pid ") }) else {
                return false
            }
            child = Int32(line.dropFirst("child pid ".count)) ?? 0
            return child > 0
        }
        #expect(ProcessProbe.isAlive(child))
        try daemon.send(.swipeAway("test.forker"))
        try daemon.waitUntil("the app and its child are gone") {
            !ProcessProbe.isAlive(pid) && !ProcessProbe.isAlive(child)
        }
        #expect(try daemon.app("test.forker")?.forceQuit == true)
    }

    /// Without cgroups, a child that left the app's process group (`setsid`) is still frozen, thawed and killed
    /// with the app, as a cgroup would hold it.
    @Test(.enabled(if: getuid() == 0, "needs root"))
    func aChildInASessionOfItsOwnIsFrozenAndKilledWithTheAppWithoutCgroups() throws {
        let daemon = try DaemonHarness(freezer: "sigstop")
        try daemon.install("test.escaper", behaviours: ["setsid"])
        let pid = try daemon.openAndWait("test.escaper")
        var child: Int32 = 0
        try daemon.waitUntil("the app started a child in a session of its own") {
            guard let line = daemon.events("test.escaper").first(where: { $0.hasPrefix("session child pid ") }) else {
                return false
            }
            child = Int32(line.dropFirst("session child pid ".count)) ?? 0
            return child > 0
        }
        #expect(getsid(child) == child && getsid(child) != getsid(pid), "the child left the app's session")
        try daemon.send(.home)
        try daemon.waitUntil("the app and its child are frozen") {
            daemon.kernelShowsFrozen("test.escaper", pid: pid) && ProcessProbe.threadStates(child) == ["T"]
        }
        try daemon.send(.open("test.escaper"))
        try daemon.waitUntil("the child is thawed with the app") { ProcessProbe.threadStates(child) == ["S"] }
        try daemon.send(.swipeAway("test.escaper"))
        try daemon.waitUntil("the app and its child are gone") {
            !ProcessProbe.isAlive(pid) && !ProcessProbe.isAlive(child)
        }
    }

    /// An open while the app runs `applicationWillTerminate` is queued, not dropped: the app opens in a new
    /// process once the old one has ended.
    @Test func anOpenDuringTheAppsTerminationOpensItOnceItHasEnded() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.slowend", behaviours: ["slowend"])
        let pid = try daemon.openAndWait("test.slowend")
        try daemon.send(.swipeAway("test.slowend"))
        try daemon.waitUntil("the app runs applicationWillTerminate") {
            daemon.events("test.slowend").contains("will terminate")
        }
        let answer = try daemon.ctl(["open", "test.slowend"])
        #expect(answer.contains("it opens once its process has ended"))
        try daemon.waitUntil("the app is active in a new process") {
            guard let app = try daemon.app("test.slowend"), app.state == .active, let live = app.pid else {
                return false
            }
            return live != pid
        }
        #expect(!ProcessProbe.isAlive(pid))
    }

    @Test func pendingRequestsSurviveKillNineOfTheDaemon() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.later", behaviours: ["later"], permitted: ["test.later.refresh"])
        let pid = try daemon.openAndWait("test.later")
        try daemon.send(.home)
        try daemon.waitUntil("the request is pending and the app suspended") {
            try daemon.tasks().contains { $0.identifier == "test.later.refresh" && $0.phase == "pending" }
                && daemon.app("test.later")?.state == .suspended
        }
        daemon.killHard()
        try daemon.start()
        let restored = try daemon.tasks().first { $0.identifier == "test.later.refresh" }
        #expect(restored?.phase == "pending")
        #expect(restored?.waitingFor.contains { $0.hasPrefix("earliestBeginDate") } == true)
        // The app's live process is adopted, still suspended (`DaemonRestartTests` covers adoption).
        #expect(try daemon.app("test.later")?.pid == pid)
        #expect(try daemon.app("test.later")?.state == .suspended)
    }

    @Test func usageCooperationAndEnergySurviveKillNineOfTheDaemon() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer, policy: ["expirationGrace=0.5"])
        try runStuckAppUntilKilled(daemon)
        try daemon.waitUntil("the history is written") { try daemon.status()?.memoryWritePending == false }
        let before = try #require(try daemon.app("test.stuck"))
        #expect(before.launches == 1)
        #expect(before.cooperation < 1)
        #expect(before.usageTier == UsageTier.active.rawValue)
        #expect(before.energyJoules > 0)
        daemon.killHard()
        try daemon.start()
        let after = try #require(try daemon.app("test.stuck"))
        #expect(after.launches == before.launches)
        #expect(after.cooperation == before.cooperation)
        #expect(after.usageTier == before.usageTier)
        #expect(after.energyJoules == before.energyJoules)
        #expect(after.cpuSeconds == before.cpuSeconds)
    }

    @Test func colorFeedRunsUnchangedUnderTheDaemon() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.installColorFeed()
        _ = try daemon.openAndWait("com.colorfeed.wwdc25")
        try daemon.control(.tap(bundle: "com.colorfeed.wwdc25", action: "export"))
        try daemon.waitUntil("the export reports progress", timeout: 15) {
            try daemon.tasks().contains {
                $0.kind == .continuedProcessing && $0.progressTotal == 100 && $0.progressCompleted >= 1
            }
        }
        try daemon.send(.home)
        try daemon.waitUntil("ColorFeed's refresh request waits for its date") {
            try daemon.tasks().contains { $0.identifier == "com.colorfeed.wwdc25.appRefresh" && $0.phase == "pending" }
        }
        #expect(try daemon.app("com.colorfeed.wwdc25")?.state == .background)
    }
}
