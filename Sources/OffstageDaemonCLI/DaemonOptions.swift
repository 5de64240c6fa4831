public import ArgumentParser
import Foundation
import Logging
import OffstageCore
import OffstageDaemon
import OffstageLinux
import Synchronization

/// The options of the daemon and how it runs with them: shared by `offstage daemon` and `offstage-daemon`,
/// the daemon alone (an executable without the simulator and the rest of the CLI, which `offstage daemon`
/// runs when it is installed beside it).
public struct DaemonOptions: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: "Folder of the store and the apps' logs.")
    var stateDirectory: String?
    @Option(help: "Path of the Unix-domain socket.")
    var socket: String?
    @Option(help: "How to suspend apps: auto, cgroup2, cgroup1 or sigstop.")
    var freezer: String = "auto"
    @Option(name: .customLong("cgroup-name"), help: "Name of the daemon's control group.")
    var cgroupName = "offstage"
    @Option(name: .customLong("sample-interval"), help: "Seconds between CPU/memory samples of running apps.")
    var sampleInterval: Double = 10
    @Option(name: .customLong("probe-interval"), help: "Seconds between device probes while work waits.")
    var probeInterval: Double = 30
    @Option(
        name: .customLong("save-interval"),
        help: "Seconds after a change before usage history, budgets and energy are written.")
    var saveInterval: Double = 10
    @Option(name: .customLong("control-group"), help: "A group (name or id) whose members may also use `ctl`.")
    var controlGroup: String?
    @Option(name: .customLong("policy"), help: "Change a policy number, e.g. expirationGrace=2 (repeatable).")
    var policy: [String] = []
    @Option(
        name: .customLong("app-user"),
        help: "The user (name or id) apps run as, with its group; by default each bundle folder's owner.")
    var appUser: String?
    @Flag(
        name: .customLong("allow-root-apps"),
        help: "Let apps run as root (a root-owned bundle, --app-user root): refused without it.")
    var allowRootApps = false
    @Option(
        name: .customLong("app-uids"),
        help: "User ids FIRST-LAST: each app runs as one of its own (uid and gid), given at its first launch, kept.")
    var appUIDs: String?
    @Option(name: .customLong("max-connections"), help: "Connections at once (apps' aside), overall.")
    var maxConnections = 1024
    @Option(name: .customLong("max-connections-per-user"), help: "Connections at once (apps' aside), per user.")
    var maxConnectionsPerUser = 128
    @Option(name: .customLong("max-connections-per-app"), help: "Connections at once of one app's processes.")
    var maxConnectionsPerApp = 16
    @Option(
        name: .customLong("max-unread-bytes"),
        help: "Bytes a connection may leave unread before it is dropped (its answers, a frozen app's aside).")
    var maxUnreadBytes = 1 << 20
    @Option(
        name: .customLong("max-unread-bytes-per-user"),
        help: "Bytes the clients (apps aside) of one user may leave unread together before one is dropped.")
    var maxUnreadBytesPerUser = 8 << 20
    @Option(
        name: .customLong("partial-timeout"), help: "Seconds a connection may leave a message unfinished.")
    var partialTimeout: Double = 10
    @Option(name: .customLong("idle-timeout"), help: "Seconds a client's connection (not an app's) may stay silent.")
    var idleTimeout: Double = 300
    @Option(
        name: .customLong("wall-clock-shift-file"),
        help: ArgumentHelp("Tests only: a file of seconds added to the wall clock.", visibility: .hidden))
    var wallClockShiftFile: String?
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    public init() {}

    /// Checks the values while the command line is parsed, so that `offstage daemon` reports a bad one itself
    /// (with its own usage) before it hands over to `offstage-daemon`.
    public func validate() throws {
        _ = try freezerChoice()
        _ = try level()
        _ = try Self.policy(applying: policy)
        if let controlGroup { _ = try Self.groupID(controlGroup) }
    }

    private func freezerChoice() throws -> FreezerChoice {
        guard let choice = FreezerChoice(rawValue: freezer) else {
            throw ValidationError("--freezer: '\(freezer)' is not one of auto, cgroup2, cgroup1, sigstop")
        }
        return choice
    }

    private func level() throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("--log-level: '\(logLevel)' is not a log level")
        }
        return level
    }

    /// Runs the daemon with these options until SIGTERM or SIGINT.
    public func run() throws {
        var configuration = DaemonConfiguration.standard()
        if let stateDirectory { configuration.stateDirectory = Self.absolute(stateDirectory) }
        if let socket {
            configuration.socketPath = Self.absolute(socket)
        } else if stateDirectory != nil && (ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "").isEmpty {
            configuration.socketPath = configuration.stateDirectory + "/offstage.sock"
        }
        configuration.freezer = try freezerChoice()
        configuration.cgroupName = cgroupName
        configuration.sampleInterval = sampleInterval
        configuration.probeInterval = probeInterval
        configuration.memorySaveInterval = saveInterval
        configuration.maxConnections = maxConnections
        configuration.maxConnectionsPerUser = maxConnectionsPerUser
        configuration.maxConnectionsPerApp = maxConnectionsPerApp
        configuration.maxUnreadBytes = maxUnreadBytes
        configuration.maxUnreadBytesPerUser = maxUnreadBytesPerUser
        configuration.partialMessageTimeout = partialTimeout
        configuration.idleTimeout = idleTimeout
        configuration.wallClockShiftFile = wallClockShiftFile.map(Self.absolute)
        configuration.policy = try Self.policy(applying: policy)
        if let controlGroup { configuration.controlGroup = try Self.groupID(controlGroup) }
        if appUser != nil && appUIDs != nil {
            throw ValidationError("--app-user and --app-uids: choose one (one user for all apps, or one each)")
        }
        if let appUser { configuration.appUser = try Self.user(appUser) }
        if let appUIDs { configuration.appUIDs = try Self.userIDs(appUIDs) }
        configuration.allowRootApps = allowRootApps
        let logger = Self.makeLogger(level: try level())
        let finished = DispatchSemaphore(value: 0)
        let failure = Failure()
        Task {
            do {
                try await DaemonService.runUntilSignalled(configuration: configuration, logger: logger)
            } catch {
                failure.message.withLock { $0 = "\(error)" }
            }
            finished.signal()
        }
        finished.wait()
        if let message = failure.message.withLock({ $0 }) {
            throw DaemonError(.badOption, "offstage daemon: \(message)")
        }
    }

    /// The error a service ended with, handed from its task to the waiting command: written by the task, read
    /// once it has signalled, behind a `Mutex` so the compiler checks the hand-over.
    final class Failure: Sendable { let message = Mutex<String?>(nil) }

    static func makeLogger(level: Logger.Level) -> Logger {
        var logger = Logger(label: "offstage.daemon") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return logger
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// iOS's policy with `KEY=VALUE` changes, checked against the policy's fields.
    static func policy(applying changes: [String]) throws -> Policy {
        guard !changes.isEmpty else { return .iOS }
        var fields = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Policy.iOS)) as! [String: Any]
        for change in changes {
            let parts = change.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, fields[parts[0]] != nil else {
                throw ValidationError(
                    "--policy '\(change)': expected KEY=VALUE with KEY one of \(fields.keys.sorted().joined(separator: ", "))"
                )
            }
            guard let value = Double(parts[1]) else {
                throw ValidationError("--policy \(parts[0]): '\(parts[1])' is not a number")
            }
            // The number as given: an NSNumber from the encoded policy cannot tell 5.0 from 5, so a whole
            // Double field must not be taken for an Int one (expirationGrace=0.5 is 0.5, not 0).
            fields[parts[0]] = value
            do {
                _ = try JSONDecoder().decode(Policy.self, from: JSONSerialization.data(withJSONObject: fields))
            } catch {
                throw ValidationError("--policy \(parts[0]): '\(parts[1])' is not a valid value (a whole number?)")
            }
        }
        return try JSONDecoder().decode(Policy.self, from: JSONSerialization.data(withJSONObject: fields))
    }

    /// `FIRST-LAST`: user ids for apps, neither root's nor the daemon's own, nor any existing user's or group's.
    static func userIDs(_ text: String) throws -> ClosedRange<UInt32> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = UInt32(parts[0]), let last = UInt32(parts[1]), first <= last else {
            throw ValidationError("--app-uids: '\(text)' is not a range FIRST-LAST of user ids, e.g. 70000-79999")
        }
        guard first > 0, !(first...last).contains(getuid()) else {
            throw ValidationError("--app-uids: \(text) holds root's or the daemon's own user id")
        }
        if let user = existingAccount(in: first...last) {
            throw ValidationError(
                "--app-uids: \(text) holds the user id of the existing user '\(user.name)' (\(user.id)): an app would "
                    + "run as that user, with its files; choose a range no account uses")
        }
        if let group = existingGroup(in: first...last) {
            throw ValidationError(
                "--app-uids: \(text) holds the id of the existing group '\(group.name)' (\(group.id)): an app, given "
                    + "its user id as its group id, would share that group's files; choose a range no group uses")
        }
        return first...last
    }

    /// The first account (from the system's user database, as `getent passwd` lists it) whose user id is in `range`.
    static func existingAccount(in range: ClosedRange<UInt32>) -> (name: String, id: UInt32)? {
        firstEntry(in: range, opening: setpwent, next: getpwent, closing: endpwent) {
            ($0.pw_name, $0.pw_uid)
        }
    }

    /// The first group (as `getent group` lists it) whose id is in `range`: apps of `--app-uids` get their user id
    /// as their group id.
    static func existingGroup(in range: ClosedRange<UInt32>) -> (name: String, id: UInt32)? {
        firstEntry(in: range, opening: setgrent, next: getgrent, closing: endgrent) {
            ($0.gr_name, $0.gr_gid)
        }
    }

    /// Walks one of the system's databases (users or groups) from its start and returns the first entry whose id
    /// is in `range`, with its name.
    private static func firstEntry<Entry>(
        in range: ClosedRange<UInt32>, opening: () -> Void, next: () -> UnsafeMutablePointer<Entry>?,
        closing: () -> Void, _ nameAndID: (Entry) -> (UnsafeMutablePointer<CChar>?, UInt32)
    ) -> (name: String, id: UInt32)? {
        opening()
        defer { closing() }
        while let entry = next() {
            let (name, id) = nameAndID(entry.pointee)
            if range.contains(id) { return (name.map { String(cString: $0) } ?? "\(id)", id) }
        }
        return nil
    }

    /// The user `name` (or numeric id) names, with its primary group.
    static func user(_ name: String) throws -> AppUser {
        guard let entry = UInt32(name).map({ getpwuid($0) }) ?? getpwnam(name) else {
            throw ValidationError("--app-user: no user named '\(name)'")
        }
        return AppUser(uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }

    static func groupID(_ name: String) throws -> UInt32 {
        if let id = UInt32(name) { return id }
        guard let entry = getgrnam(name) else { throw ValidationError("--control-group: no group named '\(name)'") }
        return entry.pointee.gr_gid
    }
}
