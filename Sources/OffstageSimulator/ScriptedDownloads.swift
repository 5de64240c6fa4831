import Foundation
import OffstageKit

/// A declarative app's background sessions, written as Apple's "Downloading files in the background" writes them:
/// one session per identifier with the app as delegate, the completion handler of
/// `handleEventsForBackgroundURLSession` kept and called once the session's events are all delivered.
final class ScriptedDownloads: NSObject, URLSessionDownloadDelegate, @unchecked Sendable {
    private var sessions: [String: URLSession] = [:]
    private var completionHandlers: [String: () -> Void] = [:]

    /// Resumes a download task of the download's session (made with its configuration on first use).
    func start(_ download: BackgroundDownload) {
        guard let url = URL(string: download.url) else { return }
        session(for: download).downloadTask(with: url).resume()
    }

    func eventsWillCome(for identifier: String, _ completionHandler: @escaping () -> Void) {
        completionHandlers[identifier] = completionHandler
    }

    private func session(for download: BackgroundDownload) -> URLSession {
        if let session = sessions[download.session] { return session }
        let configuration = URLSessionConfiguration.background(withIdentifier: download.session)
        configuration.isDiscretionary = download.isDiscretionary
        configuration.sessionSendsLaunchEvents = download.sendsLaunchEvents
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        sessions[download.session] = session
        return session
    }

    /// The file is only looked at: a declarative app keeps nothing.
    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        try? FileManager.default.removeItem(at: location)
    }

    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        guard let identifier = sessions.first(where: { $0.value === session })?.key else { return }
        let handler = completionHandlers.removeValue(forKey: identifier)
        DispatchQueue.main.async { handler?() }
    }
}
