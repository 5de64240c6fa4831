import OffstageCore

/// The decisions not yet written to the store's log (written within a second, and at shutdown), never more than
/// the log would keep: it keeps only its latest `limit` decisions, so a flood of calls (a burst makes about a
/// hundred thousand a second) costs neither memory nor writes of decisions the store would drop at once.
struct DecisionBuffer {
    /// The decisions the log keeps (`DaemonConfiguration.decisionLogLimit`).
    let limit: Int
    private var records: [Record] = []

    init(limit: Int) { self.limit = max(1, limit) }

    var isEmpty: Bool { records.isEmpty }
    /// Decisions held now: under twice the limit, whatever came.
    var count: Int { records.count }

    /// Keeps `record`. At twice the limit the oldest go, down to the limit: dropping them one by one as each
    /// new one came would move the whole buffer at every call.
    mutating func append(_ record: Record) {
        records.append(record)
        if records.count >= 2 * limit { records.removeFirst(records.count - limit) }
    }

    /// The latest `limit` decisions, oldest first, for one write; the buffer is left empty (keeping its room
    /// unless a burst made it large).
    mutating func take() -> [Record] {
        let latest = Array(records.suffix(limit))
        records.removeAll(keepingCapacity: records.count <= 1024)
        return latest
    }
}
