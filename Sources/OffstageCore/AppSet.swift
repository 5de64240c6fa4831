/// A set of installed apps, kept as one bit per installation position (`AppTable.position(of:)`):
/// marking or testing an app is a bit operation, not a hash, and members come out in installation order.
struct AppSet: Sequence, Sendable {
    private var words: [UInt64] = []
    /// How many apps are in the set.
    private(set) var count = 0

    /// Whether no app is in the set.
    var isEmpty: Bool { count == 0 }

    /// Adds the app at `position`.
    mutating func insert(_ position: Int) {
        let (word, bit) = position.quotientAndRemainder(dividingBy: 64)
        if word >= words.count { words += repeatElement(0, count: word - words.count + 1) }
        guard words[word] & (1 << bit) == 0 else { return }
        words[word] |= 1 << bit
        count += 1
    }

    /// Removes the app at `position`, if it is in the set.
    mutating func remove(_ position: Int) {
        guard contains(position) else { return }
        words[position / 64] &= ~(1 << (position % 64))
        count -= 1
    }

    /// Whether the app at `position` is in the set.
    func contains(_ position: Int) -> Bool {
        let (word, bit) = position.quotientAndRemainder(dividingBy: 64)
        return word < words.count && words[word] & (1 << bit) != 0
    }

    /// Adds every app of `other`.
    mutating func formUnion(_ other: AppSet) {
        if other.words.count > words.count { words += repeatElement(0, count: other.words.count - words.count) }
        count = 0
        for index in words.indices {
            if index < other.words.count { words[index] |= other.words[index] }
            count += words[index].nonzeroBitCount
        }
    }

    /// Empties the set, keeping its storage.
    mutating func removeAll() {
        for index in words.indices { words[index] = 0 }
        count = 0
    }

    /// The positions in the set, in ascending (installation) order, read from the words as they were.
    func makeIterator() -> Positions { Positions(words: words) }

    /// Walks the set bits of a copy of the words, lowest first.
    struct Positions: IteratorProtocol {
        let words: [UInt64]
        var index = 0
        var rest: UInt64 = 0

        init(words: [UInt64]) {
            self.words = words
            rest = words.first ?? 0
        }

        mutating func next() -> Int? {
            while rest == 0 {
                index += 1
                guard index < words.count else { return nil }
                rest = words[index]
            }
            defer { rest &= rest - 1 }
            return index * 64 + rest.trailingZeroBitCount
        }
    }

    var underestimatedCount: Int { count }
}
