import Foundation
import GRDB
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

    /// A daemon over a fresh state folder (or `folder`'s, for a restart), with `host` as its Linux layer.
    static func daemon(in folder: String, socket: String = "a.sock", host: FakeProcessHost) throws -> Daemon {
        var configuration = DaemonConfiguration(stateDirectory: folder + "/state", socketPath: folder + "/" + socket)
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return try Daemon(configuration: configuration, logger: logger, host: { _ in host })
    }

    /// A temporary folder with an installable bundle of `app` (its executable is never run by the double).
    static func folderWithBundle() throws -> (folder: String, bundle: String) {
        let folder = NSTemporaryDirectory() + "offstage-unit-\(UUID().uuidString.prefix(8))"
        let bundle = folder + "/Unit.app"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bundle + "/unit", withDestinationPath: "/bin/true")
        let plist: [String: Any] = [
            "CFBundleIdentifier": app.rawValue, "CFBundleExecutable": "unit", "UIBackgroundModes": ["fetch"],
            "BGTaskSchedulerPermittedIdentifiers": ["test.unit.refresh"],
        ]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: bundle + "/Info.plist"))
        return (folder, bundle)
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
        let (folder, bundle) = try Self.folderWithBundle()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let host = FakeProcessHost()
        let daemon = try Self.daemon(in: folder, host: host)
        _ = try daemon.answer(.install(path: bundle))
        try Self.open(daemon)
        #expect(daemon.system.state(of: Self.app) == .active)
        _ = try daemon.answer(.event(event: .home))
        Self.answerCallbacks(daemon)
        #expect(daemon.system.state(of: Self.app) == .suspended)
        #expect(daemon.apps[Self.app]?.frozen == true)
        try Self.open(daemon)
        _ = try daemon.answer(.event(event: .swipeAway(Self.app)))
        Self.answerCallbacks(daemon)
        #expect(host.actions == [.launch(Self.app), .freeze(Self.app), .thaw(Self.app), .terminate(Self.app)])
        #expect(host.live.isEmpty)
    }

    @Test func aLaunchTheHostCannotStartIsTheProcessEndingAtOnce() throws {
        let (folder, bundle) = try Self.folderWithBundle()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let host = FakeProcessHost()
        let daemon = try Self.daemon(in: folder, host: host)
        _ = try daemon.answer(.install(path: bundle))
        host.failNextLaunch = HostError(.cannotStart, "cannot start unit: no such file")
        _ = try daemon.answer(.event(event: .open(Self.app)))
        #expect(daemon.system.state(of: Self.app) == .notRunning)
        #expect(daemon.apps[Self.app]?.process == nil)
        try Self.open(daemon)
        #expect(daemon.system.state(of: Self.app) == .active, "the next open launches it")
    }

    @Test func aProcessThatEndsByItselfIsForgottenAndTheCoreLearnsIt() throws {
        let (folder, bundle) = try Self.folderWithBundle()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let host = FakeProcessHost()
        let daemon = try Self.daemon(in: folder, host: host)
        _ = try daemon.answer(.install(path: bundle))
        try Self.open(daemon)
        let pid = try #require(daemon.apps[Self.app]?.process?.pid)
        daemon.childExited(pid, how: "exited with status 3")
        #expect(daemon.system.state(of: Self.app) == .notRunning)
        #expect(daemon.apps[Self.app]?.process == nil)
        #expect(try daemon.store.apps().first?.process == nil, "the store no longer records it")
    }

    /// After a crash (the daemon dropped without its shutdown), a new daemon over the same store adopts the
    /// recorded process when the host says it still lives, frozen as the core knew it.
    @Test func aRestartAdoptsTheRecordedProcessTheHostSaysLives() throws {
        let (folder, bundle) = try Self.folderWithBundle()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var pid: Int32 = 0
        do {
            let daemon = try Self.daemon(in: folder, host: FakeProcessHost())
            _ = try daemon.answer(.install(path: bundle))
            try Self.open(daemon)
            _ = try daemon.answer(.event(event: .home))
            Self.answerCallbacks(daemon)
            daemon.releaseHeldAnswers()
            pid = try #require(daemon.apps[Self.app]?.process?.pid)
        }
        let host = FakeProcessHost()
        host.survivors = [pid]
        let restarted = try Self.daemon(in: folder, socket: "b.sock", host: host)
        #expect(restarted.apps[Self.app]?.process?.pid == pid)
        #expect(restarted.system.state(of: Self.app) == .suspended)
        #expect(host.actions == [.freeze(Self.app)], "the kernel is made to agree with the core")
    }

    @Test func aRestartEndsWhatIsLeftWhenTheHostSaysTheProcessHasGone() throws {
        let (folder, bundle) = try Self.folderWithBundle()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            let daemon = try Self.daemon(in: folder, host: FakeProcessHost())
            _ = try daemon.answer(.install(path: bundle))
            try Self.open(daemon)
        }
        let host = FakeProcessHost()
        let restarted = try Self.daemon(in: folder, socket: "b.sock", host: host)
        #expect(restarted.apps[Self.app]?.process == nil)
        #expect(restarted.system.state(of: Self.app) == .notRunning)
        #expect(host.actions == [.endLeftovers(Self.app)])
        #expect(try restarted.store.apps().first?.process == nil)
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
