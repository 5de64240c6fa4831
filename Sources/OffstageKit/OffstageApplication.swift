import Foundation
import OffstageCore
import OffstageProtocol

/// Runs an app as a real process under `offstage daemon` (the counterpart of `UIApplicationMain`):
/// connects to the daemon's socket, then carries out the callbacks and tasks the system sends.
/// Not an Apple API: iOS starts apps itself; here the daemon starts the executable and this takes over.
public enum OffstageApplication {
    /// The environment variable through which the daemon gives the app its socket.
    public static let socketVariable = "OFFSTAGE_SOCKET"
    /// The environment variable naming the bundle (informational: the daemon knows the app by its process).
    public static let bundleVariable = "OFFSTAGE_BUNDLE_ID"

    /// Whether this process was started by the daemon.
    public static var isLaunchedByDaemon: Bool { ProcessInfo.processInfo.environment[socketVariable] != nil }

    /// Connects to the daemon and serves the system's effects until the daemon ends the process, or goes
    /// away and does not come back within `SocketLink.defaultReconnectWindow` seconds (a crashed daemon that
    /// restarts adopts the process, which connects again).
    public static func main(
        makeDelegate: @escaping @MainActor () -> any UIApplicationDelegate, sceneManifest: OffstageSceneManifest? = nil
    ) -> Never {
        let environment = ProcessInfo.processInfo.environment
        let bundle = BundleID(environment[bundleVariable] ?? "unknown")
        let path = environment[socketVariable] ?? ""
        let socket: UnixSocket
        do {
            socket = try UnixSocket.connecting(to: path)
        } catch {
            FileHandle.standardError.write(Data("\(bundle): cannot reach the daemon: \(error)\n".utf8))
            exit(1)
        }
        let link = SocketLink(socket: socket, path: path, bundle: bundle)
        let runtime = AppRuntime(bundleIdentifier: bundle, link: link, makeDelegate: makeDelegate)
        runtime.sceneManifest = sceneManifest
        runtime.bindToProcess()
        let reader = Thread {
            link.serve { perform($0, runtime: runtime) }
            exit(0)  // The system is gone for good: an app does not outlive it.
        }
        reader.name = "offstage-link"
        reader.start()
        // The main thread serves the main queue through its run loop, as UIKit's does: `dispatchMain()` would
        // end the main thread and serve the queue from another, so `Thread.isMainThread` would be false there.
        while true { RunLoop.main.run() }
    }

    /// Carries out a message that is not an answer: effects and user actions run on the main queue (delegate
    /// callbacks, assertion expirations, user actions) or on a background queue (task launch and expiration
    /// handlers, which may block while other callbacks must go on).
    static func perform(_ message: ServerMessage, runtime: AppRuntime) {
        switch message {
        case .userAction(let action): DispatchQueue.main.async { runtime.performUserAction(action) }
        case .effect(let effect): perform(effect, runtime: runtime)
        case .result, .error, .reply: break
        }
    }

    /// Carries out one effect the system sent to this app.
    static func perform(_ effect: Effect, runtime: AppRuntime) {
        switch effect {
        case .deliver(_, let callback, let token):
            DispatchQueue.main.async { runtime.deliver(callback, token: token) }
        case .startTask(_, let run):
            DispatchQueue.global().async { runtime.startTask(run) }
        case .expireTask(_, let taskID):
            DispatchQueue.global().async { runtime.expireTask(taskID) }
        case .expireBackgroundTasks(_, let ids):
            DispatchQueue.main.async { runtime.expireBackgroundTasks(ids) }
        case .deliverBackgroundEvent(_, let event, let token):
            DispatchQueue.main.async { runtime.deliverBackgroundEvent(event, token: token) }
        case .presentNotification(_, let presentation):
            DispatchQueue.main.async { runtime.presentNotification(presentation) }
        case .launch, .suspend, .resume, .terminate, .record, .askUser, .setCPUPriority:
            break  // The daemon's business, never sent to apps.
        }
    }
}
