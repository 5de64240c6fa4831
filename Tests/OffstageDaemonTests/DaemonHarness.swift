import Foundation
import GRDB
import OffstageCore
import OffstageProtocol
import OffstageTestSupport
import Testing

/// A real `offstage daemon` process for one test: its own temporary state folder, socket and control
/// group, apps made from the test app (or any executable), and polling helpers (tests never sleep blindly).
/// Not `Sendable`: the test's thread owns it; threads a test starts take the values they need (the socket path).
final class DaemonHarness {
    let folder: String
    let freezer: String
    let policy: [String]
    let cgroupName = "offstage-test-\(UUID().uuidString.prefix(8).lowercased())"
    private(set) var daemon: Process?

    var stateDirectory: String { folder + "/state" }
    var socketPath: String { folder + "/offstage.sock" }

    /// Daemon options added to the harness's own (e.g. `["--probe-interval", "0.1"]`).
    let options: [String]

    /// Variables added to the daemon's environment (e.g. a service manager's `NOTIFY_SOCKET`).
    let environment: [String: String]

    /// `allowRootApps`: the test's app bundles are root's (a root test made them), and run as root only with
    /// `--allow-root-apps`, which the harness passes unless a test checks the refusal.
    init(
        freezer: String = "auto", policy: [String] = [], options: [String] = [], allowRootApps: Bool = true,
        environment: [String: String] = [:]
    ) throws {
        folder = NSTemporaryDirectory() + "offstage-\(UUID().uuidString.prefix(8))"
        self.environment = environment
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        chmod(folder, 0o755)
        self.freezer = freezer
        self.policy = policy
        self.options = options + (allowRootApps ? ["--allow-root-apps"] : [])
        try start()
    }

