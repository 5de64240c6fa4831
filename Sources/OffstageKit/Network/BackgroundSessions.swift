import Foundation
public import FoundationNetworking
import OffstageCore

// Background `URLSession`s (issue 16, item 8): a task of a session made with `background(withIdentifier:)` is
// handed to the system (`AppCall.startBackgroundTransfer`), which carries it on while the app is suspended or not
// running; the response reaches the session's delegate or completion handler when the system hands the app the
// session's events (`BackgroundEvent.urlSessionEvents`), after `handleEventsForBackgroundURLSession` when the app
// was woken for them.

extension URLSessionConfiguration {
    /// The identifier and launch-events setting of a background configuration, kept among its additional headers
    /// (the one place a configuration has for them that survives FoundationNetworking's copy into each session;
    /// they are not sent: a custom protocol's requests do not get the session's additional headers).
    static let backgroundSessionHeader = "X-Offstage-Background-Session"
    static let launchEventsHeader = "X-Offstage-Session-Sends-Launch-Events"

    /// `URLSessionConfiguration.background(withIdentifier:)`, unavailable in FoundationNetworking: a configuration
    /// whose tasks the system carries on while the app is suspended or not running. In the simulator they go
    /// through the simulated network; in a real process, through the real one (no system holds them there).
    public class func background(withIdentifier identifier: String) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = [backgroundSessionHeader: identifier, launchEventsHeader: "1"]
        return configuration
    }

    /// The identifier of a configuration made by `background(withIdentifier:)`; nil for others. (FoundationNetworking's
    /// own `identifier` stays nil: it cannot be set from outside.)
    var backgroundIdentifier: String? { httpAdditionalHeaders?[Self.backgroundSessionHeader] as? String }

    /// `sessionSendsLaunchEvents` (iOS only, default true): whether the system relaunches the app, if it is not
    /// running, when the session's transfers end.
    public var sessionSendsLaunchEvents: Bool {
        get { (httpAdditionalHeaders?[Self.launchEventsHeader] as? String) != "0" }
        set {
            var headers = httpAdditionalHeaders ?? [:]
            headers[Self.launchEventsHeader] = newValue ? "1" : "0"
            httpAdditionalHeaders = headers
        }
    }
}

// Apple's `URLSessionDelegate` has `urlSessionDidFinishEvents(forBackgroundURLSession:)`; FoundationNetworking's
// lacks it, and with no Objective-C runtime the system cannot find the method by name. So OffstageKit declares the
// session delegate protocols under Apple's names, each refining FoundationNetworking's of that name: they shadow
// FoundationNetworking's for code that imports OffstageKit (Apple's `import UIKit` included), so a delegate
// written for iOS adopts these with no source change and its method is a requirement the system calls.

/// `URLSessionDelegate` with Apple's `urlSessionDidFinishEvents(forBackgroundURLSession:)`: told when a background
/// session's events have all been delivered (where the app calls the completion handler it kept from
/// `handleEventsForBackgroundURLSession`).
public protocol URLSessionDelegate: FoundationNetworking.URLSessionDelegate {
    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession)
}

extension URLSessionDelegate {
    /// Default: nothing, as for a delegate that does not implement the optional method on iOS.
    public func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {}
}

/// `URLSessionTaskDelegate`: FoundationNetworking's, adopting Offstage's `URLSessionDelegate`.
public protocol URLSessionTaskDelegate: FoundationNetworking.URLSessionTaskDelegate, URLSessionDelegate {}
/// `URLSessionDataDelegate`: FoundationNetworking's, adopting Offstage's `URLSessionTaskDelegate`.
public protocol URLSessionDataDelegate: FoundationNetworking.URLSessionDataDelegate, URLSessionTaskDelegate {}
/// `URLSessionDownloadDelegate`: FoundationNetworking's, adopting Offstage's `URLSessionTaskDelegate`.
public protocol URLSessionDownloadDelegate: FoundationNetworking.URLSessionDownloadDelegate, URLSessionTaskDelegate {}
/// `URLSessionStreamDelegate`: FoundationNetworking's, adopting Offstage's `URLSessionTaskDelegate`.
public protocol URLSessionStreamDelegate: FoundationNetworking.URLSessionStreamDelegate, URLSessionTaskDelegate {}
/// `URLSessionWebSocketDelegate`: FoundationNetworking's, adopting Offstage's `URLSessionTaskDelegate`.
public protocol URLSessionWebSocketDelegate: FoundationNetworking.URLSessionWebSocketDelegate, URLSessionTaskDelegate {}

extension UIApplicationDelegate {
    /// Default: does nothing (the completion handler is not called), as a delegate without the method on iOS.
    public func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {}
}

/// A transfer of a background session in flight: its loader and the session it belongs to, by session and task.
struct BackgroundLoad {
    var session: String
    var task: Int
    var loader: OffstageURLProtocol
    weak var urlSession: URLSession?
}

extension AppRuntime {
    /// Hands the app a background session's events: `handleEventsForBackgroundURLSession` on the main queue when
    /// it was woken for them, then each finished task's response through FoundationNetworking (the delegate's
    /// `didFinishDownloadingTo`/`didCompleteWithError` or the completion handler, on the session's delegate queue),
    /// then `urlSessionDidFinishEvents(forBackgroundURLSession:)` on that queue. Events of tasks whose process
    /// ended (the app was terminated since) cannot reach a session object: they are dropped.
    func deliverSessionEvents(
        _ session: String, tasks: [Int], wakesApp: Bool, completion: @escaping (UIBackgroundFetchResult) -> Void
    ) {
        let loads = takeBackgroundLoads(session: session, tasks: tasks)
        if wakesApp {
            // The completion tells the system once, from whichever queue the app calls it (unchecked: UIKit's
            // completion handler type is not `Sendable`).
            nonisolated(unsafe) let completion = completion
            let application = application
            onMain { $0.application(application, handleEventsForBackgroundURLSession: session) { completion(.noData) } }
        }
        for load in loads { load.loader.finishBackgroundTransfer() }
        if let urlSession = loads.compactMap(\.urlSession).first,
            let delegate = urlSession.delegate as? any URLSessionDelegate
        {
            urlSession.delegateQueue.addOperation {
                delegate.urlSessionDidFinishEvents(forBackgroundURLSession: urlSession)
            }
        }
        if !wakesApp { completion(.noData) }
    }
}

extension URLProtocol {
    /// The `URLSession` that made this protocol's task, read through reflection: `URLSessionTask` keeps it in a
    /// stored property FoundationNetworking does not make public.
    var owningSession: URLSession? {
        guard let task else { return nil }
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == "session" }) {
                return child.value as? URLSession
            }
            mirror = current.superclassMirror
        }
        return nil
    }
}
