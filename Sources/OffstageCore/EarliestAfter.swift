/// The earliest of the times noted that are after a given instant: a deadline search without arrays.
struct EarliestAfter {
    let after: Instant
    private(set) var earliest: Instant?

    init(_ after: Instant) { self.after = after }

    /// Keeps `time` if it is after the bound and earlier than any kept so far.
    mutating func note(_ time: Instant?) {
        guard let time, time > after, earliest.map({ time < $0 }) ?? true else { return }
        earliest = time
    }
}
