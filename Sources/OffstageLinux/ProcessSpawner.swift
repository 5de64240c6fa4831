import Glibc

/// Starts an app's executable as a new session and process group, inside its control groups from its first
/// instruction: a `/bin/sh` trampoline joins the groups, then `exec`s the app (no fork race).
package enum ProcessSpawner {
    /// Spawns `executable` with `environment` as its whole environment (nothing of the daemon's own: the caller
    /// chooses what an app sees) and `OFFSTAGE_CGROUP_PROCS`, the trampoline's; stdout and stderr go to `logPath`.
    /// Signal dispositions and the mask are reset: the daemon's own handling must not leak into apps, nor may any of
    /// its descriptors: the child keeps only 0, 1 and 2 (`closeInheritedDescriptors`).
    /// With `user`, the trampoline becomes that user (`setpriv`: its uid and group, no supplementary groups, no
    /// capabilities) after joining the groups and before the app's first instruction.
    package static func spawn(
        executable: String, environment: [String: String], joining procsFiles: [String], logPath: String,
        as user: AppUser? = nil
    ) throws(HostError) -> Int32 {
        let becomeUser =
            user.map {
                "/usr/bin/setpriv --reuid=\($0.uid) --regid=\($0.gid) --clear-groups --inh-caps=-all -- "
            } ?? ""
        let script =
            #"for f in $OFFSTAGE_CGROUP_PROCS; do echo 0 > "$f" || exit 126; done; exec "#
            + becomeUser + #""$0" "$@""#
        let arguments = ["/bin/sh", "-c", script, executable]
        var environment = environment
        environment["OFFSTAGE_CGROUP_PROCS"] = procsFiles.joined(separator: " ")
        if let user {
            // The log is the app's file: created here, then given to its user.
            let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            if log >= 0 {
                fchown(log, user.uid, user.gid)
                close(log)
            }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        closeInheritedDescriptors(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        // A session of its own (and so a process group): the app's group is orphaned from the start, so the
        // daemon's death never sends it the SIGHUP and SIGCONT the kernel gives a stopped group it orphans,
        // which would kill (or thaw) a frozen app the next daemon means to adopt.
        posix_spawnattr_setflags(
            &attributes, Int16(spawnSetSession | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw HostError(.cannotStart, "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Makes sure the child gets no descriptor of the daemon's above stderr (its socket, clients, store, freezer
    /// files, pipes): glibc closes them in the child (`addclosefrom_np`), or else every one is marked close-on-exec.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        let firstInherited: Int32 = 3
        if let addCloseFrom, addCloseFrom(&actions, firstInherited) == 0 { return }
        markCloseOnExec(from: firstInherited)
    }

    /// Marks every open descriptor numbered `lowest` or more close-on-exec (those `/proc/self/fd` lists), for a
    /// glibc that cannot close them in the child; one opened meanwhile by another thread may still slip through.
    package static func markCloseOnExec(from lowest: Int32) {
        for fd in ProcFS.openDescriptors() where fd >= lowest {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later), a GNU extension Swift's Glibc module does
    /// not export; nil on an older glibc.
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `POSIX_SPAWN_SETSID` (2.26 and later), which Swift's Glibc module does not export.
    private static let spawnSetSession: Int32 = 0x80
}
