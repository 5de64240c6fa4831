import Foundation
import GRDB
import Glibc
import Logging
import OffstageCore
import OffstageLinux
import OffstageProtocol
import Testing

@testable import OffstageDaemon

/// The daemon's orchestration and store with the Linux layer replaced by a double (`FakeProcessHost`): what it
/// asks of the host when the core decides, what it writes, and what a restart over its store adopts or ends.
/// No process is started and nothing waits: each test runs in milliseconds. The end-to-end tests stay.
@Suite struct DaemonOrchestrationTests {
    static let app: BundleID = "test.unit"

    /// A temporary folder with an installable bundle of `app` (its executable is never run by the double) and the
    /// daemon's state; removed with it.
    final class UnitFolder {
        let path = NSTemporaryDirectory() + "offstage-unit-\(UUID().uuidString.prefix(8))"
        var bundle: String { path + "/Unit.app" }

        init() throws {
            try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: bundle + "/unit", withDestinationPath: "/bin/true")
            let plist: [String: Any] = [
                "CFBundleIdentifier": app.rawValue, "CFBundleExecutable": "unit", "UIBackgroundModes": ["fetch"],
            ]
            try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
                .write(to: URL(fileURLWithPath: bundle + "/Info.plist"))
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// A daemon over this folder's state (a restart, if one ran before) with `host` as its Linux layer; each
        /// listens on a socket of its own (a dropped daemon's listening socket stays open).
        func daemon(host: FakeProcessHost, socket: String = "a.sock") throws -> Daemon {
            var configuration = DaemonConfiguration(stateDirectory: path + "/state", socketPath: path + "/" + socket)
            // The tests' bundles are their runner's (root's, often): who apps run as is DaemonPrivilegeTests' part.
            configuration.allowRootApps = true
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            return try Daemon(configuration: configuration, logger: logger, host: { _ in host })
        }

        /// A new daemon with `host`, the app installed.
        func daemonWithTheApp(host: FakeProcessHost) throws -> Daemon {
            let daemon = try daemon(host: host)
            _ = try daemon.answer(.install(path: bundle))
            return daemon
        }
    }

    /// Returns every life-cycle callback the daemon queued for the app (it has no connection), as its delegate
    /// would, until none is left; after each, the daemon writes what changed, as after any call of an app.
    static func answerCallbacks(_ daemon: Daemon) {
        while let waiting = daemon.apps[app]?.outbox, !waiting.isEmpty {
            daemon.apps[app]!.outbox = []
            for case .effect(.deliver(_, _, token: let token)) in waiting {
                daemon.carryOut(daemon.system.call(.returned(token: token), from: app, at: daemon.clock.now()).1)
                daemon.afterChange(app: app)
            }
        }
    }

    /// Opens the app and lets it finish launching.
    static func open(_ daemon: Daemon) throws {
        _ = try daemon.answer(.event(event: .open(app)))
        answerCallbacks(daemon)
    }

    @Test func theDaemonLaunchesFreezesThawsAndEndsAppsThroughItsHost() throws {
        let folder = try UnitFolder()
        let host = FakeProcessHost()
        let daemon = try folder.daemonWithTheApp(host: host)
        try Self.open(daemon)
        #expect(daemon.system.app(Self.app).state == .active)
        _ = try daemon.answer(.event(event: .home))
        Self.answerCallbacks(daemon)
        #expect(daemon.system.app(Self.app).state == .suspended)
        #expect(daemon.apps[Self.app]?.frozen == true)
        try Self.open(daemon)
        _ = try daemon.answer(.event(event: .swipeAway(Self.app)))
        Self.answerCallbacks(daemon)
        #expect(host.actions == [.launch(Self.app), .freeze(Self.app), .thaw(Self.app), .terminate(Self.app)])
        #expect(host.live.isEmpty)
    }

    /// The app's process connected over a socket pair: the daemon's end is bound to the app as an accepted
    /// connection would be; the other end is the app's.
    static func connect(_ daemon: Daemon) throws -> (connection: Connection, app: UnixSocket) {
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        let pid = try #require(daemon.apps[app]?.process?.pid)
        let connection = Connection(fd: ends[0], peer: PeerCredentials(pid: pid), at: daemon.clock.now())
        daemon.connections[ends[0]] = connection
        daemon.attach(connection, to: app)
        let socket = UnixSocket(fd: ends[1])
        socket.setReceiveTimeout(seconds: 1)
        return (connection, socket)
    }

