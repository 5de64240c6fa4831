import Foundation
import GRDB
import OffstageCore

/// What a restarted daemon needs to take over live app processes and what the system remembers besides
/// (migration v3): each live process's state as the core knew it (`app.process`, JSON of `ProcessMemory`,
/// written when it changes), whether the user swiped the app away and what §7 keeps for it
/// (`appHistory.forceQuit`, `appHistory.backgroundWork`), and the core's token and task counters (`memory`).
extension Store {
    /// The columns of migration v3. Rows written before it read as "state unknown" (a process left by such a
    /// daemon is cleaned up, not adopted), "not swiped away", "nothing held" and counters from 1.
    static func addAdoption(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE app ADD COLUMN process TEXT;
                ALTER TABLE appHistory ADD COLUMN forceQuit INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE appHistory ADD COLUMN backgroundWork TEXT;
                ALTER TABLE memory ADD COLUMN nextToken INTEGER NOT NULL DEFAULT 1;
                ALTER TABLE memory ADD COLUMN nextTaskID INTEGER NOT NULL DEFAULT 1;
                """)
    }

    /// Records what the core knows of the app's live process (nil: it has none), for re-adoption after a crash.
    func saveProcessMemory(_ memory: ProcessMemory?, of app: BundleID) throws {
        let json = try memory.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        try write { db in
            try db.execute(sql: "UPDATE app SET process = ? WHERE bundle = ?", arguments: [json, app.rawValue])
        }
    }

    /// The stored `ProcessMemory` of a row, nil when none was recorded (or it cannot be read).
    func processMemory(_ row: Row) -> ProcessMemory? {
        let json: String? = row["process"]
        return json.flatMap { try? decoder.decode(ProcessMemory.self, from: Data($0.utf8)) }
    }
}
