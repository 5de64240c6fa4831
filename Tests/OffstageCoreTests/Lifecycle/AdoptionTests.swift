import Foundation
import Testing

@testable import OffstageCore

/// A restarted host takes over live processes (§11, the daemon after `kill -9`): each is adopted in the state
/// the system knew, without a launch or a callback, with its launch handlers; what §7 held comes back too.
@Suite struct AdoptionTests {
    let feed = Fixture.feed
    let mail = Fixture.mail

    /// The actions (launches, resumes, suspensions, callbacks…) among `effects`, records left out.
    func nonRecords(_ effects: [Effect]) -> [Effect] {
        effects.filter { if case .record = $0 { false } else { true } }
    }

    @Test func suspendedProcessIsAdoptedSuspendedWithoutALaunchOrACallback() throws {
        var h = Fixture.harness()
        h.launchAndSuspend(feed)
        let memory = try #require(h.system.app(feed).processMemory)
        #expect(memory.state == .suspended)
        #expect(memory.registered == Set(h.handlers[feed] ?? []))
        #expect(memory.launchCompleted)
        let effects = h.restart(adopting: [feed: memory])
        #expect(h.state(of: feed) == .suspended)
        #expect(nonRecords(effects).isEmpty)
        #expect(
            effects.records(.adopted).map(\.reason) == [
                "the live process of a previous run was adopted: suspended, still frozen"
            ])
        #expect(h.system.app(feed).usage.launches.count == 1)
    }

    @Test func adoptedSuspendedAppIsResumedWithForegroundCallbacksWhenOpened() throws {
        var h = Fixture.harness()
        h.launchAndSuspend(feed)
        h.restart(adopting: [feed: try #require(h.system.app(feed).processMemory)])
        h.advance(by: 10)
        let effects = h.handle(.open(feed))
        #expect(effects.actions.first == .resume(feed))
        #expect(effects.callbacks(of: feed) == [.willEnterForeground, .didBecomeActive])
        #expect(h.state(of: feed) == .active)
    }

    @Test func adoptedBackgroundProcessWithNothingToDoIsSuspendedAtOnce() {
        var h = Fixture.harness()
        let effects = h.restart(adopting: [feed: ProcessMemory(state: .background, registered: [])])
        #expect(nonRecords(effects).contains(.suspend(feed)))
        #expect(h.state(of: feed) == .suspended)
    }

    @Test func adoptedBackgroundProcessPlayingAudioKeepsRunning() {
        var h = CoreHarness(apps: [Fixture.manifest(feed, modes: [.fetch, .audio])])
        let effects = h.restart(adopting: [feed: ProcessMemory(state: .background, activeModes: [.audio])])
        #expect(!nonRecords(effects).contains(.suspend(feed)))
        #expect(h.state(of: feed) == .background)
        #expect(h.system.app(feed).activeBackgroundModes == [.audio])
    }

    @Test func appOnScreenIsAdoptedOnScreenWithoutANewLaunch() throws {
        var h = Fixture.harness()
        h.open(feed)
        h.advance(by: 100)
        let effects = h.restart(adopting: [feed: try #require(h.system.app(feed).processMemory)])
        #expect(nonRecords(effects).allSatisfy { if case .setCPUPriority = $0 { true } else { false } })
        #expect(h.state(of: feed) == .active)
        #expect(h.system.foregroundApp == feed)
        #expect(h.system.app(feed).usage.launches.count == 1)
        h.advance(by: 50)
        let home = h.handle(.home)
        #expect(home.callbacks(of: feed) == [.willResignActive, .didEnterBackground])
        // Time on screen counts before the restart and after it.
        #expect(h.system.app(feed).usage.foregroundSeconds == 150)
    }

    @Test func secondAppClaimingTheScreenIsSentToTheBackground() {
        var h = Fixture.harness([feed, mail])
        let effects = h.restart(adopting: [
            feed: ProcessMemory(state: .active), mail: ProcessMemory(state: .active),
        ])
        #expect(h.system.foregroundApp == feed)
        #expect(effects.callbacks(of: mail) == [.willResignActive, .didEnterBackground])
        #expect(h.state(of: mail) == .suspended)
    }

    @Test func adoptedProcessKeepsItsLaunchHandlers() throws {
        var h = Fixture.harness()
        h.launchAndSuspend(feed)
        h.restart(adopting: [feed: try #require(h.system.app(feed).processMemory)])
        let request = Fixture.refreshRequest(feed)
        // Submitting without a registered handler would crash the app; the adopted process registered it before.
        #expect(h.submit(request, from: feed) == .ok)
        h.call(.simulateLaunch(identifier: request.identifier), from: feed)
        #expect(h.log.startedTasks.map(\.request.identifier) == [request.identifier])
        #expect(h.log.records(.crashed).isEmpty)
    }

    @Test func appWithoutAProcessHasNoProcessMemoryAndAnAppWithOneIsNotAdoptedAgain() throws {
        var h = Fixture.harness()
        #expect(h.system.app(feed).processMemory == nil)
        h.launchAndSuspend(feed)
        let memory = try #require(h.system.app(feed).processMemory)
        var system = h.system
        let again = system.adoptProcess(feed, ProcessMemory(state: .active), at: h.now)
        #expect(
            again.records.map(\.reason) == [
                "cannot adopt a process: the app is not installed, already runs, or none was left"
            ])
        #expect(system.app(feed).processMemory == memory)
    }

    @Test func restartedSystemGoesOnFromTheSnapshotsTokenAndTaskCounters() throws {
        var h = Fixture.harness()
        h.launchAndSuspend(feed)
        h.submit(Fixture.refreshRequest(feed), from: feed)
        h.advance(by: 1)
        let before = SystemSnapshot(of: h.system)
        #expect(before.nextToken > 1)
        #expect(before.nextTaskID > 1)
        h.restart()
        let effects = h.handle(.open(feed))
        let tokens = effects.compactMap { if case .deliver(_, _, let token) = $0 { token } else { nil } }
        #expect(tokens.allSatisfy { $0 >= before.nextToken })
        #expect(!tokens.isEmpty)
    }
}
