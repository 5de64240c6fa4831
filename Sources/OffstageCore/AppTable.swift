/// The installed apps' records, read and changed where they live: the scheduler's hottest data, so an
/// access borrows one record instead of copying it (a record holds dozens of reference-counted fields).
struct AppTable: Sendable {
    private var records: [AppRecord] = []
    /// The records' bundle identifiers, in the same order: a lookup compares these without opening a record.
    private var ids: [BundleID] = []
    /// Open addressing over the bundle identifiers' digests: each entry is a record's index + 1, 0 when
    /// empty. A lookup is a mask and a compare, with no `Hasher` (which was a tenth of a decision's cost).
    private var index: [Int32] = Array(repeating: 0, count: 8)

    /// The record of an installed app, borrowed or changed in place; callers check `contains` first.
    subscript(id: BundleID) -> AppRecord {
        _read { yield records[slot(of: id)!] }
        _modify { yield &records[slot(of: id)!] }
    }

    /// The installation position of `id`, which must be installed: its place in an `AppSet`.
    func position(of id: BundleID) -> Int { slot(of: id)! }

    /// The bundle identifier of the app installed at `position`.
    func id(at position: Int) -> BundleID { ids[position] }

    /// Whether `id` is installed.
    func contains(_ id: BundleID) -> Bool { slot(of: id) != nil }

    /// A copy of the record of `id`, or nil when it is not installed (for callers that keep it).
    func lookUp(_ id: BundleID) -> AppRecord? { slot(of: id).map { records[$0] } }

    /// Adds the record of a newly installed app.
    mutating func insert(_ record: AppRecord) {
        records.append(record)
        ids.append(record.id)
        if records.count * 2 > index.count {
            index = Array(repeating: 0, count: index.count * 2)
            for position in records.indices { place(position) }
        } else {
            place(records.count - 1)
        }
    }

    /// The position of `id`'s record: the first entry on its probe sequence that holds it, or nil at an empty one.
    @inline(__always) private func slot(of id: BundleID) -> Int? {
        let mask = index.count - 1
        var probe = Int(truncatingIfNeeded: id.digest) & mask
        while true {
            let entry = Int(index[probe])
            if entry == 0 { return nil }
            if ids[entry - 1] == id { return entry - 1 }
            probe = (probe + 1) & mask
        }
    }

    /// Puts the record at `position` in the index, at the first empty entry on its probe sequence.
    private mutating func place(_ position: Int) {
        let mask = index.count - 1
        var probe = Int(truncatingIfNeeded: ids[position].digest) & mask
        while index[probe] != 0 { probe = (probe + 1) & mask }
        index[probe] = Int32(position + 1)
    }
}
