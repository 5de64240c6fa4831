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
        #expect(h.system.pendingRequests(of: host) == [request])
        #expect(h.system.pendingRequests(of: widget).isEmpty)
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
