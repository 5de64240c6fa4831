import Foundation
import OffstageCore

/// The scene life cycle of one app process: whether the app is scene-based (its Info.plist has a scene
/// manifest), and the scene connected now. iOS sends a scene-based app's foreground and background callbacks to
/// the scene's delegate instead of the app delegate's; the app delegate still hears of launch and termination.
final class SceneStage: Sendable {
    private struct State {
        var manifest: OffstageSceneManifest?
        var scene: UIScene?
        var sessions = 0
    }

    private let state = LockedValue(State())

    var manifest: OffstageSceneManifest? {
        get { state.value.manifest }
        set { state.value.manifest = newValue }
    }

    var isSceneBased: Bool { manifest != nil }
    var connectedScene: UIScene? { state.value.scene }

    /// Carries a life-cycle change to the scene (connecting one first where iOS would), in iOS's order.
    /// Only foreground and background changes reach scenes; launch goes to the app delegate alone.
    func deliver(_ callback: LifecycleCallback, application: UIApplication) {
        switch callback {
        case .willFinishLaunching, .didFinishLaunching, .beginRequest: break
        case .willEnterForeground:
            let scene = connectedScene ?? connect(application)
            enterForeground(scene)
        case .didBecomeActive:
            // At a cold launch nothing enters the foreground first: the scene connects and does so now.
            let scene: UIScene
            if let connected = connectedScene {
                scene = connected
            } else {
                scene = connect(application)
                enterForeground(scene)
            }
            scene.activationState = .foregroundActive
            MainActor.assumeIsolated { scene.delegate?.sceneDidBecomeActive(scene) }
            NotificationCenter.postFromMainQueue(UIScene.didActivateNotification, object: scene)
        case .willResignActive:
            guard let scene = connectedScene else { return }
            scene.activationState = .foregroundInactive
            MainActor.assumeIsolated { scene.delegate?.sceneWillResignActive(scene) }
            NotificationCenter.postFromMainQueue(UIScene.willDeactivateNotification, object: scene)
        case .didEnterBackground:
            // A process launched into the background for an event has no scene: nothing to tell.
            guard let scene = connectedScene else { return }
            scene.activationState = .background
            MainActor.assumeIsolated { scene.delegate?.sceneDidEnterBackground(scene) }
            NotificationCenter.postFromMainQueue(UIScene.didEnterBackgroundNotification, object: scene)
        case .willTerminate:
            guard let scene = connectedScene else { return }
            state.withValue { $0.scene = nil }
            scene.activationState = .unattached
            MainActor.assumeIsolated { scene.delegate?.sceneDidDisconnect(scene) }
            NotificationCenter.postFromMainQueue(UIScene.didDisconnectNotification, object: scene)
        }
    }

    private func enterForeground(_ scene: UIScene) {
        scene.activationState = .foregroundInactive
        MainActor.assumeIsolated { scene.delegate?.sceneWillEnterForeground(scene) }
        NotificationCenter.postFromMainQueue(UIScene.willEnterForegroundNotification, object: scene)
    }

    /// Connects the app's window scene: asks the app delegate for the configuration (UIKit's default: the
    /// manifest's first for the role), makes the scene and its delegate from the classes it names, and calls
    /// `scene(_:willConnectTo:options:)`.
    private func connect(_ application: UIApplication) -> UIScene {
        let number = state.withValue { state in
            state.sessions += 1
            return state.sessions
        }
        let role = UISceneSession.Role.windowApplication
        let options = UIScene.ConnectionOptions()
        let name = manifest?.configuration(named: nil, role: role.rawValue)?.name
        let probe = UISceneSession(
            role: role, configuration: UISceneConfiguration(name: name, sessionRole: role, manifest: manifest),
            persistentIdentifier: "scene-\(number)")
        let configuration =
            MainActor.assumeIsolated {
                application.delegate?.application(application, configurationForConnecting: probe, options: options)
            } ?? probe.configuration
        let session = UISceneSession(
            role: role, configuration: configuration, persistentIdentifier: probe.persistentIdentifier)
        let sceneClass = (configuration.sceneClass as? UIScene.Type) ?? UIWindowScene.self
        let scene = sceneClass.init(session: session, connectionOptions: options)
        session.scene = scene
        scene.delegate =
            (configuration.delegateClass as? NSObject.Type).flatMap { NSObject.made($0) } as? any UISceneDelegate
        state.withValue { $0.scene = scene }
        MainActor.assumeIsolated { scene.delegate?.scene(scene, willConnectTo: session, options: options) }
        NotificationCenter.postFromMainQueue(UIScene.willConnectNotification, object: scene)
        return scene
    }
}

extension UIApplication {
    /// The scenes connected now: the app's window scene while it has one, none for an app without scenes or
    /// launched into the background for an event.
    public var connectedScenes: Set<UIScene> { runtime.scenes.connectedScene.map { [$0] } ?? [] }

    /// The sessions the app has: those of its connected scenes (no session outlives its scene here).
    public var openSessions: Set<UISceneSession> { Set(connectedScenes.map(\.session)) }

    /// Whether the app may show several scenes at once (`UIApplicationSupportsMultipleScenes`).
    public var supportsMultipleScenes: Bool { runtime.scenes.manifest?.supportsMultipleScenes ?? false }
}

extension UISceneSession: Hashable {
    public static func == (a: UISceneSession, b: UISceneSession) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension AppRuntime {
    /// A foreground or background change, or termination: to the scene's delegate for a scene-based app (whose
    /// app delegate still hears of termination, after the scene disconnects), else to the app delegate.
    func deliverChange(_ callback: LifecycleCallback, to app: UIApplication) {
        if scenes.isSceneBased {
            scenes.deliver(callback, application: app)
            if callback == .willTerminate { onMain { $0.applicationWillTerminate(app) } }
            return
        }
        switch callback {
        case .willFinishLaunching, .didFinishLaunching, .beginRequest: break
        case .didBecomeActive: onMain { $0.applicationDidBecomeActive(app) }
        case .willResignActive: onMain { $0.applicationWillResignActive(app) }
        case .didEnterBackground: onMain { $0.applicationDidEnterBackground(app) }
        case .willEnterForeground: onMain { $0.applicationWillEnterForeground(app) }
        case .willTerminate: onMain { $0.applicationWillTerminate(app) }
        }
    }

    /// The app's scene manifest (from its Info.plist): set by the host before launch; nil for an app without scenes.
    public var sceneManifest: OffstageSceneManifest? {
        get { scenes.manifest }
        set { scenes.manifest = newValue }
    }
}
