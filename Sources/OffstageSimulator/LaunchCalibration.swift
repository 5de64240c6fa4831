import Foundation
public import OffstageCore

/// How well the launch model's probabilities match what users did: each user's replay under Offstage's policy
/// is sampled every `interval` seconds, each app's likelihood of a launch within the window read from the core,
/// and compared with whether the trace opened the app in that window. Grouped in buckets of predicted
/// probability, a calibrated model's observed launch rate matches each bucket's mean prediction. The refreshes
/// the judgement ran are measured the same way, at the likelihood it acted on, by bucket and by the signal that
/// gave it: the decisions' calibration, which the samples (mostly quiet hours) do not show.
public struct LaunchCalibration: Hashable, Sendable, Codable {
    /// Predictions whose probability fell in [lower, upper): how many, their mean, and how many were followed
    /// by a launch of the app within the window.
    public struct Bucket: Hashable, Sendable, Codable {
        public var lower: Double
        public var upper: Double
        public var predictions = 0
        public var predictedSum = 0.0
        public var launches = 0
        /// Of the runs followed by a launch, those whose launch came before the run had finished: the user saw
        /// the content it was refreshing still stale (counted for runs only).
        public var openedBeforeDone = 0

        public var meanPredicted: Double { predictions > 0 ? predictedSum / Double(predictions) : 0 }
        public var observedRate: Double { predictions > 0 ? Double(launches) / Double(predictions) : 0 }

        /// Counts one prediction, whether a launch followed it, and whether that launch came before the run ended.
        mutating func add(_ probability: Double, launched: Bool, beforeDone: Bool = false) {
            predictions += 1
            predictedSum += probability
            if launched { launches += 1 }
            if launched && beforeDone { openedBeforeDone += 1 }
        }

        /// A bucket over every probability: a signal's runs, whatever they were taken at.
        static let anyProbability = Bucket(lower: 0, upper: 1)

        /// Adds another bucket's counts over the same range.
        mutating func merge(_ other: Bucket) {
            predictions += other.predictions
            predictedSum += other.predictedSum
            launches += other.launches
            openedBeforeDone += other.openedBeforeDone
        }
    }

    /// The buckets' upper bounds: fine where most predictions lie (near 0), coarse above.
    public static let bounds = [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0001]

    /// The samples taken every `interval` seconds, by predicted probability.
    public var buckets: [Bucket]
    /// The app refreshes the judgement ran, by the probability it acted on.
    public var runs: [Bucket]
    /// The same runs by the signal that gave the probability (`LaunchSignal.Kind`), in the kinds' order.
    public var runsBySignal: [LaunchSignal.Kind: Bucket]
    /// Predictions made after the model had learnt enough to judge (`likelihoodLearningDays`); earlier ones are not counted.
    public var samples: Int { buckets.reduce(0) { $0 + $1.predictions } }
    /// The refresh runs the judgement took once the model had learnt enough to judge.
    public var runCount: Int { runs.reduce(0) { $0 + $1.predictions } }

    public init() {
        var lower = 0.0
        buckets = Self.bounds.map { upper in
            defer { lower = upper }
            return Bucket(lower: lower, upper: upper)
        }
        runs = buckets
        runsBySignal = [:]
    }

    /// Adds one sampled prediction and whether a launch followed it.
    mutating func add(_ probability: Double, launched: Bool) {
        guard let index = buckets.firstIndex(where: { probability < $0.upper }) else { return }
        buckets[index].add(probability, launched: launched)
    }

    /// Adds one refresh run the judgement took at `likelihood`, whether a launch followed it, and whether that
    /// launch came before the run had finished.
    mutating func addRun(_ likelihood: LaunchLikelihood, launched: Bool, beforeDone: Bool = false) {
        guard let index = runs.firstIndex(where: { likelihood.probability < $0.upper }) else { return }
        runs[index].add(likelihood.probability, launched: launched, beforeDone: beforeDone)
        runsBySignal[likelihood.signal.kind, default: .anyProbability].add(
            likelihood.probability, launched: launched, beforeDone: beforeDone)
    }

