/// Who a joule is charged to: an app, or the system itself (the idle baseline, the home and lock screens).
public enum EnergyConsumer: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    case system
    case app(BundleID)

    public var description: String {
        switch self {
        case .system: "system"
        case .app(let id): id.rawValue
        }
    }
}

/// Joules split by whether the consumer was on screen when it used them, as iOS's Battery settings show them.
public struct EnergySplit: Hashable, Sendable, Codable {
    public var foreground: Double = 0
    public var background: Double = 0

    public init(foreground: Double = 0, background: Double = 0) {
        self.foreground = foreground
        self.background = background
    }

    public var total: Double { foreground + background }

    mutating func add(_ joules: Double, background: Bool) {
        if background { self.background += joules } else { foreground += joules }
    }

    static func + (a: EnergySplit, b: EnergySplit) -> EnergySplit {
        EnergySplit(foreground: a.foreground + b.foreground, background: a.background + b.background)
    }
}

/// Every joule the device spent, charged to a consumer and to foreground or background (§8 Battery, §9).
/// Hourly buckets for the last 10 days make the 24-hour and 10-day views exact; older hours are dropped
/// from the buckets but stay in the all-time totals, so memory is bounded however long the system runs.
public struct EnergyLedger: Hashable, Sendable, Codable {
    /// The joules of one hour: hour `n` covers `[n × 3600 s, (n + 1) × 3600 s)` of the monotonic clock.
    public struct Hour: Hashable, Sendable, Codable {
        public var index: Int
        public var consumers: [EnergyConsumer: EnergySplit] = [:]

        public var total: Double { consumers.values.reduce(0) { $0 + $1.total } }

        public init(index: Int, consumers: [EnergyConsumer: EnergySplit] = [:]) {
            self.index = index
            self.consumers = consumers
        }
    }

    /// Hourly buckets kept: 10 days.
    public static let retainedHours = 240

    /// The kept hours that have any charge, oldest first (at most `retainedHours` of them).
    public private(set) var hours: [Hour] = []
    /// Everything charged since the ledger began, per consumer.
    public private(set) var totals: [EnergyConsumer: EnergySplit] = [:]

    /// The background energy charged to the app since the ledger began.
    public func backgroundJoules(of app: BundleID) -> Double { totals[.app(app)]?.background ?? 0 }
    /// Everything charged since the ledger began, in joules.
    public private(set) var totalJoules: Double = 0

    public init() {}

    /// A ledger put back from storage: these hours (the newest `retainedHours` are kept) and all-time totals.
    public init(hours: [Hour], totals: [EnergyConsumer: EnergySplit]) {
        let sorted = hours.sorted { $0.index < $1.index }
        let newest = sorted.last?.index ?? 0
        self.hours = sorted.filter { $0.index > newest - Self.retainedHours }
        self.totals = totals
        totalJoules = totals.values.reduce(0) { $0 + $1.total }
    }

    /// The index of the hour that holds `instant`.
    public static func hourIndex(of instant: Instant) -> Int { Int((instant.seconds / 3600).rounded(.down)) }

    /// The index of the last hour begun before `now`: the hour of `now`, or the one before when `now` is
    /// exactly on the hour (so a view that ends on the hour does not end with an empty hour).
    static func lastHourIndex(before now: Instant) -> Int { Int((now.seconds / 3600).rounded(.up)) - 1 }

    /// Charges `joules` spent at `time` to `consumer`, in the foreground or the background.
    /// Times may go back within the kept hours (a steady draw is charged after the events it spans).
    mutating func charge(_ joules: Double, to consumer: EnergyConsumer, background: Bool, at time: Instant) {
        guard joules > 0 else { return }
        totals[consumer, default: EnergySplit()].add(joules, background: background)
        totalJoules += joules
        let index = Self.hourIndex(of: time)
        let newest = max(index, hours.last?.index ?? index)
        guard index > newest - Self.retainedHours else { return }
        let before = hours.lastIndex { $0.index <= index }
        let position: Int
        if let before, hours[before].index == index {
            position = before
        } else {
            position = (before ?? -1) + 1
            hours.insert(Hour(index: index), at: position)
        }
        hours[position].consumers[consumer, default: EnergySplit()].add(joules, background: background)
        if let oldest = hours.first?.index, oldest <= newest - Self.retainedHours {
            hours.removeAll { $0.index <= newest - Self.retainedHours }
        }
    }

    /// Charges a steady `watts` drawn over `[start, end)`, hour by hour; returns the joules charged.
    @discardableResult
    mutating func charge(
        watts: Double, from start: Instant, to end: Instant, to consumer: EnergyConsumer, background: Bool
    ) -> Double {
        guard watts > 0 else { return 0 }
        var from = start
        var charged = 0.0
        while from < end {
            let next = min(end, Instant(seconds: Double(Self.hourIndex(of: from) + 1) * 3600))
            let joules = watts * (next - from)
            charge(joules, to: consumer, background: background, at: from)
            charged += joules
            from = next
        }
        return charged
    }

    // MARK: Views

    /// Per consumer, the joules of the `count` hours that end at `now` (the last one may be partial).
    public func usage(lastHours count: Int, at now: Instant) -> [EnergyConsumer: EnergySplit] {
        let first = Self.lastHourIndex(before: now) - count + 1
        var result: [EnergyConsumer: EnergySplit] = [:]
        for hour in hours where hour.index >= first {
            for (consumer, split) in hour.consumers { result[consumer] = (result[consumer] ?? EnergySplit()) + split }
        }
        return result
    }

    /// The last 24 hours (the hour up to `now` and the 23 before it), as iOS's Battery view shows them.
    public func last24Hours(at now: Instant) -> [EnergyConsumer: EnergySplit] { usage(lastHours: 24, at: now) }

    /// The last 10 days (the hour up to `now` and the 239 before it).
    public func last10Days(at now: Instant) -> [EnergyConsumer: EnergySplit] {
        usage(lastHours: Self.retainedHours, at: now)
    }

    /// The total joules of each of the `count` hours that end at `now`, oldest first: a battery graph's bars.
    public func hourlyTotals(lastHours count: Int, at now: Instant) -> [Double] {
        let last = Self.lastHourIndex(before: now)
        var totals = [Double](repeating: 0, count: count)
        for hour in hours where hour.index > last - count && hour.index <= last {
            totals[count - 1 - (last - hour.index)] = hour.total
        }
        return totals
    }

    /// The consumers that affect the battery most first (ties by name): iOS's order in Settings › Battery.
    public static func ranked(_ usage: [EnergyConsumer: EnergySplit]) -> [(
        consumer: EnergyConsumer, energy: EnergySplit
    )] {
        usage.map { (consumer: $0.key, energy: $0.value) }
            .sorted {
                $0.energy.total != $1.energy.total ? $0.energy.total > $1.energy.total : $0.consumer < $1.consumer
            }
    }
}
