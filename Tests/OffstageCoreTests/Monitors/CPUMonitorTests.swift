import Testing

@testable import OffstageCore

/// The CPU monitor's windows and the CPU priorities kept for hosts, on their own (§5 resources, foreground first).
@Suite struct CPUMonitorTests {
    let app = BundleID("com.example.feed")

    func at(_ seconds: Double) -> Instant { Instant(seconds: seconds) }

    @Test func theMonitorAnswersOnlyOnceItHasWatchedAWholeWindow() {
        var monitor = CPUMonitor()
        let report = ResourceUsage(cpuSeconds: 10, interval: 10)
        let firstReport = monitor.add(report, of: app, at: at(10), window: 60)
        #expect(firstReport == nil)
        #expect(monitor.watches(app))
        for end in stride(from: 20.0, through: 50, by: 10) {
            let partWindow = monitor.add(report, of: app, at: at(end), window: 60)
            #expect(partWindow == nil)
        }
        let wholeWindow = monitor.add(report, of: app, at: at(60), window: 60)
        #expect(wholeWindow == 60)
        // The oldest report leaves the window as it slides on.
        let slidWindow = monitor.add(ResourceUsage(cpuSeconds: 0, interval: 10), of: app, at: at(70), window: 60)
        #expect(slidWindow == 50)
    }

    @Test func aForgottenWindowStartsAfresh() {
        var monitor = CPUMonitor()
        _ = monitor.add(ResourceUsage(cpuSeconds: 60, interval: 60), of: app, at: at(60), window: 60)
        monitor.forget(app)
        #expect(!monitor.watches(app))
        let afresh = monitor.add(ResourceUsage(cpuSeconds: 10, interval: 10), of: app, at: at(70), window: 60)
        #expect(afresh == nil)
    }

    @Test func aPriorityCountsAsChangedOnlyWhenItDiffers() {
        var priorities = CPUPriorities()
        let changed = priorities.update(app, to: .background)
        #expect(changed)
        let same = priorities.update(app, to: .background)
        #expect(!same)
        #expect(priorities.priority(of: app) == .background)
        let stopped = priorities.update(app, to: nil)
        #expect(stopped)
        #expect(priorities.priority(of: app) == nil)
    }
}
