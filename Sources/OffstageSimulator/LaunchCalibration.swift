import Foundation
public import OffstageCore

/// How well the launch model's probabilities match what users did (issue 15 item 1): each user's replay under
/// Offstage's policy is sampled every `interval` seconds, each app's likelihood of a launch within the window
/// read from the core, and compared with whether the trace opened the app in that window. Grouped in buckets
/// of predicted probability, a calibrated model's observed launch rate matches each bucket's mean prediction.
public struct LaunchCalibration: Hashable, Sendable, Codable {
    /// Predictions whose probability fell in [lower, upper): how many, their mean, and how many were followed
    /// by a launch of the app within the window.
    public struct Bucket: Hashable, Sendable, Codable {
        public var lower: Double
        public var upper: Double
        public var predictions = 0
        public var predictedSum = 0.0
        public var launches = 0

        public var meanPredicted: Double { predictions > 0 ? predictedSum / Double(predictions) : 0 }
        public var observedRate: Double { predictions > 0 ? Double(launches) / Double(predictions) : 0 }
    }

    /// The buckets' upper bounds: fine where most predictions lie (near 0), coarse above.
    public static let bounds = [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0001]

    public var buckets: [Bucket]
    /// Predictions made after the model had learnt enough to judge (`likelihoodLearningDays`); earlier ones are not counted.
    public var samples: Int { buckets.reduce(0) { $0 + $1.predictions } }

    public init() {
        var lower = 0.0
        buckets = Self.bounds.map { upper in
            defer { lower = upper }
            return Bucket(lower: lower, upper: upper)
        }
    }

    /// Adds one prediction and whether a launch followed it.
    mutating func add(_ probability: Double, launched: Bool) {
        guard let index = buckets.firstIndex(where: { probability < $0.upper }) else { return }
        buckets[index].predictions += 1
        buckets[index].predictedSum += probability
        if launched { buckets[index].launches += 1 }
    }

    /// Adds another calibration's counts (another user's).
    mutating func merge(_ other: LaunchCalibration) {
        for index in buckets.indices {
            buckets[index].predictions += other.buckets[index].predictions
            buckets[index].predictedSum += other.buckets[index].predictedSum
            buckets[index].launches += other.buckets[index].launches
        }
    }

    /// Measures every user of the trace (one replay each, under Offstage's policy with `policy`'s numbers).
    public static func measure(_ trace: UsageTrace, policy: Policy = .iOS, interval: Double = 300) -> LaunchCalibration
    {
        var total = LaunchCalibration()
        for user in trace.users { total.merge(measure(user, of: trace, policy: policy, interval: interval)) }
        return total
    }

    /// One user's replay, sampled every `interval` seconds (a tick at each, so the core is read on time).
    static func measure(_ user: String, of trace: UsageTrace, policy: Policy, interval: Double) -> LaunchCalibration {
        var scenario = TraceReplay.scenario(for: user, in: trace, policy: policy)
        scenario.strategy = .judgement
        let apps = scenario.apps.map(\.manifest.bundleIdentifier)
        scenario.timeline += stride(from: interval, to: scenario.duration ?? 0, by: interval).map {
            TimelineEntry(at: $0, action: .system(.tick))
        }
        scenario.timeline.sort { $0.at < $1.at }  // stable: a tick after the user's moves at the same instant
        // Declarative apps only: the catalog is never consulted, so making the simulation cannot fail.
        let simulation = try! Simulation(scenario: scenario)
        let samples = SampleBox()
        simulation.stepObserver = { system in
            guard system.now >= samples.next else { return }
            samples.next = system.now + interval
            for app in apps {
                let likelihood = system.launchLikelihood(of: app)
                guard likelihood.learnt else { continue }
                samples.taken.append((app, system.now, likelihood.probability))
            }
        }
        let launches = simulation.run().filter { $0.kind == .contentAge }
        var calibration = LaunchCalibration()
        let window = Evaluation.freshWithin
        for (app, time, probability) in samples.taken {
            let launched = launches.contains { $0.app == app && $0.at > time && $0.at <= time + window }
            calibration.add(probability, launched: launched)
        }
        return calibration
    }

    /// The samples a replay takes, filled by the step observer on the simulation's driver thread.
    private final class SampleBox: @unchecked Sendable {
        var next = Instant(seconds: 0)
        var taken: [(app: BundleID, at: Instant, probability: Double)] = []
    }

    /// The table: each bucket's predictions, mean predicted probability and observed launch rate.
    public func table() -> String {
        var lines = ["predicted      samples  mean predicted  observed launch rate"]
        for bucket in buckets where bucket.predictions > 0 {
            let range = "\(Self.percent(bucket.lower))–\(Self.percent(min(1, bucket.upper)))"
            lines.append(
                range.padding(toLength: 13, withPad: " ", startingAt: 0) + " "
                    + String(bucket.predictions).leftPadded(8) + "  "
                    + Self.percent(bucket.meanPredicted, decimals: 1).leftPadded(14) + "  "
                    + Self.percent(bucket.observedRate, decimals: 1).leftPadded(20))
        }
        return lines.joined(separator: "\n")
    }

    private static func percent(_ share: Double, decimals: Int = 0) -> String {
        let scale = decimals == 0 ? 1.0 : 10.0
        let value = (share * 100 * scale).rounded() / scale
        return decimals == 0 ? "\(Int(value)) %" : "\(value) %"
    }
}

extension String {
    /// The string right-aligned in `width` characters.
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
