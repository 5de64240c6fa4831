import Foundation
import Glibc
import Logging
import OffstageCore
import OffstageLinux
import OffstageProtocol
import Synchronization

/// The real-time host of the core: one thread runs a `poll` loop over the socket, the client
/// connections and a wake-up pipe, and sleeps until the core's next due time or an event.
/// Everything the daemon knows lives here and is touched only on that thread: the daemon is made on it and is not
/// `Sendable`; other threads reach the loop through its `Inbox` alone.
final class Daemon {
    let configuration: DaemonConfiguration
    let logger: Logger
    var clock: DaemonClock
    var timers: WakeTimers
    /// The operating system's side of the apps (Linux: procfs, cgroups, signals; a double in unit tests).
    let host: any AppProcessHost
    let store: Store
    /// Tells the service manager (systemd, `Type=notify`) when the daemon serves and when it stops.
    let serviceManager: ServiceNotifier
    /// Held for the daemon's life: one daemon per state folder.
    let stateLock: StateLock
    var system: BackgroundSystem

    let listener: Int32
    /// Where other threads post to the loop (a child exited, a sync ended, shutdown was asked), waking its `poll`.
    let inbox: Inbox

    var connections: [Int32: Connection] = [:]
    /// Clients' connections (not apps') per user, for the limits; when to sweep connections next.
    var clientConnections: [UInt32: Int] = [:]
    /// Each app's connections, for `maxConnectionsPerApp`; the bytes clients (not apps) of each user leave unread,
    /// for `maxUnreadBytesPerUser` (`flush` keeps it, from each connection's `countedUnread`).
    var appConnections: [BundleID: Int] = [:]
    var unreadBytes: [UInt32: Int] = [:]
    var sweepAt: Instant?
    /// A descriptor kept for taking (and closing) a connection when the daemon is out of descriptors.
    var spareDescriptor: Int32 = open("/dev/null", O_RDONLY | O_CLOEXEC)
    /// While set, the daemon is out of descriptors and leaves the listener out of `poll` until then
    /// (`pauseAccepting`); connections shed since the last log line about it.
    var acceptingResumesAt: Instant?
    var shedConnections = 0
    /// Log lines a client can provoke at will (out of descriptors, refused connections, unread answers, refused
    /// messages), at most one per `repeatedLogInterval` each.
    lazy var shortageLog = LogThrottle(interval: configuration.repeatedLogInterval)
    lazy var refusalLog = LogThrottle(interval: configuration.repeatedLogInterval)
    lazy var unreadLog = LogThrottle(interval: configuration.repeatedLogInterval)
    lazy var refusedMessageLog = LogThrottle(interval: configuration.repeatedLogInterval)
    /// Group commit: the generation of the last commit that held acknowledged changes (handed to `syncer`) and of
    /// the last one on disk; the connections whose answers wait for theirs (`Connection.heldUntil`).
    var committedGeneration: UInt64 = 0
    var syncedGeneration: UInt64 = 0
    var awaitingSync: [Connection] = []
    /// Syncs the store's write-ahead log on a thread of its own and posts each sync to the loop.
    let syncer: StoreSyncer
    /// Where every connection's bytes are read to (one for all: the loop reads one connection at a time).
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    var apps: [BundleID: ManagedApp] = [:]
    /// The apps with a live process (`ManagedApp.process` set): the loop samples these, never every installed app.
    /// Kept with it: by `launch` and the adoption of a process left by a previous run, and by `forgetProcess`.
    var liveApps = Set<BundleID>()
    /// Processes the daemon ended, waiting for their exit: pid → app.
    var dying: [Int32: BundleID] = [:]
    /// SIGKILLs due after the SIGTERM grace (SIGSTOP freezer only).
    var pendingKills: [(app: BundleID, process: AppProcess, at: Instant)] = []
    var overrides = DeviceOverrides()
    var reading = DeviceReading()
    var lastProbe = Instant.zero
    /// Whether requests may wait or tasks run, so that the device is probed: set as soon as work appears (a
    /// call leaves requests pending, a task starts), cleared only by an exact look (`hasWaitingWork`) when a
    /// probe falls due and after control commands and ticks, never per message.
    var workMayWait = false
    var savedPending: [BundleID: [TaskRequest]] = [:]
    /// What the core knew of each live process as last written, for re-adoption after a crash.
    var savedProcessMemory: [BundleID: ProcessMemory] = [:]
    var savedSettings = UserSettings()
    /// Decisions not yet written to the store (written within a second, and at shutdown).
    var decisions: DecisionBuffer
    var flushAt: Instant?
    /// The system's memory as last written, and when to write it next (some seconds after a change).
    var savedMemory: SystemSnapshot?
    var memoryAt: Instant?
    var stopping = false
    /// The last freeze or thaw, timed (`ctl status`; the benchmark reads it).
    var lastFreezerAction: FreezerAction?
    /// Apps just frozen whose last CPU and memory sample is taken at `finalSamplesAt`, once the freeze has taken
    /// effect (or when they are thawed first).
    var finalSamples: [BundleID] = []
    var finalSamplesAt: Instant?
    /// The next sample of an app that runs, as last worked out, and whether it must be worked out again
    /// (`nextSampleDue`).
    var nextSampleAt: Instant?
    var samplingChanged = true

