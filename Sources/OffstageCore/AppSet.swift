/// A set of installed apps, kept as one bit per installation position (`AppTable.position(of:)`):
/// marking or testing an app is a bit operation, not a hash, and members come out in installation order.
/// The first 64 apps' bits live in the set itself, so a device of up to 64 apps never allocates for one.
struct AppSet: Sequence, Sendable {
    /// The bits of positions 0–63.
    private var first: UInt64 = 0
    /// The bits of positions 64 and up, 64 per word.
    private var rest: [UInt64] = []
    /// How many apps are in the set.
    private(set) var count = 0

    /// Whether no app is in the set.
    var isEmpty: Bool { count == 0 }

    /// Adds the app at `position`.
    mutating func insert(_ position: Int) {
        guard !contains(position) else { return }
        if position < 64 {
            first |= 1 << position
        } else {
            let word = position / 64 - 1
            if word >= rest.count { rest += repeatElement(0, count: word - rest.count + 1) }
            rest[word] |= 1 << (position % 64)
        }
        count += 1
    }

    /// Removes the app at `position`, if it is in the set.
    mutating func remove(_ position: Int) {
        guard contains(position) else { return }
        if position < 64 { first &= ~(1 << position) } else { rest[position / 64 - 1] &= ~(1 << (position % 64)) }
        count -= 1
    }

    /// Whether the app at `position` is in the set.
    func contains(_ position: Int) -> Bool {
        if position < 64 { return first & (1 << position) != 0 }
        let word = position / 64 - 1
        return word < rest.count && rest[word] & (1 << (position % 64)) != 0
    }

    /// Adds every app of `other`.
    mutating func formUnion(_ other: AppSet) {
        first |= other.first
        if other.rest.count > rest.count { rest += repeatElement(0, count: other.rest.count - rest.count) }
        count = first.nonzeroBitCount
        for index in rest.indices {
            if index < other.rest.count { rest[index] |= other.rest[index] }
            count += rest[index].nonzeroBitCount
        }
    }

    /// Empties the set, keeping its storage.
    mutating func removeAll() {
        first = 0
        for index in rest.indices { rest[index] = 0 }
        count = 0
    }

    /// The positions in the set, in ascending (installation) order, read from the bits as they were.
    func makeIterator() -> Positions { Positions(first: first, rest: rest) }

    /// Walks the set bits, lowest first.
    struct Positions: IteratorProtocol {
        let rest: [UInt64]
        /// The word being walked: -1 for `first`, else an index into `rest`.
        var word = -1
        var bits: UInt64

        init(first: UInt64, rest: [UInt64]) {
            self.rest = rest
            bits = first
        }

        mutating func next() -> Int? {
            while bits == 0 {
                word += 1
                guard word < rest.count else { return nil }
                bits = rest[word]
            }
            defer { bits &= bits - 1 }
            return (word + 1) * 64 + bits.trailingZeroBitCount
        }
    }

    var underestimatedCount: Int { count }
}
