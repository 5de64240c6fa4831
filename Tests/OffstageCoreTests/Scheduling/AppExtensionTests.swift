import Foundation
import Testing

@testable import OffstageCore

/// Issue 16, item 9: app extensions submit task requests that run in their host app, and cannot register launch
/// handlers (`NS_EXTENSION_UNAVAILABLE("Only the host application may register launch handlers")`).
@Suite struct AppExtensionTests {
    let host: BundleID = "com.example.notes"
    let widget: BundleID = "com.example.notes.widget"
    var refresh: String { "\(host).refresh" }

    func harness() -> CoreHarness {
        let app = AppManifest(bundleIdentifier: host, backgroundModes: [.fetch], permittedIdentifiers: [refresh])
        let appExtension = AppManifest(bundleIdentifier: widget, extensionPoint: "com.apple.widgetkit-extension")
        return CoreHarness(policy: Fixture.unspaced, apps: [app, appExtension])
    }

    @Test func anExtensionsRequestRunsInItsHostApp() throws {
        var h = harness()
        h.open(host)
        h.call(.register(identifier: refresh), from: host)
        h.handle(.home)
        h.open(widget)
        let request = TaskRequest(
            identifier: refresh, kind: .appRefresh, earliestBeginDate: h.system.wallClock.epoch(at: h.now + 60))
        #expect(h.submit(request, from: widget) == .ok)
        #expect(h.system.app(host).pendingRequests == [request])
        #expect(h.system.app(widget).pendingRequests.isEmpty)
        #expect(h.call(.pendingRequests, from: widget) == .pending([request]))
        #expect(
            h.log.records(.log).map(\.reason).contains("submitted by an app extension: runs in its host app \(host)"))
        h.advance(by: 60)
        let run = try #require(h.system.runningTasks.first)
        #expect(run.app == host && run.request.identifier == refresh)
        #expect(h.task(refresh, of: host) != nil, "handed to the host's registered handler")
    }

    @Test func anExtensionCannotRegisterLaunchHandlers() {
        var h = harness()
        h.open(widget)
        #expect(h.call(.register(identifier: refresh), from: widget) == .registered(false))
        #expect(
            h.log.records(.register).map(\.reason) == [
                "returns false: only the host application may register launch handlers (an app extension)"
            ])
        #expect(h.log.records(.crashed).isEmpty)
    }

    @Test func anExtensionIsReadFromItsInfoPlistAndMustNameItsExtensionPoint() throws {
        let manifest = try AppManifest(
            dictionary: [
                "CFBundleIdentifier": "com.example.notes.share",
                "NSExtension": ["NSExtensionPointIdentifier": "com.apple.share-services"],
            ], source: "Info.plist")
        #expect(manifest.extensionPoint == "com.apple.share-services" && manifest.hostApp == host)
        #expect(
            throws: ManifestError(
                source: "Info.plist", field: "NSExtension.NSExtensionPointIdentifier",
                message: "must be a non-empty string")
        ) {
            try AppManifest(
                dictionary: ["CFBundleIdentifier": "com.example.notes.share", "NSExtension": [:]], source: "Info.plist")
        }
        let app = try AppManifest(dictionary: ["CFBundleIdentifier": "com.example.notes"], source: "Info.plist")
        #expect(app.extensionPoint == nil && app.hostApp == nil)
    }
}

/// Finding 4 of issue 26: an app extension has no app delegate (iOS starts it with `beginRequest(with:)` and tells
/// it nothing else) and no `beginBackgroundTask` (`performExpiringActivity` is its form); a keyboard without open
/// access cannot submit (`BGTaskScheduler.Error.Code.unavailable`).
@Suite struct AppExtensionLifeTests {
    let host: BundleID = "com.example.notes"
    let widget: BundleID = "com.example.notes.widget"
    let keyboard: BundleID = "com.example.notes.keyboard"
    var refresh: String { "\(host).refresh" }

