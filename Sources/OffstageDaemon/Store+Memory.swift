import Foundation
import GRDB
import OffstageCore

/// What the system remembers, in tables of its own: each app's usage and cooperation (`appHistory`), the
/// budgets' balances (`budget`), the energy ledger's hours and totals (`energyHour`, `energyTotal`), and
/// when it was taken with the clock's origin (`memory`, one row); since v3 also each app's force-quit and
/// §7 memory, and the core's counters (`Store+Adoption.swift`). Instants are seconds on the daemon's clock.
extension Store {
    /// The tables (migration v2).
    static func createMemory(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE memory (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    takenAt REAL NOT NULL,
                    clockOrigin REAL NOT NULL,
                    wakeUps INTEGER NOT NULL
                );
                CREATE TABLE appHistory (
                    bundle TEXT PRIMARY KEY NOT NULL REFERENCES app(bundle) ON DELETE CASCADE,
                    launches TEXT NOT NULL,
                    foregroundSeconds REAL NOT NULL,
                    lastUsed REAL,
                    cooperation REAL NOT NULL,
                    judgedRuns INTEGER NOT NULL,
                    runStarts TEXT NOT NULL,
                    contentUpdatedAt REAL,
                    wakeUps INTEGER NOT NULL,
                    totalUsage TEXT NOT NULL
                );
                CREATE TABLE budget (name TEXT PRIMARY KEY NOT NULL, balance REAL NOT NULL);
                CREATE TABLE energyHour (
                    hour INTEGER NOT NULL,
                    consumer TEXT NOT NULL,
                    foreground REAL NOT NULL,
                    background REAL NOT NULL,
                    PRIMARY KEY (hour, consumer)
                );
                CREATE TABLE energyTotal (
                    consumer TEXT PRIMARY KEY NOT NULL,
                    foreground REAL NOT NULL,
                    background REAL NOT NULL
                );
                """)
    }

    /// Writes `snapshot`, only what differs from `previous` (the one written last) besides the small rows.
    func saveMemory(_ snapshot: SystemSnapshot, previous: SystemSnapshot?, clockOrigin: Double) throws {
        let histories = try snapshot.apps.filter { previous?.apps[$0.key] != $0.value }.map { id, history in
            (
                id, history, try json(history.launches.map(\.seconds)), try json(history.runStarts.map(\.seconds)),
                try json(history.totalUsage), try json(history.backgroundWork)
            )
        }
        let oldHours = Dictionary(
            (previous?.energy.hours ?? []).map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        let changedHours = snapshot.energy.hours.filter { oldHours[$0.index] != $0 }
        let oldest = snapshot.energy.hours.first?.index
        // The launch model is written again only when it learnt something: most writes follow other changes.
        let launchModel = try snapshot.launchModel.flatMap { $0 == previous?.launchModel ? nil : try json($0) }
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO memory (id, takenAt, clockOrigin, wakeUps, nextToken, nextTaskID, refreshEnergyUse)
                    VALUES (1, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET takenAt = excluded.takenAt, clockOrigin = excluded.clockOrigin,
                        wakeUps = excluded.wakeUps, nextToken = excluded.nextToken, nextTaskID = excluded.nextTaskID,
                        refreshEnergyUse = excluded.refreshEnergyUse
                    """,
                arguments: [
                    snapshot.takenAt.seconds, clockOrigin, snapshot.wakeUps, snapshot.nextToken, snapshot.nextTaskID,
                    snapshot.refreshEnergyUse,
                ])
            if let launchModel {
                try db.execute(sql: "UPDATE memory SET launchModel = ? WHERE id = 1", arguments: [launchModel])
            }
            for (id, history, launches, runStarts, usage, backgroundWork) in histories {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO appHistory (bundle, launches, foregroundSeconds, lastUsed, cooperation,
                            judgedRuns, runStarts, contentUpdatedAt, wakeUps, totalUsage, forceQuit, backgroundWork)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id.rawValue, launches, history.foregroundSeconds, history.lastUsed?.seconds,
                        history.cooperation, history.judgedRuns, runStarts, history.contentUpdatedAt?.seconds,
                        history.wakeUps, usage, history.forceQuit, backgroundWork,
                    ])
            }
            for (name, balance) in [("energy", snapshot.energyBudgetBalance), ("data", snapshot.dataBudgetBalance)] {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO budget (name, balance) VALUES (?, ?)", arguments: [name, balance])
            }
            for hour in changedHours {
                try db.execute(sql: "DELETE FROM energyHour WHERE hour = ?", arguments: [hour.index])
                for (consumer, split) in hour.consumers {
                    try db.execute(
                        sql: "INSERT INTO energyHour (hour, consumer, foreground, background) VALUES (?, ?, ?, ?)",
                        arguments: [hour.index, Self.column(consumer), split.foreground, split.background])
                }
            }
            if let oldest { try db.execute(sql: "DELETE FROM energyHour WHERE hour < ?", arguments: [oldest]) }
            if previous?.energy.totals != snapshot.energy.totals {
                try db.execute(sql: "DELETE FROM energyTotal")
                for (consumer, split) in snapshot.energy.totals {
                    try db.execute(
                        sql: "INSERT INTO energyTotal (consumer, foreground, background) VALUES (?, ?, ?)",
                        arguments: [Self.column(consumer), split.foreground, split.background])
                }
            }
        }
    }

    /// The snapshot written last and the clock's origin, or nil if none was ever written.
    func memory() throws -> (snapshot: SystemSnapshot, clockOrigin: Double)? {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM memory WHERE id = 1") else { return nil }
            var apps: [BundleID: AppHistory] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM appHistory") {
                let lastUsed: Double? = row["lastUsed"]
                let content: Double? = row["contentUpdatedAt"]
                let backgroundWork: String? = row["backgroundWork"]
                apps[BundleID(row["bundle"] as String)] = AppHistory(
                    launches: try decode([Double].self, row["launches"]).map(Instant.init(seconds:)),
                    foregroundSeconds: row["foregroundSeconds"], lastUsed: lastUsed.map(Instant.init(seconds:)),
                    cooperation: row["cooperation"], judgedRuns: row["judgedRuns"],
                    runStarts: try decode([Double].self, row["runStarts"]).map(Instant.init(seconds:)),
                    contentUpdatedAt: content.map(Instant.init(seconds:)), wakeUps: row["wakeUps"],
                    totalUsage: try decode(ResourceUsage.self, row["totalUsage"]), forceQuit: row["forceQuit"],
                    backgroundWork: try backgroundWork.map { try decode(BackgroundWorkMemory.self, $0) }
                        ?? BackgroundWorkMemory())
            }
            let budgets = Dictionary(
                try Row.fetchAll(db, sql: "SELECT name, balance FROM budget").map {
                    ($0["name"] as String, $0["balance"] as Double)
                }, uniquingKeysWith: { first, _ in first })
            var hours: [Int: EnergyLedger.Hour] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM energyHour") {
                let index: Int = row["hour"]
                hours[index, default: EnergyLedger.Hour(index: index)].consumers[Self.consumer(row["consumer"])] =
                    EnergySplit(foreground: row["foreground"], background: row["background"])
            }
            var totals: [EnergyConsumer: EnergySplit] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM energyTotal") {
                totals[Self.consumer(row["consumer"])] = EnergySplit(
                    foreground: row["foreground"], background: row["background"])
            }
            let launchModel: String? = row["launchModel"]
            let snapshot = SystemSnapshot(
                takenAt: Instant(seconds: row["takenAt"]), apps: apps,
                energyBudgetBalance: budgets["energy"] ?? .infinity, dataBudgetBalance: budgets["data"] ?? .infinity,
                energy: EnergyLedger(hours: Array(hours.values), totals: totals), wakeUps: row["wakeUps"],
                nextToken: row["nextToken"], nextTaskID: row["nextTaskID"],
                launchModel: try launchModel.map { try decode(LaunchModel.self, $0) },
                refreshEnergyUse: row["refreshEnergyUse"])
            return (snapshot, row["clockOrigin"])
        }
    }

    /// A consumer as stored: "" for the system, else the app's bundle identifier.
    private static func column(_ consumer: EnergyConsumer) -> String {
        switch consumer {
        case .system: ""
        case .app(let id): id.rawValue
        }
    }

    private static func consumer(_ column: String) -> EnergyConsumer {
        column.isEmpty ? .system : .app(BundleID(column))
    }

    private func json<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func decode<Value: Decodable>(_ type: Value.Type, _ text: String) throws -> Value {
        try decoder.decode(type, from: Data(text.utf8))
    }
}
