import Foundation
import OffstageCore
import OffstageProtocol
import Testing

/// The daemon after `kill -9` (§11, issue 4): live app processes are re-adopted in the state the core knew,
/// or cleaned up when they cannot be; what the system held (a background push) comes back; OffstageKit's link
/// connects again and pairs every call with its own answer, from any thread.
@Suite(.serialized) struct DaemonRestartTests {
    /// Opens `bundle`, sends it home and waits until it is suspended and frozen; returns its pid.
    func suspended(_ daemon: DaemonHarness, _ bundle: String) throws -> Int32 {
        let pid = try daemon.openAndWait(bundle)
        try daemon.send(.home)
        try daemon.waitUntil("\(bundle) is suspended and frozen") {
            let app = try daemon.app(bundle)
            return app?.state == .suspended && app?.frozen == true && app?.pid == pid
        }
        return pid
    }

    @Test(arguments: testableFreezers)
    func frozenAppIsReadoptedAfterKillNineOfTheDaemon(freezer: String) throws {
        let daemon = try DaemonHarness(freezer: freezer)
        try daemon.install("test.adopted")
        let pid = try suspended(daemon, "test.adopted")
        daemon.killHard()
        #expect(ProcessProbe.isAlive(pid))
        try daemon.start()

        // The same process is managed again, still frozen, as `ctl apps` and the kernel show.
        let adopted = try #require(try daemon.app("test.adopted"))
        #expect(adopted.pid == pid)
        #expect(adopted.state == .suspended)
        #expect(adopted.frozen == true)
        #expect(daemon.kernelShowsFrozen("test.adopted", pid: pid))
        #expect(try daemon.ctl(["apps"]).contains("pid \(pid) frozen"))
        #expect(try daemon.decisions("test.adopted").contains { $0.hasPrefix("adopted: ") })

        // Opening it thaws it; it connects again and answers its life-cycle callbacks.
        try daemon.send(.open("test.adopted"))
        try daemon.waitUntil("the adopted app became active again") {
            try daemon.events("test.adopted").filter { $0 == "became active" }.count == 2
                && daemon.app("test.adopted")?.state == .active
        }
        #expect(try daemon.app("test.adopted")?.pid == pid)
        #expect(!daemon.kernelShowsFrozen("test.adopted", pid: pid))
        #expect(daemon.events("test.adopted").filter { $0.hasPrefix("launched") }.count == 1)

        // A swipe kills it, and the daemon sees the process it did not start end.
        try daemon.send(.swipeAway("test.adopted"))
        try daemon.waitUntil("the adopted process is gone and known to be") {
            try !ProcessProbe.isAlive(pid) && daemon.app("test.adopted")?.pid == nil
        }
    }

