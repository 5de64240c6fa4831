import Testing

@testable import OffstageCore

/// One app's life cycle on its own (§2): the launch callbacks one at a time with their states and watchdogs,
/// background time started and stopped by the moves, assertions numbered from 1 per process, a polite termination,
/// and adoption.
@Suite struct AppLifecycleTests {
    let policy = Policy.iOS

    func at(_ seconds: Double) -> Instant { Instant(seconds: seconds) }

    /// Delivers every queued callback, each returning at once; the callbacks in the order delivered.
    func deliverAll(_ lifecycle: inout AppLifecycle, at time: Instant) -> [LifecycleCallback] {
        var delivered: [LifecycleCallback] = []
        var token = 1
        while lifecycle.hasCallbackToDeliver {
            let callback = lifecycle.deliverNextCallback(token: token, at: time, policy: policy)
            delivered.append(callback)
            _ = lifecycle.callbackReturned(token: token)
            token += 1
        }
        return delivered
    }

    @Test func aBackgroundLaunchDeliversTheLaunchCallbacksAndStartsTheBackgroundTime() {
        var lifecycle = AppLifecycle()
        lifecycle.launch(.backgroundTask)
        #expect(lifecycle.projectedState == .background && lifecycle.state == .notRunning)
        #expect(!lifecycle.isReadyForWork)
        let delivered = deliverAll(&lifecycle, at: at(5))
        #expect(delivered == [.willFinishLaunching, .didFinishLaunching, .didEnterBackground])
        #expect(lifecycle.state == .background && lifecycle.backgroundSince == at(5))
        #expect(lifecycle.launchCompleted && lifecycle.isReadyForWork && !lifecycle.keepsProcessRunning)
    }

    @Test func aCallbackInFlightHasItsWatchdogAndOnlyItsTokenEndsIt() {
        var lifecycle = AppLifecycle()
        lifecycle.launch(.user)
        let callback = lifecycle.deliverNextCallback(token: 7, at: at(0), policy: policy)
        #expect(callback == .willFinishLaunching && lifecycle.state == .inactive)
        #expect(lifecycle.inFlight?.deadline == policy.watchdogTimeout(for: .willFinishLaunching).map { at(0) + $0 })
        #expect(!lifecycle.hasCallbackToDeliver)
        let wrong = lifecycle.callbackReturned(token: 8)
        let right = lifecycle.callbackReturned(token: 7)
        #expect(wrong == nil && right == .willFinishLaunching && lifecycle.inFlight == nil)
    }

    @Test func comingToTheForegroundStopsTheBackgroundTimeAndSuspensionFreezesTheProcess() {
        var lifecycle = AppLifecycle()
        lifecycle.launch(.backgroundTask)
        _ = deliverAll(&lifecycle, at: at(0))
        lifecycle.noteAssertionsWarned()
        lifecycle.queue([.willEnterForeground, .didBecomeActive])
        _ = deliverAll(&lifecycle, at: at(10))
        #expect(lifecycle.state == .active && lifecycle.backgroundSince == nil && !lifecycle.assertionsWarned)
        lifecycle.queue([.willResignActive, .didEnterBackground])
        _ = deliverAll(&lifecycle, at: at(20))
        #expect(lifecycle.backgroundSince == at(20))
        lifecycle.suspend()
        #expect(lifecycle.state == .suspended && lifecycle.backgroundSince == nil)
        lifecycle.resume(at: at(30), then: [.didEnterBackground])
        #expect(lifecycle.state == .background && lifecycle.backgroundSince == at(30) && lifecycle.hasCallbackToDeliver)
    }

    @Test func assertionsAreNumberedFromOneInEachProcess() {
        var lifecycle = AppLifecycle()
        let first = lifecycle.beginAssertion(named: "upload")
        let second = lifecycle.beginAssertion(named: nil)
        #expect((first, second) == (1, 2) && lifecycle.assertions == [1: "upload", 2: ""])
        #expect(lifecycle.keepsProcessRunning)
        let ended = lifecycle.endAssertion(1)
        let endedAgain = lifecycle.endAssertion(1)
        #expect(ended && !endedAgain)
        lifecycle.clearProcess()
        let inTheNextProcess = lifecycle.beginAssertion(named: nil)
        #expect(inTheNextProcess == 1)
    }

    @Test func aPoliteTerminationDeliversOnlyWillTerminate() {
        var lifecycle = AppLifecycle()
        lifecycle.launch(.user)
        lifecycle.beginTermination(.userForceQuit)
        #expect(lifecycle.queuedCallbacks == [.willTerminate] && lifecycle.terminating == .userForceQuit)
        #expect(!lifecycle.isReadyForWork && lifecycle.keepsProcessRunning)
    }

    @Test func anAdoptedBackgroundProcessGetsItsBackgroundTimeAnew() {
        var lifecycle = AppLifecycle()
        let memory = ProcessMemory(
            state: .background, launchReason: .backgroundTask, launchCompleted: true, registered: ["refresh"])
        lifecycle.adopt(memory, at: at(100))
        #expect(lifecycle.state == .background && lifecycle.backgroundSince == at(100))
        #expect(lifecycle.registered == ["refresh"] && lifecycle.launchReason == .backgroundTask)
        #expect(lifecycle.isReadyForWork && lifecycle.inFlight == nil)
    }
}
