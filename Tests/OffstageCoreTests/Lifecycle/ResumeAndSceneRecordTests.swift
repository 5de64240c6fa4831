import Testing

@testable import OffstageCore

/// SPEC §2: a suspended app resumed for an event hears `didEnterBackground` first (Apple's documented order),
/// unless the device is set to resume it with no callback; a scene-based app's records name its scene callbacks.
@Suite struct ResumeAndSceneRecordTests {
    let feed = Fixture.feed

    /// The words of the app's `callback` records, in order.
    func callbackWords(_ effects: [Effect], of app: BundleID) -> [String] {
        effects.records(.callback).filter { $0.app == app }.map(\.reason)
    }

    @Test func byDefaultAResumedAppHearsDidEnterBackgroundBeforeItsTask() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        h.handle(.lock)
        let effects = h.advance(by: 15 * 60)
        #expect(effects.actions.first == .resume(feed))
        #expect(effects.callbacks(of: feed) == [.didEnterBackground])
        #expect(effects.startedTasks.map(\.request.identifier) == [Fixture.processing(feed)])
    }

    @Test func withTheResumeCallbackOffAResumedAppGetsItsTaskWithNoCallback() {
        var device = DeviceState()
        device.resumeCallback = .none
        var h = Fixture.harness(device: device)
        h.open(feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        h.handle(.lock)
        let effects = h.advance(by: 15 * 60)
        #expect(effects.actions.first == .resume(feed))
        #expect(effects.callbacks(of: feed).isEmpty)
        #expect(effects.startedTasks.map(\.request.identifier) == [Fixture.processing(feed)])
        #expect(h.state(of: feed) == .background)
        #expect(h.complete(Fixture.processing(feed), of: feed).actions == [.suspend(feed)])
    }

    @Test func theResumeCallbackCanBeTurnedOffWhileTheDeviceRuns() {
        var h = Fixture.harness()
        h.open(feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        h.handle(.lock)
        h.handle(.setResumeCallback(.none))
        #expect(h.system.device.resumeCallback == .none)
        #expect(h.records.last?.reason == "resumed apps hear: no callback")
        let effects = h.advance(by: 15 * 60)
        #expect(effects.actions.first == .resume(feed))
        #expect(effects.callbacks(of: feed).isEmpty)
        #expect(effects.startedTasks.map(\.request.identifier) == [Fixture.processing(feed)])
    }

    @Test func aSceneBasedAppsRecordsNameTheSceneCallbacks() {
        var manifest = Fixture.manifest(feed)
        manifest.usesScenes = true
        var h = CoreHarness(apps: [manifest])
        let opened = h.handle(.open(feed))
        #expect(
            callbackWords(opened, of: feed) == [
                "application(_:willFinishLaunchingWithOptions:)", "application(_:didFinishLaunchingWithOptions:)",
                "scene(_:willConnectTo:options:), sceneWillEnterForeground(_:), sceneDidBecomeActive(_:)",
            ])
        #expect(
            callbackWords(h.handle(.home), of: feed) == ["sceneWillResignActive(_:)", "sceneDidEnterBackground(_:)"])
        #expect(
            callbackWords(h.handle(.open(feed)), of: feed) == [
                "sceneWillEnterForeground(_:)", "sceneDidBecomeActive(_:)",
            ])
        #expect(
            opened.records(.callback).last?.detail
                == .callback(.didBecomeActive, receiver: .sceneDelegate(connecting: true)))
    }

    @Test func aSceneBasedAppLaunchedInTheBackgroundHasNoSceneToTell() {
        var manifest = Fixture.manifest(feed)
        manifest.usesScenes = true
        var h = CoreHarness(apps: [manifest])
        h.open(feed)
        h.submit(Fixture.processingRequest(feed), from: feed)
        h.handle(.lock)
        h.handle(.processExited(feed, reason: "jetsam"))
        let effects = h.advance(by: 15 * 60)
        #expect(
            callbackWords(effects, of: feed).last
                == "no callback: a scene-based app with no scene connected (applicationDidEnterBackground(_:) is not called)"
        )
        #expect(effects.startedTasks.map(\.request.identifier) == [Fixture.processing(feed)])
    }

    @Test func aSceneBasedAppIsReadFromItsInfoPlist() throws {
        let manifest = try AppManifest(
            dictionary: ["CFBundleIdentifier": "com.example.feed", "UIApplicationSceneManifest": [String: Any]()],
            source: "Info.plist")
        #expect(manifest.usesScenes)
        #expect(
            try !AppManifest(dictionary: ["CFBundleIdentifier": "com.example.feed"], source: "Info.plist").usesScenes)
    }
}
