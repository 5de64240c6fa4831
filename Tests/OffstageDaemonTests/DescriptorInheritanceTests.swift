import Foundation
import GRDB
import OffstageCore
import OffstageLinux
import OffstageTestSupport
import Testing

/// An app the daemon starts gets none of the daemon's descriptors, only stdin, stdout and stderr: real children
/// list their `/proc/self/fd` while the parent holds a socket, a SQLite database and files open.
@Suite struct DescriptorInheritanceTests {
    /// A temporary folder for one test's files.
    let folder = NSTemporaryDirectory() + "offstage-fds-\(getpid())-\(UUID().uuidString.prefix(8))"

    /// The child's descriptors above stderr in an `ls -l /proc/self/fd` listing, as `FD -> TARGET` lines, leaving
    /// out the one `ls` itself opens to read the folder.
    static func inherited(in listing: String) -> [String] {
        listing.split(separator: "\n").compactMap { line in
            guard let arrow = line.range(of: " -> ") else { return nil }
            let fd = line[..<arrow.lowerBound].split(separator: " ").last.flatMap { Int($0) }
            let target = line[arrow.upperBound...]
            guard let fd, fd > 2, !(target.hasPrefix("/proc/") && target.hasSuffix("/fd")) else { return nil }
            return "\(fd) -> \(target)"
        }
    }

    /// The targets of this process's open descriptors (what `/proc/self/fd` links to).
    static func openTargets() -> [String] {
        ProcFS.openDescriptors().compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
        }
    }

    @Test func aSpawnedAppInheritsNoDescriptorButStdinStdoutAndStderr() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // What a daemon holds: a plain file, a socket and a pipe opened without close-on-exec, and a SQLite
        // database in WAL mode (its file and its log).
        let plain = open(folder + "/plain", O_RDWR | O_CREAT, 0o644)
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var pipeEnds: [Int32] = [-1, -1]
        #expect(pipe(&pipeEnds) == 0)
        defer { for fd in [plain, socket] + pipeEnds where fd >= 0 { close(fd) } }
        for fd in [plain, socket] + pipeEnds {
            #expect(fd >= 0 && fcntl(fd, F_GETFD) & FD_CLOEXEC == 0, "descriptor \(fd) is open, not close-on-exec")
        }
        let database = try DatabaseQueue(path: folder + "/store.sqlite")
        try database.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)")
        }
        let (listing, log) = try withExtendedLifetime(database) {
            let held = Self.openTargets()
            #expect(held.contains(folder + "/store.sqlite") && held.contains(folder + "/store.sqlite-wal"), "\(held)")
            return try spawnLister()
        }
        #expect(listing.contains(" 0 -> /dev/null"), "\(listing)")
        #expect(listing.contains(" 1 -> \(log)") && listing.contains(" 2 -> \(log)"), "\(listing)")
        #expect(Self.inherited(in: listing) == [], "the child inherited \(Self.inherited(in: listing))")
    }

    /// Spawns a script that lists its descriptors, waits for it, and returns the listing and the log it went to.
    func spawnLister() throws -> (listing: String, log: String) {
        let executable = try ExecutableFile.write("#!/bin/sh\nls -l /proc/self/fd\n", to: folder + "/lister")
        let log = folder + "/lister.log"
        let pid = try ProcessSpawner.spawn(executable: executable, environment: [:], joining: [], logPath: log)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(Reaper.describe(status) == "exited with status 0")
        return (try String(contentsOfFile: log, encoding: .utf8), log)
    }

    /// End to end: an app the real daemon launches sees none of the daemon's socket, client connections, store,
    /// control-group files, timers or pipes, nor what the daemon itself inherited (Foundation's `Process`, which
    /// starts it here, hands its child one end of a socket pair on purpose, not close-on-exec).
    @Test func anAppTheDaemonLaunchesSeesNoneOfTheDaemonsDescriptors() throws {
        let daemon = try DaemonHarness()
        let listing = try daemon.openScript(
            "test.descriptors", ["#!/bin/sh", "ls -l /proc/self/fd", "echo done", "exec sleep 30"], until: "done")
        #expect(listing.contains(" 0 -> /dev/null"), "\(listing)")
        #expect(Self.inherited(in: listing) == [], "the app inherited \(Self.inherited(in: listing))")
        try daemon.send(.swipeAway("test.descriptors"))
    }
}
