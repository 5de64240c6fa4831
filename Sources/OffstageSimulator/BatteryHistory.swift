public import OffstageCore

/// The simulated battery over a run: its level and whether it was charging, as the simulator saw them after
/// each step. Reports draw the battery curve from it (records only name explicit levels).
public struct BatteryHistory: Sendable {
    /// The battery at one instant.
    public struct Sample: Hashable, Sendable {
        public var at: Instant
        /// The level, 0–1.
        public var level: Double
        public var isCharging: Bool

        public init(at: Instant, level: Double, isCharging: Bool) {
            self.at = at
            self.level = level
            self.isCharging = isCharging
        }
    }

    /// The kept samples, oldest first: enough to draw the curve, not every step of a year-long run.
    public private(set) var samples: [Sample] = []
    /// The last step seen but not kept: kept too when the next kept one follows, so a jump starts from where
    /// the level really was.
    private var unkept: Sample?

    /// A sample is kept when the level moved by this much since the last kept one…
    static let levelStep = 0.005
    /// …or the charger changed, or this many seconds passed.
    static let timeStep = 3600.0

    public init() {}

    /// Takes the battery after one step of the simulation; keeps it if it moved enough to show.
    mutating func observe(_ sample: Sample) {
        guard let last = samples.last else { return samples.append(sample) }
        let moved =
            sample.isCharging != last.isCharging || abs(sample.level - last.level) >= Self.levelStep
            || sample.at - last.at >= Self.timeStep
        guard moved else {
            unkept = sample
            return
        }
        keep(sample)
    }

    /// Keeps a sample whatever it shows (the level just before the timeline sets it).
    mutating func keep(_ sample: Sample) {
        if let unkept, unkept.at > samples.last?.at ?? .zero, unkept.at < sample.at { samples.append(unkept) }
        unkept = nil
        samples.append(sample)
    }

    /// Ends the history with the last step seen, so the curve reaches the end of the run.
    mutating func finish() {
        if let unkept, unkept.at > samples.last?.at ?? .zero { samples.append(unkept) }
        unkept = nil
    }
}