    /// Adds another calibration's counts (another user's).
    mutating func merge(_ other: LaunchCalibration) {
        for index in buckets.indices {
            buckets[index].merge(other.buckets[index])
            runs[index].merge(other.runs[index])
        }
        for (kind, bucket) in other.runsBySignal {
            runsBySignal[kind, default: .anyProbability].merge(bucket)
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
        let records = simulation.run()
        var launches: [BundleID: [Instant]] = [:]
        for record in records where record.kind == .contentAge {
            if let app = record.app { launches[app, default: []].append(record.at) }
        }
        let window = Evaluation.freshWithin
        var ends: [BundleID: [(at: Instant, task: String?)]] = [:]
        for record in records where record.kind == .completed || record.kind == .expired || record.kind == .killed {
            if let app = record.app { ends[app, default: []].append((record.at, record.task)) }
        }
        func firstLaunch(_ app: BundleID, after time: Instant) -> Instant? {
            launches[app]?.first { $0 > time && $0 <= time + window }
        }
        func launched(_ app: BundleID, after time: Instant) -> Bool { firstLaunch(app, after: time) != nil }
        var calibration = LaunchCalibration()
        for (app, time, probability) in samples.taken {
            calibration.add(probability, launched: launched(app, after: time))
        }
        for record in records where record.kind == .prediction {
            guard let app = record.app, case .launchLikelihood(let likelihood) = record.detail else { continue }
            let launch = firstLaunch(app, after: record.at)
            let end = ends[app]?.first { $0.at >= record.at && $0.task == record.task }?.at  // this run's task's end
            calibration.addRun(
                likelihood, launched: launch != nil,
                beforeDone: launch.map { at in end.map { at < $0 } ?? true } ?? false)
        }
        return calibration
    }

    /// The samples a replay takes, filled by the step observer on the simulation's driver thread.
    private final class SampleBox: @unchecked Sendable {
        var next = Instant(seconds: 0)
        var taken: [(app: BundleID, at: Instant, probability: Double)] = []
    }

    /// The samples' table: each bucket's predictions, mean predicted probability and observed launch rate.
    public func table() -> String { Self.table(buckets.map { (Self.range(of: $0), $0) }, counting: "samples") }

    /// The runs' tables: by the probability the judgement acted on, then by the signal that gave it; each with the
    /// share of the launches that followed which came before the run had finished (too late to be served by it).
    public func runTables() -> String {
        let bySignal = LaunchSignal.Kind.allCases.compactMap { kind in runsBySignal[kind].map { (kind.words, $0) } }
        return Self.table(runs.map { (Self.range(of: $0), $0) }, counting: "runs", beforeDone: true) + "\n\n"
            + Self.table(bySignal, counting: "runs", heading: "signal", beforeDone: true)
    }

    /// A table of buckets, each on a line under its label; empty buckets left out.
    private static func table(
        _ rows: [(String, Bucket)], counting: String, heading: String = "predicted", beforeDone: Bool = false
    ) -> String {
        let width = max(13, heading.count, rows.map(\.0.count).max() ?? 0)
        var lines = [
            heading.padding(toLength: width, withPad: " ", startingAt: 0) + " " + counting.leftPadded(8)
                + "  mean predicted  observed launch rate" + (beforeDone ? "  opened before it finished" : "")
        ]
        for (label, bucket) in rows where bucket.predictions > 0 {
            let early = bucket.launches > 0 ? Double(bucket.openedBeforeDone) / Double(bucket.launches) : 0
            lines.append(
                label.padding(toLength: width, withPad: " ", startingAt: 0) + " "
                    + String(bucket.predictions).leftPadded(8) + "  "
                    + Self.percent(bucket.meanPredicted, decimals: 1).leftPadded(14) + "  "
                    + Self.percent(bucket.observedRate, decimals: 1).leftPadded(20)
                    + (beforeDone ? "  " + Self.percent(early, decimals: 1).leftPadded(26) : ""))
        }
        return lines.joined(separator: "\n")
    }

    /// "10 %–20 %": a bucket's range.
    private static func range(of bucket: Bucket) -> String {
        "\(percent(bucket.lower))–\(percent(min(1, bucket.upper)))"
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
