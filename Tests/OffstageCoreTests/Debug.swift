import PropertyBased
import Testing

@testable import OffstageCore

@Test func debugStats() async {
    var starts = 0
    var refresh = 0
    var processing = 0
    var grants = 0
    var kills = 0
    var expired = 0
    var runs = 0
    var sim = 0
    var deferred = 0
    await propertyCheck(count: 150, input: PropertyTests.apps, PropertyTests.honours, PropertyTests.steps) {
        apps, honours, steps in
        let run = PropertyRun(apps: apps, honoursExpiration: honours, steps: steps)
        runs += 1
        let log = run.harness.log
        starts += log.startedTasks.count
        refresh += log.startedTasks.filter { $0.request.kind == .appRefresh }.count
        processing += log.startedTasks.filter { $0.request.kind == .processing }.count
        sim += log.records(.started).filter { $0.reason.contains("simulated") }.count
        grants += log.records(.assertionBegan).count
        kills += log.records(.terminated).filter { $0.reason.contains("watchdog") }.count
        expired += log.records(.expired).count
        deferred += log.records(.deferred).count
    }
    print(
        "runs \(runs) starts \(starts) refresh \(refresh) processing \(processing) sim \(sim) grants \(grants) watchdog kills \(kills) expired \(expired) deferred \(deferred)"
    )
}