    @Test func appOnScreenIsReadoptedOnScreenAndItsLinkConnectsAgain() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.onscreen")
        let pid = try daemon.openAndWait("test.onscreen")
        // Killed before the app answered its launch, the daemon rightly ends it instead (DaemonHardeningTests).
        // The app logs "became active" as soon as the callback reaches it, which can be before the daemon has
        // written that its launch completed (it writes after the call that sent the callback): a control request
        // made after the log is answered only once that call is done.
        try daemon.waitUntil("the app answered its launch callbacks and the daemon wrote it") {
            try daemon.events("test.onscreen").contains("became active")
                && daemon.app("test.onscreen")?.state == .active
        }
        daemon.killHard()
        try daemon.start()
        let adopted = try #require(try daemon.app("test.onscreen"))
        #expect(adopted.pid == pid)
        #expect(adopted.state == .active)
        #expect(adopted.frozen == false)
        // Home reaches the running app over its new connection: its delegate runs, then it is frozen.
        try daemon.send(.home)
        try daemon.waitUntil("the adopted app entered the background and was frozen") {
            let app = try daemon.app("test.onscreen")
            return daemon.events("test.onscreen").contains("entered background") && app?.state == .suspended
                && app?.frozen == true && app?.pid == pid
        }
    }

    /// The Python client (another language, following docs/protocol.md) connects again by itself after the
    /// daemon's crash, and its life-cycle callbacks arrive over the new connection.
    @Test func pythonAppConnectsAgainAfterTheDaemonRestarts() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.python", executable: DaemonHarness.pythonClient, permitted: ["test.python.refresh"])
        let pid = try daemon.openAndWait("test.python")
        // As for the on-screen app above: a control request after the log, so the daemon has written the launch.
        try daemon.waitUntil("the Python app answered its launch callbacks and the daemon wrote it") {
            try daemon.events("test.python").contains("callback applicationDidBecomeActive(_:)")
                && daemon.app("test.python")?.state == .active
        }
        daemon.killHard()
        try daemon.start()
        try daemon.waitUntil("the Python app connected again") { daemon.events("test.python").contains("reconnected") }
        try daemon.send(.home)
        try daemon.waitUntil("the Python app answered didEnterBackground over its new connection and was frozen") {
            let app = try daemon.app("test.python")
            return daemon.events("test.python").contains("callback applicationDidEnterBackground(_:)")
                && app?.state == .suspended && app?.frozen == true && app?.pid == pid
        }
        #expect(!daemon.events("test.python").contains("no daemon"))
    }

    @Test func processThatDiedWhileTheDaemonWasDownIsNotAdopted() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.gone", behaviours: ["later"], permitted: ["test.gone.refresh"])
        let pid = try suspended(daemon, "test.gone")
        daemon.killHard()
        kill(pid, SIGKILL)
        DaemonHarness.waitForExit(pid, timeout: 10)
        try daemon.start()
        let app = try #require(try daemon.app("test.gone"))
        #expect(app.state == .notRunning)
        #expect(app.pid == nil)
        #expect(try daemon.tasks().contains { $0.identifier == "test.gone.refresh" && $0.phase == "pending" })
        #expect(daemon.log.contains("its process \(pid) has ended"))
    }

    @Test func recordedPidNamingAnotherProcessIsNeverAdoptedNorSignalled() throws {
        // With SIGSTOP nothing but the recorded pid names the app's process: the start time must match.
        let daemon = try DaemonHarness(freezer: "sigstop")
        try daemon.install("test.recycled")
        let pid = try suspended(daemon, "test.recycled")
        daemon.killHard()
        // As if the pid had been given to another process since: the recorded start time no longer matches.
        try daemon.sql("UPDATE app SET startTicks = startTicks + 1 WHERE bundle = 'test.recycled'")
        try daemon.start()
        let app = try #require(try daemon.app("test.recycled"))
        #expect(app.state == .notRunning)
        #expect(daemon.log.contains("pid \(pid) now names another process"))
        // Not signalled: the process is still there, still stopped as it was.
        #expect(ProcessProbe.isAlive(pid))
        #expect(daemon.kernelShowsFrozen("test.recycled", pid: pid))
        kill(pid, SIGKILL)
    }

    @Test func heldPushSurvivesKillNineAndIsDeliveredWhenItsConditionLifts() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.held", modes: ["fetch", "processing", "remote-notification"])
        let pid = try suspended(daemon, "test.held")
        // A critically low battery off the charger holds background pushes back.
        try daemon.control(.device(overrides: DeviceOverrides(batteryLevel: 0.05, charging: false), reset: false))
        try daemon.ctl(["push", "test.held", "held-mail"])
        try daemon.waitUntil("the push is held for the critical battery") {
            try daemon.decisions("test.held").contains { $0.hasPrefix("deferred:") && $0.contains("criticalBattery") }
        }
        daemon.killHard()
        try daemon.start()
        #expect(!daemon.events("test.held").contains("push received held-mail"))
        // Plugged in: the held push goes to the adopted process, which is frozen again afterwards.
        try daemon.control(.device(overrides: DeviceOverrides(charging: true), reset: false))
        try daemon.waitUntil("the held push is delivered after the restart") {
            daemon.events("test.held").contains("push received held-mail")
        }
        try daemon.waitUntil("the app is frozen again") {
            let app = try daemon.app("test.held")
            return app?.state == .suspended && app?.frozen == true && app?.pid == pid
        }
    }

    @Test func callsFromManyThreadsOfARealAppEachGetTheirOwnAnswer() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.hammer", behaviours: ["hammer"])
        _ = try daemon.openAndWait("test.hammer")
        try daemon.waitUntil("the app's threads finished calling", timeout: 60) {
            daemon.events("test.hammer").contains { $0.hasPrefix("hammer: ") }
        }
        let summary = daemon.events("test.hammer").filter { $0.hasPrefix("hammer") }
        // 8 threads and the main queue, 50 rounds each: 450 assertions, all different, no answer crossed.
        #expect(summary.first == "hammer: 450 rounds, 450 distinct identifiers, 0 wrong answers", "\(summary)")
        #expect(try daemon.app("test.hammer")?.state == .active)
    }
}
