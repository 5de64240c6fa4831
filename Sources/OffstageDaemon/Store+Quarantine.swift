import Foundation
import GRDB
import OffstageCore
import OffstageProtocol

/// Damaged state, named and kept (migration v4): a row the daemon cannot read is moved to `quarantine` with the
/// table, the row and the error, and the daemon goes on without it; never dropped without a word.
extension Store {
    /// A stored row that could not be read: where it was, what it held, and why it could not be read.
    struct DamagedRow: CustomStringConvertible, Sendable {
        var table: String
        var rowid: Int64
        var key: String
        var content: String
        var error: String

        var description: String { "table \(table), row \(key) (rowid \(rowid)): \(error)" }
    }

    static func addQuarantine(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE quarantine (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    tableName TEXT NOT NULL,
                    rowKey TEXT NOT NULL,
                    content TEXT NOT NULL,
                    error TEXT NOT NULL,
                    at REAL NOT NULL
                );
                """)
    }

    /// Reads every row of `sql` with `decode`; rows it cannot read are moved to the quarantine (with the rows of
    /// `dependents` that refer to them, which would otherwise go with them) and reported in `quarantined`.
    func readAll<Value>(
        _ table: String, _ sql: String, key: (Row) -> String, dependents: String? = nil,
        decode: (Row) throws -> Value
    ) throws -> [Value] {
        var damaged: [DamagedRow] = []
        let values: [Value] = try database.read { db in
            try Row.fetchAll(db, sql: sql).compactMap { row in
                do { return try decode(row) } catch {
                    damaged.append(
                        DamagedRow(
                            table: table, rowid: row["rowid"], key: key(row), content: row.description,
                            error: "\(error)"))
                    return nil
                }
            }
        }
        guard !damaged.isEmpty else { return values }
        try write { db in
            for row in damaged {
                if let dependents {
                    for dependent in try Row.fetchAll(
                        db, sql: "SELECT * FROM \(dependents) WHERE bundle = ?", arguments: [row.key])
                    {
                        try keep(
                            DamagedRow(
                                table: dependents, rowid: 0, key: row.key, content: dependent.description,
                                error: "its app's row was quarantined"), in: db)
                    }
                }
                try keep(row, in: db)
                try db.execute(sql: "DELETE FROM \(table) WHERE rowid = ?", arguments: [row.rowid])
            }
        }
        quarantined += damaged
        return values
    }

    private func keep(_ row: DamagedRow, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO quarantine (tableName, rowKey, content, error, at) VALUES (?, ?, ?, ?, ?)",
            arguments: [row.table, row.key, row.content, row.error, Date().timeIntervalSince1970])
    }

    /// A clean copy of the whole store beside it (`offstage.sqlite.damaged-<seconds since 1970>`), before the
    /// daemon goes on without a part it cannot read; returns the copy's path.
    func keepCopy() throws -> String {
        let copy = "\(path).damaged-\(Int(Date().timeIntervalSince1970))"
        try commit()
        try database.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [copy]) }
        return copy
    }
}

/// A bundle identifier read back from the store, which must still be one by Apple's rules (a row written by an
/// older daemon that did not check may hold a path).
func storedBundle(_ text: String) throws -> BundleID {
    guard BundleID.isValid(text) else { throw DaemonError(.store, "'\(text)' is not a bundle identifier") }
    return BundleID(text)
}