    /// Opens the store, detects the freezer, restores the apps and their pending requests, adopts (or cleans
    /// up) processes left by a previous run, and starts listening. `makeHost` makes the Linux layer, given what
    /// to call when an app's process ends (by default the real one, `LinuxProcessHost`); `inbox` is the one the
    /// service posts shutdown to (a new one by default).
    init(
        configuration: DaemonConfiguration, logger: Logger,
        host makeHost: ((@escaping @Sendable (_ pid: Int32, _ how: String) -> Void) throws -> any AppProcessHost)? =
            nil,
        inbox: Inbox? = nil
    ) throws {
        self.inbox = try inbox ?? Inbox()
        self.configuration = configuration
        // Clients choose some of what is logged (a refused value, a claimed bundle): no line break of theirs reaches it.
        self.logger = EscapingLogHandler.wrapping(logger)
        serviceManager = ServiceNotifier(socketPath: configuration.notifySocket)
        guard SysFile.makeDirectory(configuration.stateDirectory, mode: 0o700),
            SysFile.makeDirectory(configuration.stateDirectory + "/logs", mode: 0o700)
        else { throw DaemonError(.startup, "cannot create the state folder \(configuration.stateDirectory)") }
        stateLock = try StateLock(folder: configuration.stateDirectory)
        let statePath = configuration.stateDirectory + "/offstage.sqlite"
        Self.setAsideEmptyStore(statePath, logger: self.logger)
        if stateLock.previousRunEndedUncleanly && SysFile.exists(statePath) && !SysFile.exists(statePath + "-wal") {
            // A run that did not stop cleanly leaves its write-ahead log: gone, the changes it held are lost.
            let lost =
                "the write-ahead log is missing after a run that did not stop cleanly: the changes it held since "
                + "its last checkpoint (acknowledged ones among them) are lost; starting from the store's file"
            self.logger.error(
                "\(lost)",
                metadata: ["file": "\(statePath)-wal", "store": "\(statePath)"])
        }
        store = try Store(path: statePath)
        let memory: (snapshot: SystemSnapshot, clockOrigin: Double)?
        do { memory = try store.memory() } catch {
            let copy = (try? store.keepCopy()) ?? "no copy could be made"
            self.logger.error(
                "the usage history, budgets and energy ledger cannot be read: starting without them",
                metadata: ["file": "\(statePath)", "error": "\(error)", "kept as": "\(copy)"])
            memory = nil
        }
        clock = DaemonClock(
            origin: memory?.clockOrigin, notBefore: memory?.snapshot.takenAt ?? .zero,
            wallClockShiftFile: configuration.wallClockShiftFile)
        timers = try WakeTimers()
        savedMemory = memory?.snapshot
        decisions = DecisionBuffer(limit: configuration.decisionLogLimit)
        system = BackgroundSystem(policy: configuration.policy, wallClock: clock.wallClock())
        syncer = StoreSyncer(walPath: store.walPath) { [inbox = self.inbox] report in inbox.post(.synced(report)) }
        let socketFolder = String(
            configuration.socketPath[
                ..<(configuration.socketPath.lastIndex(of: "/") ?? configuration.socketPath.startIndex)])
        if !socketFolder.isEmpty { SysFile.makeDirectory(socketFolder, mode: 0o755) }
        listener = try ListeningSocket.open(at: configuration.socketPath)
        let exited: @Sendable (Int32, String) -> Void = { [inbox = self.inbox] pid, how in
            inbox.post(.childExited(pid: pid, how: how))
        }
        host =
            try makeHost?(exited)
            ?? LinuxProcessHost(freezer: configuration.freezer, groupName: configuration.cgroupName, onExit: exited)
        try restore()
        if configuration.allowRootApps {
            self.logger.warning(
                "apps may run as root (--allow-root-apps): an app as root can do anything to the device")
        }
        self.logger.info(
            "offstage daemon started",
            metadata: [
                "socket": "\(configuration.socketPath)", "state": "\(configuration.stateDirectory)",
                "freezer": "\(host.freezer.rawValue)", "apps": "\(apps.count)",
            ])
    }

