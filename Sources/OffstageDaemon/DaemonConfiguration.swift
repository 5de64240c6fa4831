public import Foundation
public import OffstageCore
public import OffstageLinux
import OffstageProtocol

/// Everything the daemon is told at start: where it keeps state, where it listens, how it freezes apps,
/// the policy numbers and its own rhythms. Defaults follow the XDG base directories.
public struct DaemonConfiguration: Sendable {
    /// The folder of the SQLite store and the apps' logs.
    public var stateDirectory: String
    /// The Unix-domain socket apps and `offstage ctl` connect to.
    public var socketPath: String
    /// How to suspend apps: detected at start unless forced.
    public var freezer: FreezerChoice = .automatic
    /// The name of the daemon's own control group (one sub-group per app below it).
    public var cgroupName = "offstage"
    /// The core's numbers (iOS's by default; tests shorten them).
    public var policy: Policy = .iOS
    /// Seconds between CPU and memory samples of running (not frozen) apps.
    public var sampleInterval: Double = 10
    /// Seconds between device probes while requests wait or tasks run (never while idle).
    public var probeInterval: Double = 30
    /// Seconds between SIGTERM and SIGKILL when no cgroup can kill at once.
    public var killGrace: Double = 2
    /// A group whose members may use the control commands that change things, besides the owner.
    public var controlGroup: UInt32?
    /// Decisions kept in the store's log; older ones are dropped.
    public var decisionLogLimit = 10_000
    /// Seconds after a change before the usage history, budgets and energy ledger are written (and at shutdown):
    /// a crash loses at most this much of them.
    public var memorySaveInterval: Double = 10

    /// Connections at once, and per user (apps' own connections aside): more are answered with an error and closed.
    public var maxConnections = 1024
    public var maxConnectionsPerUser = 128
    /// Connections at once of one app's processes (ours: an app needs one; its libraries' threads a few more).
    public var maxConnectionsPerApp = 16
    /// Bytes a connection may leave unread, and the clients (not apps) of one user together, before the daemon
    /// drops the connection (ours: 16 of the largest frames; a client that never reads holds no more).
    public var maxUnreadBytes = 1 << 20
    public var maxUnreadBytesPerUser = 8 << 20
    /// Seconds a connection may leave a message unfinished, and a client's connection (not an app's) may stay
    /// silent, before the daemon closes it.
    public var partialMessageTimeout: Double = 10
    public var idleTimeout: Double = 300
    /// Seconds the daemon takes no connection after running out of file descriptors (ours: long enough that a
    /// flood costs it no CPU, short enough that a client is answered well within a second once descriptors free up).
    public var descriptorShortagePause: Double = 0.25
    /// Seconds between two log lines of one kind that a client can provoke at will (out of descriptors, refused
    /// connections, refused messages): the ones between are counted, not written (ours).
    public var repeatedLogInterval: Double = 10

    /// The user apps run as (nil: the daemon's own user): their processes, their cgroup v2 group (delegated to
    /// them; no v1 group is) and their log files are theirs; the daemon's state folder (mode 0700) is not theirs.
    public var appUser: AppUser?
    /// One user per app instead (Android's model): each app is given the lowest free id of this range (as its
    /// uid and gid) at its first launch, kept in the store; exclusive with `appUser`.
    public var appUIDs: ClosedRange<UInt32>?
    /// Whether an app may run as root (its bundle folder owned by root with no other user given, or `appUser`
    /// root): off, such a launch is refused, since an app as root could do anything to the device.
    public var allowRootApps = false
    /// The service manager's readiness socket (`$NOTIFY_SOCKET`, for systemd's `Type=notify`): told `READY=1` once
    /// the daemon serves, `STOPPING=1` when it stops; nil: none to tell.
    public var notifySocket: String?
    /// Tests only: a file whose number of seconds is added to the wall clock as the daemon reads it; replaced
    /// whole (renamed over), since a read that meets a rewrite in place can join the old text to the new.
    public var wallClockShiftFile: String?

    public init(stateDirectory: String, socketPath: String) {
        self.stateDirectory = stateDirectory
        self.socketPath = socketPath
    }

    /// The default places: state in `$XDG_STATE_HOME/offstage` (or `~/.local/state/offstage`),
    /// the socket in `$XDG_RUNTIME_DIR` (or the state folder); the service manager's `$NOTIFY_SOCKET` if set.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> DaemonConfiguration
    {
        var configuration = DaemonConfiguration(
            stateDirectory: DaemonLocation.stateDirectory(environment: environment),
            socketPath: DaemonLocation.socketPath(environment: environment))
        configuration.notifySocket = environment["NOTIFY_SOCKET"]
        return configuration
    }
}
