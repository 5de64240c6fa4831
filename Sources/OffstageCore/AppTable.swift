/// The installed apps' records, read and changed where they live: the scheduler's hottest data, so an
/// access borrows one record instead of copying it (a record holds dozens of reference-counted fields).
struct AppTable: Sendable {
    private var slots: [BundleID: Int] = [:]
    private var records: [AppRecord] = []

    /// The record of an installed app, borrowed or changed in place; callers check `contains` first.
    subscript(id: BundleID) -> AppRecord {
        _read { yield records[slots[id]!] }
        _modify { yield &records[slots[id]!] }
    }

    /// Whether `id` is installed.
    func contains(_ id: BundleID) -> Bool { slots[id] != nil }

    /// A copy of the record of `id`, or nil when it is not installed (for callers that keep it).
    func lookUp(_ id: BundleID) -> AppRecord? { slots[id].map { records[$0] } }

    /// Adds the record of a newly installed app.
    mutating func insert(_ record: AppRecord) {
        slots[record.id] = records.count
        records.append(record)
    }
}