    /// A state file of 0 bytes (truncated) would open as a new, empty store without a word: it is set aside
    /// (with its log) as `…damaged-<seconds>` and said so; a missing one is said too.
    private static func setAsideEmptyStore(_ path: String, logger: Logger) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return logger.notice("no state file: starting with no apps", metadata: ["file": "\(path)"])
        }
        guard info.st_size == 0 else { return }
        let aside = "\(path).damaged-\(time(nil))"
        for suffix in ["", "-wal", "-shm"] where SysFile.exists(path + suffix) { rename(path + suffix, aside + suffix) }
        logger.error(
            "the state file is empty (0 bytes): starting with no apps; it is kept aside",
            metadata: ["file": "\(path)", "kept as": "\(aside)"])
    }

    // MARK: The loop

    /// Serves until `requestShutdown`; then ends every app and closes.
    func run() {
        // Listening, restored and about to serve: a `Type=notify` unit's dependents may start now.
        tellServiceManager("READY=1\nSTATUS=serving on \(configuration.socketPath)")
        workMayWait = hasWaitingWork
        syncer.start()
        var timeout = fireDueWork()
        // Kept from turn to turn (a turn usually answers one message: a new array each time cost an allocation).
        var fds: [pollfd] = []
        while !stopping {
            fds.removeAll(keepingCapacity: true)
            if acceptingResumesAt == nil { fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
            fds.append(pollfd(fd: inbox.wakeUp, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: timers.due, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: timers.wallClockSet, events: Int16(POLLIN), revents: 0))
            for (fd, connection) in connections {
                let events = Int16(POLLIN) | (connection.outgoing.isEmpty || connection.frozen ? 0 : Int16(POLLOUT))
                fds.append(pollfd(fd: fd, events: events, revents: 0))
            }
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { logger.error("poll failed: \(String(cString: strerror(errno)))") }
            var listenerReady = false
            for entry in fds where entry.revents != 0 {
                if entry.fd == listener {
                    listenerReady = true
                } else if entry.fd == inbox.wakeUp {
                    handleInbox()
                } else if entry.fd == timers.due {
                    timers.takeDue()
                } else if entry.fd == timers.wallClockSet {
                    timers.takeWallClockSet()
                } else {
                    serviceConnection(entry.fd, readable: entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0)
                }
            }
            // New connections last: the descriptors of connections that ended this turn are free for them.
            if listenerReady { acceptConnections() }
            commitTurn()
            timeout = fireDueWork()
        }
        shutDown()
    }

    private func handleInbox() {
        for item in inbox.take() {
            switch item {
            case .shutdown: stopping = true
            case .childExited(let pid, let how): childExited(pid, how: how)
            case .synced(let report): synced(report)
            }
        }
    }

    /// Ends every app (SIGKILL: the daemon goes away), writes what is unwritten, closes the store and the socket.
    private func shutDown() {
        tellServiceManager("STOPPING=1")
        logger.info("offstage daemon stopping: ending apps")
        for (id, app) in apps {
            guard let process = app.process else { continue }
            host.terminate(id, process)
            host.killNow(id, process)
            try? store.saveProcess(nil, of: id)
        }
        flushDecisions()
        syncStore(all: true)
        saveMemory()
        syncNow()
        do { try store.close() } catch { logger.error("the store could not be closed: \(error)") }
        for fd in connections.keys { close(fd) }
        close(listener)
        unlink(configuration.socketPath)
        // No app runs on after a clean stop, so nothing is left to adopt: the control groups go too.
        let left = host.removeAllGroups(timeout: 2)
        if !left.isEmpty {
            logger.warning("control groups left behind (still populated)", metadata: ["groups": "\(left)"])
        }
        stateLock.markCleanStop()
        logger.info("offstage daemon stopped")
    }

    /// Sends `state` to the service manager, if one started the daemon; a failure is logged, never fatal (the
    /// daemon serves whether or not its manager hears).
    private func tellServiceManager(_ state: String) {
        if let problem = serviceManager.notify(state) {
            logger.warning("cannot tell the service manager", metadata: ["state": "\(state)", "error": "\(problem)"])
        }
    }

    /// The seconds since this daemon started (not since the first start its clock counts from), for status.
    var uptime: Double { clock.secondsSinceStart() }
}

