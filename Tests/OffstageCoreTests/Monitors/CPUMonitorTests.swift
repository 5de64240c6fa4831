import Testing

@testable import OffstageCore

/// The CPU monitor's windows and the CPU priorities kept for hosts, on their own (§5 resources, foreground first).
@Suite struct CPUMonitorTests {
    /// The app's installation position: the monitors keep their tables by it (`AppSlots`).
    let app = 3

    func at(_ seconds: Double) -> Instant { Instant(seconds: seconds) }

    @Test func theMonitorAnswersOnlyOnceItHasWatchedAWholeWindow() {
        var monitor = CPUMonitor()
        let report = ResourceUsage(cpuSeconds: 10, interval: 10)
        let firstReport = monitor.add(report, at: app, now: at(10), window: 60)
        #expect(firstReport == nil)
        #expect(monitor.watches(at: app))
        for end in stride(from: 20.0, through: 50, by: 10) {
            let partWindow = monitor.add(report, at: app, now: at(end), window: 60)
            #expect(partWindow == nil)
        }
        let wholeWindow = monitor.add(report, at: app, now: at(60), window: 60)
        #expect(wholeWindow == 60)
        // The oldest report leaves the window as it slides on.
        let slidWindow = monitor.add(ResourceUsage(cpuSeconds: 0, interval: 10), at: app, now: at(70), window: 60)
        #expect(slidWindow == 50)
    }

    @Test func aForgottenWindowStartsAfresh() {
        var monitor = CPUMonitor()
        _ = monitor.add(ResourceUsage(cpuSeconds: 60, interval: 60), at: app, now: at(60), window: 60)
        monitor.forget(at: app)
        #expect(!monitor.watches(at: app))
        let afresh = monitor.add(ResourceUsage(cpuSeconds: 10, interval: 10), at: app, now: at(70), window: 60)
        #expect(afresh == nil)
    }

    @Test func aPriorityCountsAsChangedOnlyWhenItDiffers() {
        var priorities = CPUPriorities()
        let changed = priorities.update(at: app, to: .background)
        #expect(changed)
        let same = priorities.update(at: app, to: .background)
        #expect(!same)
        #expect(priorities.priority(at: app) == .background)
        let stopped = priorities.update(at: app, to: nil)
        #expect(stopped)
        #expect(priorities.priority(at: app) == nil)
    }

    @Test func appSlotsKeepAValueForEachPositionAndNoneForTheOthers() {
        var slots = AppSlots<Int>()
        slots[5] = nil  // forgetting past the end makes no room
        #expect(slots[5] == nil)
        slots[4] = 40
        slots[1, default: 0] += 10
        slots[1, default: 0] += 10
        #expect(slots[4] == 40 && slots[1] == 20)
        #expect(slots[0] == nil && slots[2] == nil && slots[9] == nil)
        slots[4] = nil
        #expect(slots[4] == nil && slots[1] == 20)
    }
}
