// A scene-based app for the daemon's tests, started as iOS starts one: `@main` on the app delegate, the scene
// delegate named in the bundle's Info.plist. It writes what it sees to $OFFSTAGE_TEST_DIR/<bundle>.events.
import Foundation
import OffstageKit

/// Appends a line to the test's event file.
func note(_ line: String) {
    let environment = ProcessInfo.processInfo.environment
    guard let folder = environment["OFFSTAGE_TEST_DIR"] else { return }
    let path = "\(folder)/\(environment[OffstageApplication.bundleVariable] ?? "unknown").events"
    if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
    guard let handle = FileHandle(forWritingAtPath: path) else { return }
    handle.seekToEndOfFile()
    handle.write(Data("\(line)\n".utf8))
    handle.closeFile()
}

@main
final class SceneAppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        note("app didFinishLaunching")
        _ = NotificationCenter.default.addObserver(
            forName: UIApplication.didEnterBackgroundNotification, object: application, queue: nil
        ) { _ in note("posted didEnterBackground") }
        return true
    }

    func applicationDidBecomeActive(_ application: UIApplication) { note("app didBecomeActive") }
    func applicationDidEnterBackground(_ application: UIApplication) { note("app didEnterBackground") }
}

final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions
    ) {
        note("scene willConnect, main thread: \(Thread.isMainThread)")
    }

    func sceneDidBecomeActive(_ scene: UIScene) {
        note("scene didBecomeActive, connected: \(UIApplication.shared.connectedScenes.count)")
    }

    func sceneDidEnterBackground(_ scene: UIScene) { note("scene didEnterBackground") }
}
