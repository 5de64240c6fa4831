import OffstageCore
import Testing

@testable import OffstageSimulator

/// The launch model's calibration table (`offstage calibrate`): predictions grouped by probability, each
/// bucket's mean prediction against the share followed by a launch.
@Suite struct LaunchCalibrationTests {
    @Test func predictionsFallInTheirBucketAndCountTheLaunchesThatFollowed() {
        var calibration = LaunchCalibration()
        calibration.add(0.004, launched: false)
        calibration.add(0.25, launched: true)
        calibration.add(0.35, launched: false)
        calibration.add(0.45, launched: true)
        let low = calibration.buckets[0]
        #expect(low.predictions == 1 && low.launches == 0)
        let middle = calibration.buckets.first { $0.lower == 0.3 }!
        #expect(middle.predictions == 2 && middle.launches == 1)
        #expect(abs(middle.meanPredicted - 0.4) < 1e-9)
        #expect(middle.observedRate == 0.5)
        var both = calibration
        both.merge(calibration)
        #expect(both.samples == 8)
        #expect(calibration.table().split(separator: "\n").count == 4)  // a header and the three buckets used
    }

    @Test func runsAreCountedByTheProbabilityActedOnAndByTheSignalThatGaveIt() {
        var calibration = LaunchCalibration()
        let habit = LaunchLikelihood(probability: 0.4, signal: .habit(days: 3, of: 4), window: 900)
        let screen = LaunchLikelihood(probability: 0.12, signal: .screenOn(hour: 8), window: 900)
        calibration.addRun(habit, launched: true)
        calibration.addRun(habit, launched: true, beforeDone: true)  // opened while the run was still under way
        calibration.addRun(habit, launched: false, beforeDone: true)  // no launch: nothing came too early
        calibration.addRun(screen, launched: false)
        #expect(calibration.samples == 0)  // runs are not samples
        #expect(calibration.runsBySignal[.habit]?.predictions == 3)
        #expect(calibration.runsBySignal[.habit]?.launches == 2)
        #expect(calibration.runsBySignal[.habit]?.openedBeforeDone == 1)
        #expect(calibration.runsBySignal[.screenOn]?.launches == 0)
        #expect(calibration.runs.first { $0.lower == 0.3 }?.predictions == 3)
        var both = calibration
        both.merge(calibration)
        #expect(both.runsBySignal[.habit]?.predictions == 6 && both.runsBySignal[.habit]?.openedBeforeDone == 2)
        let lines = calibration.runTables().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains { $0.hasPrefix("habit") && $0.hasSuffix("50.0 %") })  // 1 of the 2 launches came early
        #expect(lines.contains { $0.hasPrefix("screen on") })
        #expect(!lines.contains { $0.hasPrefix("push") })  // a kind no run had is left out
    }
}