    func harness(openAccess: Bool = false, fullAccess: Bool = false) -> CoreHarness {
        let app = AppManifest(bundleIdentifier: host, backgroundModes: [.fetch], permittedIdentifiers: [refresh])
        let widgetManifest = AppManifest(bundleIdentifier: widget, extensionPoint: "com.apple.widgetkit-extension")
        let keyboardManifest = AppManifest(
            bundleIdentifier: keyboard, extensionPoint: AppManifest.keyboardExtensionPoint,
            requestsOpenAccess: openAccess)
        var settings = UserSettings()
        if fullAccess { settings.fullAccessKeyboards = [keyboard] }
        return CoreHarness(settings: settings, apps: [app, widgetManifest, keyboardManifest])
    }

    @Test func anExtensionGetsNoAppDelegateCallbacksOnlyItsStart() {
        var h = harness()
        let opened = h.handle(.open(widget))
        #expect(opened.callbacks(of: widget) == [.beginRequest])
        #expect(opened.records(.callback).map(\.reason) == ["beginRequest(with:)"])
        #expect(h.state(of: widget) == .active)
        let left = h.handle(.home)
        #expect(left.callbacks(of: widget).isEmpty)
        #expect(left.records(.callback).isEmpty)
        #expect(h.state(of: widget) == .suspended)
        let back = h.handle(.open(widget))
        #expect(back.callbacks(of: widget).isEmpty)
        #expect(h.state(of: widget) == .active)
        let swiped = h.handle(.swipeAway(widget))
        #expect(swiped.callbacks(of: widget).isEmpty)
        #expect(h.state(of: widget) == .notRunning)
    }

    @Test func anExtensionHasNoBeginBackgroundTaskButPerformsExpiringActivities() {
        var h = harness()
        h.open(widget)
        h.handle(.home)
        h.open(widget)
        #expect(h.call(.beginBackgroundTask(name: "save"), from: widget) == .backgroundTask(0))
        #expect(
            h.log.records(.assertionBegan).last?.reason
                == "\"save\": an app extension has no beginBackgroundTask "
                + "(ProcessInfo.performExpiringActivity is its form): .invalid")
        #expect(h.system.app(widget).outstandingAssertions.isEmpty)
        #expect(h.call(.beginExpiringActivity(reason: "save"), from: widget) == .backgroundTask(1))
        #expect(h.system.app(widget).outstandingAssertions == [1])
    }

    @Test func aKeyboardWithoutOpenAccessCannotSubmit() {
        for (openAccess, fullAccess) in [(false, false), (true, false), (false, true)] {
            var h = harness(openAccess: openAccess, fullAccess: fullAccess)
            h.open(keyboard)
            let request = TaskRequest(identifier: refresh, kind: .appRefresh)
            #expect(h.submit(request, from: keyboard) == .failed(.unavailable))
            #expect(h.system.app(host).pendingRequests.isEmpty)
            #expect(
                h.log.records(.rejected).last?.reason
                    == "unavailable: a keyboard extension without open access (RequestsOpenAccess and the user's "
                    + "Allow Full Access)")
        }
    }

    @Test func aKeyboardWithOpenAccessSubmitsForItsHostApp() {
        var h = harness(openAccess: true, fullAccess: true)
        h.open(keyboard)
        let request = TaskRequest(identifier: refresh, kind: .appRefresh)
        #expect(h.submit(request, from: keyboard) == .ok)
        #expect(h.system.app(host).pendingRequests == [request])
    }

    @Test func aKeyboardsOpenAccessRequestIsReadFromItsInfoPlist() throws {
        let manifest = try AppManifest(
            dictionary: [
                "CFBundleIdentifier": "com.example.notes.keyboard",
                "NSExtension": [
                    "NSExtensionPointIdentifier": AppManifest.keyboardExtensionPoint,
                    "NSExtensionAttributes": ["RequestsOpenAccess": true],
                ],
            ], source: "Info.plist")
        #expect(manifest.requestsOpenAccess)
        #expect(
            throws: ManifestError(
                source: "Info.plist", field: "NSExtension.NSExtensionAttributes.RequestsOpenAccess",
                message: "must be a boolean")
        ) {
            try AppManifest(
                dictionary: [
                    "CFBundleIdentifier": "com.example.notes.keyboard",
                    "NSExtension": [
                        "NSExtensionPointIdentifier": AppManifest.keyboardExtensionPoint,
                        "NSExtensionAttributes": ["RequestsOpenAccess": "yes"],
                    ],
                ], source: "Info.plist")
        }
    }
}
