import Testing

@testable import OffstageCore

/// One app's §7 state on its own: a held push replaced and released (counting background wakes toward the rate
/// limit), the fetch backoff, a delivery from waking to handed over to completed, location monitoring, and what
/// outlives the process.
@Suite struct AppBackgroundEventsTests {
    let policy = Policy.iOS

    func at(_ seconds: Double) -> Instant { Instant(seconds: seconds) }

    @Test func aNewerPushReplacesTheHeldOneAndOnlyBackgroundWakesCountTowardTheRateLimit() throws {
        var events = AppBackgroundEvents()
        let first = events.hold(HeldPush(payload: "a", arrivedAt: at(0)))
        let replaced = events.hold(HeldPush(payload: "b", arrivedAt: at(1)))
        #expect(first == nil && replaced?.payload == "a")
        let window = policy.backgroundPushRateWindow
        let onScreen = events.releaseHeldPush(countingWakeAt: nil, window: window)
        let none = events.releaseHeldPush(countingWakeAt: at(2), window: window)
        #expect(onScreen?.payload == "b" && none == nil)
        let limit = policy.backgroundPushRateLimit
        for second in 0..<limit {
            _ = events.hold(HeldPush(payload: "p\(second)", arrivedAt: at(Double(10 + second))))
            _ = events.releaseHeldPush(countingWakeAt: at(Double(10 + second)), window: window)
        }
        let blocker = try #require(events.pushRateLimitBlocker(at: at(20), window: window, limit: limit))
        #expect(blocker.constraint == "pushRateLimit")
        #expect(blocker.until == at(10) + window)
        #expect(events.pushRateLimitBlocker(at: at(10) + window, window: window, limit: limit) == nil)
    }

    @Test func slowOrFailedFetchesDoubleTheBackoffUpToTheLimitAndNewDataRestoresIt() throws {
        var events = AppBackgroundEvents()
        let set = events.setFetchInterval(0, at: at(0))
        let setAgain = events.setFetchInterval(0, at: at(5))
        #expect(set && !setAgain)
        let minimum = policy.minimumBackgroundFetchInterval
        #expect(events.nextFetch(minimumInterval: minimum) == at(0) + minimum)
        let ended = events.fetchEnded(result: .failed, took: 1, at: at(100), policy: policy)
        let failed = try #require(ended)
        #expect(failed.before == 1 && failed.after == 2)
        #expect(events.nextFetch(minimumInterval: minimum) == at(100) + 2 * minimum)
        let noData = events.fetchEnded(result: .noData, took: 1, at: at(200), policy: policy)
        #expect(noData == nil)
        for _ in 0..<10 { _ = events.fetchEnded(result: nil, took: 30, at: at(300), policy: policy) }
        #expect(events.fetchBackoff == Double(policy.maxBackgroundFetchBackoff))
        _ = events.fetchEnded(result: .newData, took: 1, at: at(400), policy: policy)
        #expect(events.fetchBackoff == 1)
    }

    @Test func aDeliveryGetsItsDeadlineWhenHandedOverAndEndsWhenItsHandlerIsCalled() throws {
        var events = AppBackgroundEvents()
        events.beginDelivery(.fetch, token: 7)
        #expect(events.isFetching && events.isHandlingWakeEvent)
        let early = events.completeDelivery(token: 7)
        #expect(early == nil)  // not handed over yet: ignored
        #expect(events.overdueDeliveries(at: at(1000)).isEmpty)
        let handed = events.handOverWaiting(at: at(10), policy: policy)
        #expect(handed.map(\.deadline) == [at(10) + policy.backgroundFetchRuntime])
        let handedAgain = events.handOverWaiting(at: at(11), policy: policy)
        #expect(handedAgain.isEmpty)
        #expect(events.overdueDeliveries(at: at(10) + policy.backgroundFetchRuntime).map(\.token) == [7])
        let answered = events.completeDelivery(token: 7)
        let completed = try #require(answered)
        #expect(completed.event == .fetch && completed.deliveredAt == at(10))
        #expect(!events.hasWork && !events.keepsProcessRunning)
    }

    @Test func aLocationEventWithoutACompletionHandlerCannotBeCompleted() {
        var events = AppBackgroundEvents()
        events.beginDelivery(.location(.significantChange), token: 1)
        _ = events.handOverWaiting(at: at(0), policy: policy)
        let completed = events.completeDelivery(token: 1)
        #expect(!events.isHandlingWakeEvent && completed == nil)
        events.endDelivery(token: 1)
        #expect(events.deliveries.isEmpty)
    }

    @Test func monitoringAndTheScheduleOutliveTheProcessButDeliveriesAndModesDoNot() {
        var events = AppBackgroundEvents()
        let monitored = events.setRegionMonitoring("home", true)
        let monitoredAgain = events.setRegionMonitoring("home", true)
        #expect(monitored && !monitoredAgain)
        #expect(events.monitors(.enteredRegion("home")) && !events.monitors(.significantChange))
        _ = events.setActive(.location, true)
        #expect(events.monitors(.significantChange))
        _ = events.setFetchInterval(60, at: at(0))
        events.beginDelivery(.fetch, token: 1)
        events.clearProcess()
        #expect(events.deliveries.isEmpty && events.activeModes.isEmpty)
        #expect(!events.monitors(.significantChange))
        var restored = AppBackgroundEvents()
        restored.remember(events.memory)
        #expect(restored.memory == events.memory)
        #expect(restored.monitors(.exitedRegion("home")) && restored.fetchInterval == 60)
    }
}