    deinit {
        if let daemon {
            let pid = daemon.processIdentifier
            kill(pid, SIGTERM)
            Self.waitForExit(pid, timeout: 10)
            if ProcessProbe.isAlive(pid) { kill(pid, SIGKILL) }
        }
        Self.removeGroups(named: cgroupName)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The hierarchies the daemon may make its groups in.
    static let groupRoots = [
        "/sys/fs/cgroup/unified", "/sys/fs/cgroup", "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/freezer",
    ]

    /// Removes the daemon's control groups (its apps' first), waiting a little for killed processes to go.
    static func removeGroups(named name: String) {
        for root in groupRoots {
            let base = "\(root)/\(name)"
            guard FileManager.default.fileExists(atPath: base) else { continue }
            let deadline = Date(timeIntervalSinceNow: 2)
            repeat {
                let children = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
                for child in children where !child.contains(".") || child.hasPrefix("test.") || child.hasPrefix("com.")
                {
                    rmdir("\(base)/\(child)")
                }
                if rmdir(base) == 0 { break }
                usleep(20_000)
            } while Date() < deadline
        }
    }

    // MARK: The built products

    /// The folder holding the package's built executables (next to the test bundle).
    static let products: URL = {
        var candidate = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 where !FileManager.default.fileExists(atPath: candidate.appendingPathComponent("offstage").path)
        {
            candidate.deleteLastPathComponent()
        }
        if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("offstage").path) {
            return candidate
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug")
    }()

    static func product(_ name: String) -> String { products.appendingPathComponent(name).path }

    /// The Python client of `Tests/clients`.
    static let pythonClient = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("clients/client.py").path

    /// Whether this machine lets the tests create control groups (root and a writable cgroup v2).
    static var cgroupsAvailable: Bool {
        getuid() == 0
            && ["/sys/fs/cgroup/cgroup.subtree_control", "/sys/fs/cgroup/unified/cgroup.subtree_control"].contains {
                FileManager.default.fileExists(atPath: $0)
            }
    }

    /// Whether this machine lets the tests create groups in a cgroup v1 freezer hierarchy (root and the mount).
    static var cgroupV1FreezerAvailable: Bool {
        getuid() == 0 && FileManager.default.fileExists(atPath: "/sys/fs/cgroup/freezer/cgroup.procs")
    }

    // MARK: The daemon

    /// A variable in the daemon's environment that its apps must not see (they get a minimal one).
    static let daemonOnlyVariable = "OFFSTAGE_TEST_DAEMON_ONLY"

    /// Starts the daemon and waits until it answers.
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.product("offstage"))
        process.arguments =
            [
                "daemon", "--state-dir", stateDirectory, "--socket", socketPath, "--freezer", freezer,
                "--cgroup-name", cgroupName, "--sample-interval", "0.5", "--save-interval", "0.2",
                "--log-level", "debug",
            ] + policy.flatMap { ["--policy", $0] } + options
        var environment = ProcessInfo.processInfo.environment
        environment[Self.daemonOnlyVariable] = "the daemon's alone"
        environment.merge(self.environment) { _, given in given }
        process.environment = environment
        guard FileManager.default.createFile(atPath: folder + "/daemon.log", contents: nil),
            let log = FileHandle(forWritingAtPath: folder + "/daemon.log")
        else { throw HarnessError("cannot create \(folder)/daemon.log") }
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        daemon = process
        // Waits for the answer, not for a time: a debug daemon's start on a loaded machine (the whole suite at load
        // 8) has taken over 10 s; one that ended fails the wait at once.
        try waitUntil("the daemon answers", timeout: 60) {
            guard ProcessProbe.isAlive(process.processIdentifier) else {
                throw HarnessError("the daemon ended before it answered\n--- daemon log ---\n\(self.log.suffix(3000))")
            }
            return (try? self.control(.status)) != nil
        }
    }

    /// Ends the daemon with SIGKILL: no chance to clean up or write anything.
    func killHard() {
        guard let daemon else { return }
        kill(daemon.processIdentifier, SIGKILL)
        Self.waitForExit(daemon.processIdentifier, timeout: 10)
        self.daemon = nil
    }

    /// Stops the daemon as a service manager would (SIGTERM) and waits until it has gone.
    func stop() {
        guard let daemon else { return }
        kill(daemon.processIdentifier, SIGTERM)
        Self.waitForExit(daemon.processIdentifier, timeout: 10)
        self.daemon = nil
    }

    /// The pid of the daemon this harness started last (nil once killed).
    var daemonProcessID: Int32? { daemon?.processIdentifier }

    var daemonIsRunning: Bool { daemon.map { ProcessProbe.isAlive($0.processIdentifier) } ?? false }

    /// Waits until the process has ended (gone or a zombie), polling /proc: Foundation's
    /// `waitUntilExit` has been seen to miss an exit when many children come and go.
    static func waitForExit(_ pid: Int32, timeout: Double) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while ProcessProbe.isAlive(pid) && Date() < deadline { usleep(10_000) }
    }

    /// Lowers the running daemon's limit of open files to `limit` (soft and hard) with util-linux's `prlimit`,
    /// as a service manager's `LimitNOFILE=` would: a test can then reach the limit with a few connections.
    func limitOpenFiles(to limit: Int) throws {
        guard let pid = daemonProcessID else { throw HarnessError("no daemon to limit") }
        let prlimit = Process()
        prlimit.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        prlimit.arguments = ["--pid", "\(pid)", "--nofile=\(limit):\(limit)"]
        try prlimit.run()
        prlimit.waitUntilExit()
        guard prlimit.terminationStatus == 0 else { throw HarnessError("prlimit failed for \(pid)") }
    }

    /// How many files the daemon has open now.
    var daemonOpenFiles: Int {
        daemonProcessID.map { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\($0)/fd").count) ?? 0 } ?? 0
    }

    /// Sends a control command and returns the reply.
    @discardableResult
    func control(_ command: ControlCommand) throws -> ControlReply {
        try ControlClient(path: socketPath, timeout: 10).send(command)
    }

    func send(_ event: SystemEvent) throws { try control(.event(event: event)) }

    // MARK: Apps

    /// Makes `Name.app` with an Info.plist (declaring `OFFSTAGE_TEST_DIR` and `environment` in `LSEnvironment`) and
    /// a link to `executable` (the test app by default), and installs it.
    @discardableResult
    func install(
        _ bundle: String, behaviours: [String] = [], executable: String = DaemonHarness.product("offstage-testapp"),
        permitted: [String]? = nil, modes: [String] = ["fetch", "processing"], environment: [String: String] = [:]
    ) throws -> String {
        let path = "\(folder)/\(bundle).app"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let name = URL(fileURLWithPath: executable).lastPathComponent
        try FileManager.default.createSymbolicLink(atPath: "\(path)/\(name)", withDestinationPath: executable)
        let plist: [String: Any] = [
            "CFBundleIdentifier": bundle, "CFBundleExecutable": name,
            "UIBackgroundModes": modes,
            "BGTaskSchedulerPermittedIdentifiers": permitted ?? ["\(bundle).refresh", "\(bundle).stuck"],
            "OffstageTestBehaviours": behaviours,
            // Apps get a minimal environment, not the daemon's: the folder they write their events to is declared.
            "LSEnvironment": environment.merging(["OFFSTAGE_TEST_DIR": folder]) { given, _ in given },
        ]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: "\(path)/Info.plist"))
        try control(.install(path: path))
        return path
    }

    func apps() throws -> [AppInfo] {
        guard case .apps(let apps) = try control(.apps) else { return [] }
        return apps
    }

    func app(_ bundle: String) throws -> AppInfo? { try apps().first { $0.bundle.rawValue == bundle } }

    func status() throws -> DaemonStatus? {
        guard case .status(let status) = try control(.status) else { return nil }
        return status
    }

    func tasks() throws -> [TaskInfo] {
        guard case .tasks(let tasks) = try control(.tasks) else { return [] }
        return tasks
    }

    func decisions(_ bundle: String) throws -> [String] {
        guard case .records(let records) = try control(.why(bundle: BundleID(bundle), limit: 200)) else { return [] }
        return records.map { "\($0.record.kind.rawValue): \($0.record.reason)" }
    }

    /// Lines the app wrote to its event file.
    func events(_ bundle: String) -> [String] {
        ((try? String(contentsOfFile: "\(folder)/\(bundle).events", encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// Whether the kernel shows the app's process frozen: `frozen 1` in its group's `cgroup.events` (cgroup v2),
    /// or every thread of `pid` stopped (state `T`, SIGSTOP).
    func kernelShowsFrozen(_ bundle: String, pid: Int32) -> Bool {
        if freezer == "sigstop" {
            let states = ProcessProbe.threadStates(pid)
            return !states.isEmpty && states.allSatisfy { $0 == "T" }
        }
        return ["/sys/fs/cgroup/unified", "/sys/fs/cgroup"].contains { root in
            let events = try? String(contentsOfFile: "\(root)/\(cgroupName)/\(bundle)/cgroup.events", encoding: .utf8)
            return events?.contains("frozen 1") ?? false
        }
    }

    /// Opens the app and waits until it is active with a process; returns its pid.
    func openAndWait(_ bundle: String) throws -> Int32 {
        try send(.open(BundleID(bundle)))
        var pid: Int32 = 0
        try waitUntil("\(bundle) is active") {
            guard let app = try self.app(bundle), app.state == .active, let live = app.pid else { return false }
            pid = live
            return true
        }
        return pid
    }

    /// Runs `offstage ctl ARGUMENTS` against this daemon (the command path a user takes) and returns its output.
    @discardableResult
    func ctl(_ arguments: [String]) throws -> String { try ctlExiting(arguments).output }

    /// Runs `offstage ctl ARGUMENTS` and returns its output and exit status.
    func ctlExiting(_ arguments: [String]) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.product("offstage"))
        process.arguments = ["ctl"] + arguments + ["--socket", socketPath]
        let output = String(decoding: try run(process, errors: true), as: UTF8.self)
        process.waitUntilExit()
        return (output, process.terminationStatus)
    }

    /// Starts `process` with its standard output (and error, with `errors`) going to a new file in `folder`, and
    /// returns the file: read it once the process has ended. A file, not a pipe: Foundation's pipe reads raced
    /// other tests' spawns in this process (a read of a closed descriptor trapped the whole test run).
    static func start(_ process: Process, outputIn folder: String, errors: Bool = false) throws -> URL {
        let output = URL(fileURLWithPath: folder + "/output-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw HarnessError("cannot create \(output.path)")
        }
        let file = try FileHandle(forWritingTo: output)
        defer { try? file.close() }
        process.standardOutput = file
        if errors { process.standardError = file }
        try process.run()
        return output
    }

    /// Runs `process` to its end (30 s at most) and returns what it wrote (see `start`).
    func run(_ process: Process, errors: Bool = false) throws -> Data {
        let output = try Self.start(process, outputIn: folder, errors: errors)
        Self.waitForExit(process.processIdentifier, timeout: 30)
        return try Data(contentsOf: output)
    }

    /// Installs and opens an app whose executable is the script `lines` (its bundle declaring `environment`),
    /// then waits until its log holds `marker` and returns the log: for tests where the app itself tries something
    /// and says what happened.
    func openScript(
        _ bundle: String, _ lines: [String], until marker: String, environment: [String: String] = [:]
    ) throws -> String {
        let script = try ExecutableFile.write(lines.joined(separator: "\n") + "\n", to: "\(folder)/\(bundle).script")
        try install(bundle, executable: script, environment: environment)
        try send(.open(BundleID(bundle)))
        let log = "\(stateDirectory)/logs/\(bundle).log"
        try waitUntil("\(bundle) wrote \(marker)") {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains(marker)
        }
        return try String(contentsOfFile: log, encoding: .utf8)
    }

    /// Installs ColorFeed (the unchanged WWDC25 sample) from the built `colorfeed` and its Info.plist.
    func installColorFeed() throws {
        let bundle = folder + "/ColorFeed.app"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: bundle + "/colorfeed", withDestinationPath: Self.product("colorfeed-app"))
        try FileManager.default.copyItem(
            atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(
                    "Examples/ColorFeed/Sources/ColorFeed/ColorFeed-Info.plist"
                ).path, toPath: bundle + "/Info.plist")
        try control(.install(path: bundle))
    }

    /// Runs the Python client with `arguments` and returns its output lines.
    func python(_ arguments: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.pythonClient, socketPath] + arguments
        return String(decoding: try run(process), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The daemon's log so far (all its runs).
    var log: String { (try? String(contentsOfFile: folder + "/daemon.log", encoding: .utf8)) ?? "" }

    /// Runs one SQL statement on the daemon's store (with Python's sqlite3; the daemon must be stopped).
    func sql(_ statement: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()",
            stateDirectory + "/offstage.sqlite", statement,
        ]
        try process.run()
        Self.waitForExit(process.processIdentifier, timeout: 10)
    }

    /// The rows of one query on the daemon's store (the daemon must be stopped), each column as text ("" for
    /// NULL). Read in this process and read-only: the store stays as the daemon left it (its write-ahead log too,
    /// which a writer's close would fold in), and a test between a kill and a restart waits no process start.
    func query(_ statement: String) throws -> [[String]] {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)  // a daemon that is stopping may still hold its lock a moment
        let store = try DatabaseQueue(path: stateDirectory + "/offstage.sqlite", configuration: configuration)
        return try store.read { db in
            try Row.fetchAll(db, sql: statement).map { row in
                row.databaseValues.map { value in
                    switch value.storage {
                    case .null: ""
                    case .int64(let number): String(number)
                    case .double(let number): String(number)
                    case .string(let text): text
                    case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
                    }
                }
            }
        }
    }

    /// Bytes sent to process `pid` that wait unread in its sockets (`ss`'s Recv-Q of each socket it holds).
    func unreadBytes(ofProcess pid: Int32) throws -> Int {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        let inodes = Set(
            descriptors.compactMap { fd -> String? in
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                    target.hasPrefix("socket:[")
                else { return nil }
                return String(target.dropFirst("socket:[".count).dropLast())
            })
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ss", "-xnH"]
        // Columns: type, state, Recv-Q, Send-Q, local address, local inode, peer address, peer inode.
        return String(decoding: try run(process), as: UTF8.self).split(separator: "\n").reduce(0) { sum, line in
            let columns = line.split(whereSeparator: \.isWhitespace)
            guard columns.count > 5, inodes.contains(String(columns[5])) else { return sum }
            return sum + (Int(columns[2]) ?? 0)
        }
    }

    // MARK: Waiting

    /// Polls `condition` every 20 ms until it holds; fails after `timeout` seconds naming `what`. A minute by
    /// default, as for the daemon's answers: with the suite's daemons and apps side by side on two loaded cores, an
    /// app has taken over 10 s to start its child.
    func waitUntil(_ what: String, timeout: Double = 60, _ condition: () throws -> Bool) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if try condition() { return }
            usleep(20_000)
        }
        let log = (try? String(contentsOfFile: folder + "/daemon.log", encoding: .utf8))?.suffix(3000) ?? ""
        throw HarnessError("timed out after \(timeout) s waiting until \(what)\n--- daemon log ---\n\(log)")
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// What /proc says of a process: its state letter and CPU ticks (nil once it is gone or a zombie). A process
/// whose first thread is a zombie but which has other threads lives on: `offstage` execs the daemon from another
/// thread, and until the exec is done /proc shows it so.
struct ProcessProbe {
    static func stat(_ pid: Int32) -> (state: Character, cpuTicks: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard let state = fields.first?.first, state != "Z" || Int(fields[17]) ?? 1 > 1,
            let user = Int(fields[11]), let system = Int(fields[12])
        else { return nil }
        return (state, user + system)
    }

    static func isAlive(_ pid: Int32) -> Bool { stat(pid) != nil }

    /// The nice value of the process's main thread (field 19 of `/proc/PID/stat`), and its thread name.
    static func niceAndName(_ pid: Int32, thread: String? = nil) -> (nice: Int, name: String)? {
        let path = thread.map { "/proc/\(pid)/task/\($0)/stat" } ?? "/proc/\(pid)/stat"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 16, let nice = Int(fields[16]) else { return nil }
        return (nice, String(text[text.index(after: open)..<close]))
    }

    /// Every thread of the process: its nice value and name.
    static func threads(_ pid: Int32) -> [(nice: Int, name: String)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { niceAndName(pid, thread: $0) }
    }

    /// The state letters of every thread of the process.
    static func threadStates(_ pid: Int32) -> [Character] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { tid in
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
                let close = text.lastIndex(of: ")")
            else { return nil }
            return text[text.index(after: close)...].split(separator: " ").first?.first
        }
    }
}