/// Messages from other threads to the loop.
enum InboxItem: Sendable {
    case childExited(pid: Int32, how: String)
    /// The store's log was synced (or failed to be) up to a generation (`StoreSyncer`).
    case synced(StoreSyncer.Report)
    case shutdown
}

/// The loop's mailbox: a locked list of `InboxItem`s and a pipe whose read end the loop polls. The reaper, the
/// sync thread and the service post (any thread); the loop takes.
final class Inbox: Sendable {
    /// The end the loop polls: readable once something was posted.
    let wakeUp: Int32
    private let wakeUpWrite: Int32
    private let items = Mutex<[InboxItem]>([])

    /// An empty inbox with its wake-up pipe; fails only when the process has no descriptor left.
    init() throws(DaemonError) {
        guard let ends = SysFile.wakeUpPipe() else {
            throw DaemonError(.startup, "pipe: \(String(cString: strerror(errno)))")
        }
        (wakeUp, wakeUpWrite) = ends
    }

    deinit {
        close(wakeUp)
        close(wakeUpWrite)
    }

    /// Adds `item` and wakes the loop.
    func post(_ item: InboxItem) {
        items.withLock { $0.append(item) }
        var byte: UInt8 = 1
        _ = write(wakeUpWrite, &byte, 1)
    }

    /// Everything posted so far (the loop, woken: the wake-ups are read too).
    func take() -> [InboxItem] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeUp, &buffer, buffer.count) > 0 {}
        return items.withLock { items in
            defer { items = [] }
            return items
        }
    }
}

/// An installed app as the daemon runs it: its bundle, its live process and what it is waiting to receive.
struct ManagedApp {
    var path: String
    var manifest: AppManifest
    var process: AppProcess?
    /// The app's connection, once its process has connected.
    var connection: Int32?
    /// Messages for the process sent before it connected.
    var outbox: [ServerMessage] = []
    /// Whether the daemon froze the process (and has not thawed it): its connection's writes wait.
    var frozen = false
    /// The process was sent `applicationWillTerminate` and ends when it returns (or its time is up).
    var ending = false
    /// The user opened the app while it was ending: it is opened again once its process has ended.
    var openWhenEnded = false
    /// The CPU seconds measured at the last sample, and when it was taken.
    var cpuSeen: Double = 0
    var sampledAt = Instant.zero
    var memoryBytes = 0
}
