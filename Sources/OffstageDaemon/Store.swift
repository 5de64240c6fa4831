import Foundation
import GRDB
import Glibc
import OffstageCore
import OffstageLinux
import OffstageProtocol

/// The daemon's SQLite store (WAL mode, migrations): installed apps and their live processes,
/// pending requests, settings and device overrides, a bounded decision log, and what the system remembers
/// (usage history, cooperation, budgets, the energy ledger: `Store+Memory.swift`).
final class Store {
    let database: DatabaseQueue
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    /// The store's file, and its write-ahead log, which `sync` (at shutdown) and `StoreSyncer` (while the daemon
    /// serves) make durable; the log is kept open: the daemon's one connection keeps it in place.
    let path: String
    let walPath: String
    /// The rows moved to the quarantine since the store was opened (the daemon logs them at start).
    var quarantined: [DamagedRow] = []
    private var walFile: Int32 = -1
    /// Whether something the daemon acknowledges (an app's requests, settings, an installation, device
    /// overrides) was written since it was last handed to a sync (`Daemon.commitTurn`, `sync`): its answer waits.
    var awaitsSync = false
    /// Whether this turn of the loop wrote (its transaction waits for `commit`): no commit is tried otherwise.
    private var turnHasWritten = false

    /// Opens (or creates) the store at `path` and brings its schema up to date.
    init(path: String) throws {
        self.path = path
        walPath = path + "-wal"
        var configuration = Configuration()
        configuration.journalMode = .wal
        // The loop's turn keeps one transaction open across its writes (`write`, `commit`).
        configuration.allowsUnsafeTransactions = true
        // Commits reach the operating system at once (a crash of the daemon loses none) and the disk at `sync`,
        // once for every answer of a turn of the loop (group commit), not once per transaction.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        // A small page cache: the daemon writes small rows and reads the decision log on request only, and
        // SQLite's default (2 MB) filled up with the log's pages, most of the daemon's own memory.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -256") }
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            // SQLite reads only the pages a statement needs: a file cut short opens, and its lost rows would go
            // unnoticed. The whole file is checked once at start instead (milliseconds for the daemon's store).
            let problems = try database.read { try String.fetchAll($0, sql: "PRAGMA quick_check(5)") }
            guard problems == ["ok"] else {
                throw DaemonError(
                    .store,
                    "\(path): damaged (\(problems.joined(separator: "; "))): refused, to leave its data as it is")
            }
            let unknown = try database.read { try Self.migrator.appliedIdentifiers($0) }
                .subtracting(Self.migrator.migrations)
            guard unknown.isEmpty else {
                throw DaemonError(
                    .store,
                    "\(path): written by a newer offstage (migrations this daemon does not know: "
                        + "\(unknown.sorted().joined(separator: "; "))): refused, to leave its data as it is")
            }
            try Self.migrator.migrate(database)
        } catch let error as DaemonError {
            throw error
        } catch {
            throw DaemonError(.store, "\(path): cannot be opened or brought up to date: \(error)")
        }
        encoder.outputFormatting = [.sortedKeys]
    }

    deinit { if walFile >= 0 { Glibc.close(walFile) } }

    /// Writes `updates` in the transaction of this turn of the daemon's loop, begun by the turn's first write and
    /// ended by `commit` at the end of the turn: a turn's changes (200 clients' at once) cost one commit, not one
    /// each. Each write is a savepoint of its own: one that fails leaves the others.
    func write(_ updates: (Database) throws -> Void) throws {
        turnHasWritten = true
        try database.writeWithoutTransaction { db in
            if !db.isInsideTransaction { try db.beginTransaction(.immediate) }
            try db.inSavepoint {
                try updates(db)
                return .commit
            }
        }
    }

    /// Commits the turn's transaction, if a write began one (the loop calls it at the end of each turn, before
    /// the sync that answers wait for).
    func commit() throws {
        guard turnHasWritten else { return }
        turnHasWritten = false
        try database.writeWithoutTransaction { db in if db.isInsideTransaction { try db.commit() } }
    }

    /// Makes every commit so far durable here and now (the turn's transaction is committed first), at shutdown;
    /// while the daemon serves, `StoreSyncer` does it on its own thread.
    func sync() throws {
        try commit()
        try Self.syncLog(walPath, file: &walFile)
        awaitsSync = false
    }

    /// Closes the store at a clean stop, after `sync`: SQLite copies the write-ahead log into the store's file and
    /// deletes it, here and now, not in a deinit racing the process's exit (an exit mid-copy left a half-copied file).
    func close() throws {
        try database.close()
        if walFile >= 0 {
            Glibc.close(walFile)
            walFile = -1
        }
    }

    /// Commits the turn's transaction and says whether it holds acknowledged changes not yet handed to a sync
    /// (`awaitsSync`), which the caller now syncs (`StoreSyncer`): the next call says no until something new is.
    func commitForSync() throws -> Bool {
        try commit()
        defer { awaitsSync = false }
        return awaitsSync
    }

    /// One `fsync` of the write-ahead log at `path` (opened into `file` the first time): it holds every commit
    /// since the last checkpoint (SQLite syncs the log before it checkpoints, and the database after).
    static func syncLog(_ path: String, file: inout Int32) throws(DaemonError) {
        if file < 0 { file = open(path, O_RDONLY | O_CLOEXEC) }
        guard file >= 0, fsync(file) == 0 else {
            throw DaemonError(.store, "cannot sync \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Every schema version, in order; a new table is a new migration, never an edit of an old one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: apps, pending requests, settings, decision log") { db in
            try db.execute(
                sql: """
                    CREATE TABLE app (
                        bundle TEXT PRIMARY KEY NOT NULL,
                        path TEXT NOT NULL,
                        manifest TEXT NOT NULL,
                        installedAt REAL NOT NULL,
                        pid INTEGER,
                        startTicks INTEGER
                    );
                    CREATE TABLE pendingRequest (
                        bundle TEXT NOT NULL REFERENCES app(bundle) ON DELETE CASCADE,
                        identifier TEXT NOT NULL,
                        request TEXT NOT NULL,
                        PRIMARY KEY (bundle, identifier)
                    );
                    CREATE TABLE setting (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    CREATE TABLE decision (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        time TEXT NOT NULL,
                        at REAL NOT NULL,
                        bundle TEXT,
                        kind TEXT NOT NULL,
                        task TEXT,
                        reason TEXT NOT NULL
                    );
                    CREATE INDEX decisionByBundle ON decision(bundle, id);
                    """)
        }
        migrator.registerMigration("v2: usage history, cooperation, budgets, energy ledger", migrate: Self.createMemory)
        migrator.registerMigration(
            "v3: live processes' state for re-adoption; force-quit, §7 memory, counters", migrate: Self.addAdoption)
        migrator.registerMigration("v4: quarantine of damaged rows", migrate: Self.addQuarantine)
        migrator.registerMigration("v5: a user of its own per app (--app-uids)") { db in
            try db.execute(
                sql: """
                    ALTER TABLE app ADD COLUMN uid INTEGER;
                    CREATE UNIQUE INDEX appByUID ON app(uid);
                    """)
        }
        migrator.registerMigration("v6: what the launch model learnt; the measured refresh energy use") { db in
            try db.execute(
                sql: """
                    ALTER TABLE memory ADD COLUMN launchModel TEXT;
                    ALTER TABLE memory ADD COLUMN refreshEnergyUse REAL;
                    """)
        }
        return migrator
    }

    // MARK: Apps

    /// An installed app as stored: where its bundle is and the manifest read at installation.
    struct InstalledApp: Sendable {
        var bundle: BundleID
        var path: String
        var manifest: AppManifest
        var process: AppProcess?
        /// What the core knew of that process, to adopt it after a crash of the daemon.
        var processMemory: ProcessMemory?
        /// The user of its own the app runs as (`--app-uids`), kept for good once given.
        var uid: UInt32? = nil
    }

    func saveApp(_ app: InstalledApp, at epoch: Double) throws {
        let manifest = String(decoding: try encoder.encode(app.manifest), as: UTF8.self)
        awaitsSync = true
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO app (bundle, path, manifest, installedAt) VALUES (?, ?, ?, ?)
                    ON CONFLICT(bundle) DO UPDATE SET path = excluded.path, manifest = excluded.manifest
                    """, arguments: [app.bundle.rawValue, app.path, manifest, epoch])
        }
    }

    /// The installed apps; a row that cannot be read is quarantined with its pending requests.
    func apps() throws -> [InstalledApp] {
        try readAll(
            "app", "SELECT rowid, * FROM app ORDER BY installedAt, bundle", key: { $0["bundle"] },
            dependents: "pendingRequest",
            decode: { row in
                let pid: Int32? = row["pid"]
                let ticks: Int? = row["startTicks"]
                let manifest = try decoder.decode(AppManifest.self, from: Data((row["manifest"] as String).utf8))
                let bundle = try storedBundle(row["bundle"])
                guard manifest.bundleIdentifier == bundle else {
                    throw DaemonError(.store, "its manifest names another bundle, \(manifest.bundleIdentifier)")
                }
                return InstalledApp(
                    bundle: bundle, path: row["path"], manifest: manifest,
                    process: pid.flatMap { pid in ticks.map { AppProcess(pid: pid, startTicks: $0) } },
                    processMemory: processMemory(row), uid: row["uid"])
            })
    }

    /// The app's own user id in `range` (`--app-uids`): the one it was given, or the lowest no other app has,
    /// given now and kept, as Android gives each app a uid of its own at installation.
    func userID(of app: BundleID, in range: ClosedRange<UInt32>) throws -> UInt32 {
        let given: UInt32? = try database.read { db in
            try UInt32.fetchOne(db, sql: "SELECT uid FROM app WHERE bundle = ?", arguments: [app.rawValue])
        }
        if let given, range.contains(given) { return given }
        let taken = try database.read { db in
            try Set(
                UInt32.fetchAll(
                    db, sql: "SELECT uid FROM app WHERE uid BETWEEN ? AND ?",
                    arguments: [range.lowerBound, range.upperBound]))
        }
        guard let free = range.first(where: { !taken.contains($0) }) else {
            throw DaemonError(
                .refused, "no user id left for \(app) in --app-uids \(range.lowerBound)-\(range.upperBound)")
        }
        awaitsSync = true
        try write { db in
            try db.execute(sql: "UPDATE app SET uid = ? WHERE bundle = ?", arguments: [free, app.rawValue])
        }
        return free
    }

    /// Records the app's live process (nil when it ended, which forgets its state too), for re-adoption or
    /// clean-up after a crash of the daemon.
    func saveProcess(_ process: AppProcess?, of app: BundleID) throws {
        try write { db in
            try db.execute(
                sql: process == nil
                    ? "UPDATE app SET pid = NULL, startTicks = NULL, process = NULL WHERE bundle = ?"
                    : "UPDATE app SET pid = ?, startTicks = ?, process = NULL WHERE bundle = ?",
                arguments: process.map { [$0.pid, $0.startTicks, app.rawValue] } ?? [app.rawValue])
        }
        // Committed at once, not at the end of the turn: a process the daemon started is on record even if the
        // daemon is killed before the turn ends, so that the next run adopts or ends it.
        try commit()
    }

    // MARK: Pending requests

    /// Replaces the app's stored pending requests with `requests`.
    func savePending(_ requests: [TaskRequest], of app: BundleID) throws {
        let rows = try requests.map { ($0.identifier, String(decoding: try encoder.encode($0), as: UTF8.self)) }
        awaitsSync = true
        try write { db in
            // Statements compiled once for the daemon's life: compiling them per submit cost more than running them.
            try db.cachedStatement(sql: "DELETE FROM pendingRequest WHERE bundle = ?").execute(arguments: [
                app.rawValue
            ])
            let insert = try db.cachedStatement(
                sql: "INSERT INTO pendingRequest (bundle, identifier, request) VALUES (?, ?, ?)")
            for (identifier, json) in rows { try insert.execute(arguments: [app.rawValue, identifier, json]) }
        }
    }

    /// Every app's pending requests, in submission order; a row that cannot be read is quarantined.
    func pending() throws -> [BundleID: [TaskRequest]] {
        let rows = try readAll(
            "pendingRequest", "SELECT rowid, bundle, identifier, request FROM pendingRequest ORDER BY rowid",
            key: { "\($0["bundle"] as String)/\($0["identifier"] as String)" },
            decode: { row in
                (
                    try storedBundle(row["bundle"]),
                    try decoder.decode(TaskRequest.self, from: Data((row["request"] as String).utf8))
                )
            })
        return Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
    }

    // MARK: Settings

    func save<Value: Encodable>(_ value: Value, as key: String) throws {
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        awaitsSync = true
        try write { db in
            try db.execute(
                sql:
                    "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                arguments: [key, json])
        }
    }

    /// The setting stored under `key`; one that cannot be read is quarantined (nil: the defaults).
    func load<Value: Decodable>(_ type: Value.Type, key: String) throws -> Value? {
        try readAll(
            "setting", "SELECT rowid, key, value FROM setting WHERE key = '\(key)'", key: { $0["key"] },
            decode: { try decoder.decode(type, from: Data(($0["value"] as String).utf8)) }
        ).first
    }

    // MARK: Decision log

    /// Appends decisions, then drops the oldest beyond `limit`.
    func log(_ records: [(time: String, record: OffstageCore.Record)], limit: Int) throws {
        guard !records.isEmpty else { return }
        try write { db in
            // One statement compiled once for the whole batch (compiling it per row cost more than the insert).
            let insert = try db.cachedStatement(
                sql: "INSERT INTO decision (time, at, bundle, kind, task, reason) VALUES (?, ?, ?, ?, ?, ?)")
            for (time, record) in records {
                try insert.execute(arguments: [
                    time, record.at.seconds, record.app?.rawValue, record.kind.rawValue, record.task, record.reason,
                ])
            }
            try db.execute(
                sql: "DELETE FROM decision WHERE id <= (SELECT MAX(id) FROM decision) - ?", arguments: [limit])
        }
    }

    /// The latest `limit` decisions (for one app, or all), oldest first.
    func decisions(for app: BundleID?, limit: Int) throws -> [LoggedRecord] {
        try database.read { db in
            let rows: [Row] =
                if let app {
                    try Row.fetchAll(
                        db, sql: "SELECT * FROM decision WHERE bundle = ? ORDER BY id DESC LIMIT ?",
                        arguments: [app.rawValue, limit])
                } else {
                    try Row.fetchAll(db, sql: "SELECT * FROM decision ORDER BY id DESC LIMIT ?", arguments: [limit])
                }
            var result: [LoggedRecord] = []
            for row in rows.reversed() {
                let bundle: String? = row["bundle"]
                let kind: String = row["kind"]
                let record = OffstageCore.Record(
                    at: Instant(seconds: row["at"]), app: bundle.map { BundleID($0) },
                    kind: RecordKind(rawValue: kind) ?? .log, task: row["task"], reason: row["reason"])
                result.append(LoggedRecord(time: row["time"], record: record))
            }
            return result
        }
    }
}
