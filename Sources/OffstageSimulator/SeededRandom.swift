/// SplitMix64: a small, fast generator whose sequence depends only on its seed.
/// The simulator draws every random number from one, so a run is a function of (scenario, seed).
struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in [0, 1), from the top 53 bits of the next draw.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Seconds for a work duration: the fixed value, or a uniform draw from the range.
    mutating func seconds(_ duration: WorkDuration) -> Double {
        switch duration {
        case .fixed(let seconds): return seconds
        case .between(let low, let high):
            guard high > low else { return low }
            return ((low + unit() * (high - low)) * 10).rounded() / 10
        }
    }
}
