import Foundation
import OffstageCore
import OffstageProtocol
import Testing

/// A scene-based app as a real process under the daemon, started by `@main` on its delegate (issue 13).
@Suite struct SceneProcessTests {
    @Test func aSceneBasedAppStartedByMainGetsTheSceneCallbacks() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        let bundle = "test.scenes"
        let path = try daemon.install(bundle, executable: DaemonHarness.product("SceneTestApp"))
        // The bundle's Info.plist gains the scene manifest UIApplicationMain reads when the process starts.
        let plistURL = URL(fileURLWithPath: "\(path)/Info.plist")
        var plist = try #require(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: plistURL), format: nil)
                as? [String: Any])
        plist["UIApplicationSceneManifest"] = [
            "UISceneConfigurations": [
                "UIWindowSceneSessionRoleApplication": [
                    ["UISceneConfigurationName": "Default", "UISceneDelegateClassName": "SceneTestApp.SceneDelegate"]
                ]
            ]
        ]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: plistURL)
        _ = try daemon.openAndWait(bundle)
        try daemon.waitUntil("the scene became active") {
            daemon.events(bundle).contains { $0.hasPrefix("scene didBecomeActive") }
        }
        try daemon.send(.home)
        try daemon.waitUntil("the scene entered the background") {
            daemon.events(bundle).contains("posted didEnterBackground")
        }
        #expect(
            daemon.events(bundle) == [
                "app didFinishLaunching", "scene willConnect, main thread: true",
                "scene didBecomeActive, connected: 1", "scene didEnterBackground", "posted didEnterBackground",
            ])
    }
}
