/// A budget for discretionary work that refills steadily up to a capacity: energy in joules, or
/// cellular data in bytes. Runs reserve from it when they start and get back what they did not use.
public struct BudgetAccount: Hashable, Sendable, Codable {
    /// The most the budget holds.
    public var capacity: Double
    /// What the budget gains per second, up to its capacity.
    public var refillPerSecond: Double
    /// The balance at `updatedAt`.
    private var stored: Double
    private var updatedAt: Instant

    /// A full budget at `time`.
    public init(capacity: Double, perDay: Double, at time: Instant = .zero) {
        self.capacity = capacity
        refillPerSecond = perDay / 86_400
        stored = capacity
        updatedAt = time
    }

    /// A budget holding `balance` (at most its capacity) at `time`: one put back from a snapshot.
    init(capacity: Double, perDay: Double, balance: Double, at time: Instant) {
        self.init(capacity: capacity, perDay: perDay, at: time)
        withdraw(capacity - min(balance, capacity), at: time)
    }

    /// The balance at `time` (not before the last change), refilled since the last change.
    public func balance(at time: Instant) -> Double {
        min(capacity, stored + max(0, time - updatedAt) * refillPerSecond)
    }

    /// Takes `amount` out at `time`; the caller has checked that the balance covers it.
    mutating func withdraw(_ amount: Double, at time: Instant) {
        stored = balance(at: time) - amount
        updatedAt = max(updatedAt, time)
    }

    /// Puts `amount` back at `time` (an unused reservation), up to the capacity.
    mutating func deposit(_ amount: Double, at time: Instant) {
        stored = min(capacity, balance(at: time) + amount)
        updatedAt = max(updatedAt, time)
    }

    /// When the balance will reach `amount` by refilling alone; nil if it never will. Rounding can leave the
    /// balance a hair short at the computed time (a request judged then would wait for nothing): a second later then.
    public func time(toReach amount: Double, from time: Instant) -> Instant? {
        let missing = amount - balance(at: time)
        if missing <= 0 { return time }
        guard amount <= capacity, refillPerSecond > 0 else { return nil }
        let reached = time + missing / refillPerSecond
        return balance(at: reached) >= amount ? reached : reached + 1
    }
}
