import Foundation
import Glibc
import OffstageTestSupport
import Synchronization
import Testing

/// `ExecutableFile`, which the daemon's and the Linux layer's tests write their scripts with: a script runs at once
/// even when a child of this process or an open descriptor could have kept it busy (`ETXTBSY`).
@Suite struct ExecutableFileTests {
    /// A temporary folder for one test's files.
    let folder = NSTemporaryDirectory() + "offstage-executable-\(getpid())-\(UUID().uuidString.prefix(8))"

    init() throws { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }

    /// Starts `path` with no arguments, its output to a file, and waits for it: what `posix_spawn` answered (an
    /// `errno`, 0 when it started), its wait status, and what it printed.
    func run(_ path: String) -> (spawnError: Int32, status: Int32, output: String) {
        let output = folder + "/output-\(UUID().uuidString.prefix(8))"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = [strdup(path), nil]
        defer { free(argv[0]) }
        var pid: pid_t = 0
        let spawnError = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawnError == 0 else { return (spawnError, -1, "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (0, status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    }

    /// Starts `sleep 30` as a child that inherits every descriptor of this process (no close list, as the daemon's
    /// spawner starts apps): what another test's spawn does while a file is being written.
    func spawnInheritingChild() throws -> pid_t {
        let argv = [strdup("/bin/sleep"), strdup("30"), nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        try #require(posix_spawn(&pid, "/bin/sleep", nil, nil, argv, environ) == 0)
        return pid
    }

    /// Ends a child of `spawnInheritingChild` and waits for it.
    func end(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Polls `condition` every 10 ms until it holds; fails after 10 s naming `what`.
    func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        for _ in 0..<1000 {
            if try condition() { return }
            usleep(10_000)
        }
        throw WaitTimedOut(description: "timed out after 10 s waiting until \(what)")
    }

    @Test func aWrittenScriptRunsAtOnce() throws {
        let path = try ExecutableFile.write("#!/bin/sh\necho hello\n", to: folder + "/hello")
        let result = run(path)
        #expect(result.spawnError == 0 && result.status == 0)
        #expect(result.output == "hello\n")
    }

    /// A descriptor open for writing on the file at the path (one a child inherited from an earlier write, say)
    /// does not make the new script busy: it is a new file, renamed into place. Rewritten in place, it would be
    /// the same file, and `exec` would fail with `ETXTBSY`.
    @Test func aScriptRewrittenWhileItsOldFileIsHeldOpenForWritingRuns() throws {
        let path = try ExecutableFile.write("#!/bin/sh\necho old\n", to: folder + "/tool")
        let writer = open(path, O_WRONLY | O_CLOEXEC)
        try #require(writer >= 0)
        defer { close(writer) }
        #expect(run(path).spawnError == ETXTBSY, "the held file itself is busy: the test sets up the hazard")
        try ExecutableFile.write("#!/bin/sh\necho new\n", to: path)
        let result = run(path)
        #expect(result.spawnError == 0 && result.status == 0)
        #expect(result.output == "new\n")
    }

    /// The race itself, held open: while the executable is being written (its bytes come from a FIFO this test
    /// feeds), a child that inherits every descriptor of this process is spawned and kept alive. The script still
    /// runs once written, because the only writer was the `cp` child. Written through a descriptor of this process
    /// without close-on-exec (as `Data.write(to:)` opens files), the sleeping child would hold it and `exec` would
    /// fail with `ETXTBSY` for as long as the child lived.
    @Test func aChildSpawnedWhileTheScriptIsWrittenDoesNotKeepItBusy() throws {
        let source = folder + "/script.fifo"
        try #require(mkfifo(source, 0o600) == 0)
        let path = folder + "/script"
        let failure = Mutex<String?>(nil)
        let installed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do throws(ExecutableFileError) {
                try ExecutableFile.install(copyOf: source, at: path)
            } catch {
                failure.withLock { $0 = error.description }
            }
            installed.signal()
        }
        // `cp` opens the FIFO's reading end (until then, opening the writing end without blocking fails), then
        // creates its destination and waits for the bytes.
        var feed: Int32 = -1
        try waitUntil("cp opens the FIFO") {
            feed = open(source, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            return feed >= 0
        }
        defer { if feed >= 0 { close(feed) } }
        try waitUntil("cp creates the script's temporary file") {
            try FileManager.default.contentsOfDirectory(atPath: folder).contains { $0.hasPrefix("script.new-") }
        }
        let child = try spawnInheritingChild()
        defer { end(child) }
        let text = Array("#!/bin/sh\necho written\n".utf8)
        #expect(write(feed, text, text.count) == text.count)
        close(feed)
        feed = -1
        installed.wait()
        #expect(failure.withLock { $0 } == nil)
        let result = run(path)
        #expect(result.spawnError == 0 && result.status == 0, "the script is busy: \(result.spawnError)")
        #expect(result.output == "written\n")
    }
}

/// A wait of `ExecutableFileTests` that did not end: what it waited for.
struct WaitTimedOut: Error, CustomStringConvertible {
    let description: String
}
