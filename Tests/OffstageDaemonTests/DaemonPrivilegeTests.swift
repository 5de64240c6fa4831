import Foundation
import OffstageCore
import OffstageProtocol
import OffstageTestSupport
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

    /// With the cgroup v1 freezer and one user for every app (`--app-user`), an app cannot move a process into
    /// another app's groups (to be taken for it) nor make a sub-group of its own (to outlive a swipe): v1 checks
    /// no common ancestor, so the daemon delegates no v1 group (issue 29).
    @Test(.enabled(if: DaemonHarness.cgroupV1FreezerAvailable, "needs root and the cgroup v1 freezer"))
    func withTheV1FreezerAnAppCannotJoinAnothersGroupNorMakeASubGroup() throws {
        let daemon = try DaemonHarness(freezer: "cgroup1", options: ["--app-user", "nobody"])
        let victim = try Self.whoAmIScript(in: daemon.folder)
        try daemon.install("test.victim", executable: victim)
        try daemon.send(.open("test.victim"))
        try daemon.waitUntil("the victim runs") { (try? daemon.app("test.victim")?.pid) != nil }
        let groups = ["/sys/fs/cgroup/freezer", "/sys/fs/cgroup/cpu"].map { "\($0)/\(daemon.cgroupName)" }
        let lines =
            ["#!/bin/sh", "sleep 60 & child=$!"]
            + groups.flatMap { base in
                [
                    "echo $child > \(base)/test.victim/cgroup.procs 2>/dev/null && echo \"moved in \(base): yes\" "
                        + "|| echo \"moved in \(base): no\"",
                    "mkdir \(base)/test.poser/sub 2>/dev/null && echo \"sub-group in \(base): yes\" "
                        + "|| echo \"sub-group in \(base): no\"",
                ]
            } + ["echo done", "exec sleep 30"]
        let said = try daemon.openScript("test.poser", lines, until: "done")
        #expect(!said.contains(": yes"), "the app reached outside its group: \(said)")
        #expect(said.contains("moved in /sys/fs/cgroup/freezer/\(daemon.cgroupName): no"))
        try daemon.send(.swipeAway("test.poser"))
        try daemon.send(.swipeAway("test.victim"))
    }

    /// A script that says its uid and gid, then waits.
    static func whoAmIScript(in folder: String) throws -> String {
        try ExecutableFile.write(
            "#!/bin/sh\necho \"uid $(id -u) gid $(id -g)\"\nexec sleep 30\n", to: folder + "/whoami.sh")
    }
}
