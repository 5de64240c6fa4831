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
}
