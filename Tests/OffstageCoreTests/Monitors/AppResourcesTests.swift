import Testing

@testable import OffstageCore

/// An app's resources as the host reports them (`AppResources`): the footprint is the last report, the usage
/// adds up across reports and is taken back whole after a restart.
@Suite struct AppResourcesTests {
    @Test func theFootprintIsTheLastReportAndNeverNegative() {
        var resources = AppResources(memoryFootprint: 20_000_000)
        #expect(resources.memoryFootprint == 20_000_000)
        resources.noteFootprint(60_000_000)
        #expect(resources.memoryFootprint == 60_000_000)
        resources.noteFootprint(-5)
        #expect(resources.memoryFootprint == 0)
    }

    @Test func usageAddsUpAcrossReportsAndARestoreTakesItBackWhole() {
        var resources = AppResources(memoryFootprint: 0)
        resources.noteUsage(ResourceUsage(cpuSeconds: 1.5, cellularBytes: 1_000, interval: 10))
        resources.noteUsage(ResourceUsage(cpuSeconds: 0.5, wifiBytes: 300, cellularBytes: Int.max, interval: 5))
        #expect(resources.totalUsage.cpuSeconds == 2)
        #expect(resources.totalUsage.wifiBytes == 300)
        #expect(resources.totalUsage.cellularBytes == Int.max, "a byte count saturates instead of trapping")
        #expect(resources.totalUsage.interval == 15)
        resources.restore(totalUsage: ResourceUsage(gpuSeconds: 3))
        #expect(resources.totalUsage == ResourceUsage(gpuSeconds: 3))
    }
}
