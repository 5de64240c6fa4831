import OffstageCore
import Testing

/// What a restarted host puts back (the daemon after a crash): settings and pending requests.
@Suite struct PersistenceTests {
    static let app = BundleID("com.example.app")

    static func installed() -> BackgroundSystem {
        var system = BackgroundSystem()
        let manifest = AppManifest(
            bundleIdentifier: app, backgroundModes: [.fetch, .processing],
            permittedIdentifiers: ["com.example.app.refresh", "com.example.app.export.*"])
        _ = system.install(manifest, at: .zero)
        return system
    }

    @Test func restoredPendingRequestWaitsForItsConstraintsAsBefore() {
        var system = Self.installed()
        let later = TaskRequest(identifier: "com.example.app.refresh", kind: .appRefresh, earliestBeginDate: 3600)
        let effects = system.restorePending([later], for: Self.app, at: Instant(seconds: 10))
        #expect(system.pendingRequests(of: Self.app) == [later])
        #expect(effects.records.contains { $0.kind == .submitted && $0.reason.contains("restored") })
        #expect(system.nextDueTime == Instant(seconds: 3600))
        #expect(!effects.contains { if case .launch = $0 { true } else { false } })
    }

    @Test func restoredEligibleRequestLaunchesTheAppInTheBackground() {
        var system = Self.installed()
        // Used a moment ago (its usage tier lets it refresh), and no longer running.
        _ = system.handle(.open(Self.app), at: .zero)
        _ = system.handle(.home, at: Instant(seconds: 1))
        _ = system.handle(.processExited(Self.app, reason: "the host restarted"), at: Instant(seconds: 2))
        let now = TaskRequest(identifier: "com.example.app.refresh", kind: .appRefresh)
        let effects = system.restorePending([now, now], for: Self.app, at: Instant(seconds: 10))
        #expect(effects.contains(.launch(Self.app, .backgroundTask)))
        #expect(system.runningTasks.count == 1)
    }

    @Test func continuedProcessingRequestsAreNotRestored() {
        var system = Self.installed()
        let export = TaskRequest(identifier: "com.example.app.export.1", kind: .continuedProcessing)
        _ = system.restorePending([export], for: Self.app, at: .zero)
        #expect(system.pendingRequests(of: Self.app).isEmpty)
    }

    @Test func restoredSettingsApplyWithoutARecord() {
        var system = Self.installed()
        var settings = UserSettings()
        settings.lowPowerMode = true
        system.restoreSettings(settings)
        #expect(system.settings.lowPowerMode)
        #expect(system.backgroundRefreshStatus(for: Self.app) == .denied)
    }
}
