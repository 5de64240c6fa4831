import Foundation
import OffstageCore
import OffstageProtocol
import Testing

/// Who an app runs as when the daemon is root: never root unless `--allow-root-apps` says so; by default the
/// owner of the app's bundle folder (issue 29).
@Suite(.serialized) struct DaemonPrivilegeTests {
    /// A root daemon without `--allow-root-apps` refuses to launch an app whose bundle folder root owns, and
    /// says why in its log.
    @Test(.enabled(if: getuid() == 0, "needs a root daemon"))
    func aRootOwnedAppIsRefusedWithoutAllowRootApps() throws {
        let daemon = try DaemonHarness(allowRootApps: false)
        let script = try Self.whoAmIScript(in: daemon.folder)
        try daemon.install("test.rooted", executable: script)
        try daemon.send(.open("test.rooted"))
        try daemon.waitUntil("the daemon refused to launch it as root") {
            ((try? String(contentsOfFile: daemon.folder + "/daemon.log", encoding: .utf8)) ?? "")
                .contains("the app would run as root")
        }
        #expect(try daemon.app("test.rooted")?.pid == nil)
        let appLog = (try? String(contentsOfFile: daemon.stateDirectory + "/logs/test.rooted.log", encoding: .utf8))
        #expect(appLog?.contains("uid 0") != true, "the app ran as root")
    }

    /// With no `--app-user` or `--app-uids`, a root daemon runs an app as the user owning its bundle folder,
    /// with that account's group.
    @Test(.enabled(if: DaemonHarness.cgroupsAvailable, "needs root and cgroup v2"))
    func anAppRunsAsTheOwnerOfItsBundleFolder() throws {
        let daemon = try DaemonHarness(freezer: "cgroup2", allowRootApps: false)
        let script = try Self.whoAmIScript(in: daemon.folder)
        let bundle = try daemon.install("test.owned", executable: script)
        let nobody = try #require(getpwnam("nobody")).pointee
        #expect(chown(bundle, nobody.pw_uid, nobody.pw_gid) == 0)
        try daemon.send(.open("test.owned"))
        let log = daemon.stateDirectory + "/logs/test.owned.log"
        try daemon.waitUntil("the app wrote who it is") {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("uid ")
        }
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("uid \(nobody.pw_uid) gid \(nobody.pw_gid)"))
        try daemon.send(.swipeAway("test.owned"))
    }

    /// A script that says its uid and gid, then waits.
    static func whoAmIScript(in folder: String) throws -> String {
        let script = folder + "/whoami.sh"
        try Data("#!/bin/sh\necho \"uid $(id -u) gid $(id -g)\"\nexec sleep 30\n".utf8)
            .write(to: URL(fileURLWithPath: script))
        chmod(script, 0o755)
        return script
    }
}