    /// Whether the app's end of the connection has bytes to read now.
    static func hasUnread(_ socket: UnixSocket) -> Bool {
        var byte: UInt8 = 0
        return recv(socket.fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// A call that freezes the calling app is answered only once the app is thawed: nothing is written to a
    /// frozen app (with SIGSTOP, a thread of the app read an answer written right after the freeze).
    @Test func aFrozenAppIsWrittenNothingUntilItIsThawed() throws {
        let folder = try UnitFolder()
        let host = FakeProcessHost()
        let daemon = try folder.daemonWithTheApp(host: host)
        try Self.open(daemon)
        let (connection, app) = try Self.connect(daemon)
        defer { app.disconnect() }
        _ = try daemon.answer(.event(event: .home))
        // The app's delegate returns from each callback; the last return leaves it idle in the background.
        var lastCall = 0
        while host.actions.last != .freeze(Self.app) {
            guard case .effect(.deliver(_, _, let token)) = try app.receiveMessage(ServerMessage.self) else {
                continue
            }
            lastCall += 1
            daemon.handle(
                ClientMessage(id: lastCall, body: .call(call: .returned(token: token), bundle: nil)), from: connection)
            daemon.syncNow()
        }
        #expect(host.actions.last == .freeze(Self.app), "the app was frozen by its own call")
        #expect(!Self.hasUnread(app), "the answer to the call that froze it waits")
        _ = try daemon.answer(.event(event: .open(Self.app)))
        #expect(host.actions.last == .thaw(Self.app))
        #expect(try app.receiveMessage(ServerMessage.self) == .result(id: lastCall, result: .ok))
    }

    /// An open while the app runs `applicationWillTerminate` is answered as queued and carried out once the
    /// process has ended: a new process is launched.
    @Test func anOpenWhileTheAppEndsIsQueuedAndLaunchesItOnceEnded() throws {
        let folder = try UnitFolder()
        let host = FakeProcessHost()
        let daemon = try folder.daemonWithTheApp(host: host)
        try Self.open(daemon)
        _ = try daemon.answer(.event(event: .swipeAway(Self.app)))
        #expect(daemon.apps[Self.app]?.ending == true, "applicationWillTerminate was sent")
        let answer = try daemon.answer(.event(event: .open(Self.app)))
        #expect(
            answer
                == .ok(message: "\(Self.app) is ending (applicationWillTerminate): it opens once its process has ended")
        )
        #expect(host.actions == [.launch(Self.app)])
        Self.answerCallbacks(daemon)
        #expect(host.actions == [.launch(Self.app), .terminate(Self.app), .launch(Self.app)])
        #expect(daemon.system.app(Self.app).state == .active)
    }

    @Test func aLaunchTheHostCannotStartIsTheProcessEndingAtOnce() throws {
        let folder = try UnitFolder()
        let host = FakeProcessHost()
        let daemon = try folder.daemonWithTheApp(host: host)
        host.failNextLaunch = HostError(.cannotStart, "cannot start unit: no such file")
        _ = try daemon.answer(.event(event: .open(Self.app)))
        #expect(daemon.system.app(Self.app).state == .notRunning)
        #expect(daemon.apps[Self.app]?.process == nil)
        try Self.open(daemon)
        #expect(daemon.system.app(Self.app).state == .active, "the next open launches it")
    }

    @Test func aProcessThatEndsByItselfIsForgottenAndTheCoreLearnsIt() throws {
        let folder = try UnitFolder()
        let host = FakeProcessHost()
        let daemon = try folder.daemonWithTheApp(host: host)
        try Self.open(daemon)
        let pid = try #require(daemon.apps[Self.app]?.process?.pid)
        daemon.childExited(pid, how: "exited with status 3")
        #expect(daemon.system.app(Self.app).state == .notRunning)
        #expect(daemon.apps[Self.app]?.process == nil)
        #expect(try daemon.store.apps().first?.process == nil, "the store no longer records it")
    }

    /// After a crash (the daemon dropped without its shutdown), a new daemon over the same store adopts the
    /// recorded process when the host says it still lives, frozen as the core knew it.
    @Test func aRestartAdoptsTheRecordedProcessTheHostSaysLives() throws {
        let folder = try UnitFolder()
        var pid: Int32 = 0
        do {
            let daemon = try folder.daemonWithTheApp(host: FakeProcessHost())
            try Self.open(daemon)
            _ = try daemon.answer(.event(event: .home))
            Self.answerCallbacks(daemon)
            daemon.syncNow()
            pid = try #require(daemon.apps[Self.app]?.process?.pid)
        }
        let host = FakeProcessHost()
        host.survivors = [pid]
        let restarted = try folder.daemon(host: host, socket: "b.sock")
        #expect(restarted.apps[Self.app]?.process?.pid == pid)
        #expect(restarted.system.app(Self.app).state == .suspended)
        #expect(host.actions == [.freeze(Self.app)], "the kernel is made to agree with the core")
    }

    @Test func aRestartEndsWhatIsLeftWhenTheHostSaysTheProcessHasGone() throws {
        let folder = try UnitFolder()
        do {
            let daemon = try folder.daemonWithTheApp(host: FakeProcessHost())
            try Self.open(daemon)
        }
        let host = FakeProcessHost()
        let restarted = try folder.daemon(host: host, socket: "b.sock")
        #expect(restarted.apps[Self.app]?.process == nil)
        #expect(restarted.system.app(Self.app).state == .notRunning)
        #expect(host.actions == [.endLeftovers(Self.app)])
        #expect(try restarted.store.apps().first?.process == nil)
    }

    /// What the launch model learnt and what refresh runs use survive a restart: the store writes and reads them.
    @Test func aRestartKeepsWhatTheLaunchModelLearntAndWhatRefreshesUse() throws {
        let folder = try UnitFolder()
        var learnt: LaunchModel?
        do {
            let daemon = try folder.daemonWithTheApp(host: FakeProcessHost())
            try Self.open(daemon)
            _ = try daemon.answer(.event(event: .home))
            Self.answerCallbacks(daemon)
            learnt = daemon.system.launchModel
            #expect(
                SystemSnapshot(of: daemon.system).launchModel != LaunchModel(), "opening the app taught it something")
            var snapshot = SystemSnapshot(of: daemon.system)
            snapshot.refreshEnergyUse = 2.5
            try daemon.store.saveMemory(snapshot, previous: nil, clockOrigin: daemon.clock.epochAtZero)
            try daemon.store.commit()  // as the loop does at the end of its turn
        }
        let restarted = try folder.daemon(host: FakeProcessHost(), socket: "b.sock")
        #expect(restarted.system.launchModel == learnt)
        #expect(restarted.system.refreshEnergyUse == 2.5)
        let remembered = try #require(try restarted.store.memory())
        #expect(remembered.snapshot.launchModel == learnt)
    }

    /// The store's schema is made by its migrations, in order, on a new file; an existing file keeps its rows.
    @Test func theStoreMigratesANewFileAndKeepsAnExistingOnesRows() throws {
        let folder = NSTemporaryDirectory() + "offstage-store-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/offstage.sqlite"
        let manifest = try AppManifest(
            plist: Data(
                try PropertyListSerialization.data(
                    fromPropertyList: ["CFBundleIdentifier": "test.unit", "CFBundleExecutable": "unit"], format: .xml,
                    options: 0)), source: "Info.plist")
        do {
            let store = try Store(path: path)
            let applied = try store.database.read { try Store.migrator.appliedIdentifiers($0) }
            #expect(applied == Set(Store.migrator.migrations))
            try store.saveApp(Store.InstalledApp(bundle: Self.app, path: "/Unit.app", manifest: manifest), at: 0)
            try store.saveProcess(AppProcess(pid: 42, startTicks: 7), of: Self.app)
        }
        let reopened = try Store(path: path)
        let apps = try reopened.apps()
        #expect(apps.map(\.bundle) == [Self.app])
        #expect(apps.first?.process == AppProcess(pid: 42, startTicks: 7))
    }
}
