import Foundation
import FoundationNetworking
import OffstageCore

/// Foundation's own interception point for `URLSession`, taking every request of an app whose host simulates
/// the network (the simulator): the response comes from the scenario's network, after its latency and transfer
/// time in the system's time, delivered as the app's work. Registered with `URLProtocol.registerClass` the first
/// time an app runs (see `AppRuntime`), so `URLSession.shared` and sessions made later reach it.
public final class OffstageURLProtocol: URLProtocol {
    /// The app whose code made the request (bound to the thread that created or started it).
    private var runtime: AppRuntime?
    /// The exchange: not started, under way (with the bytes' work in progress), or over (delivered or cancelled).
    private let loading = LockedValue(Loading.idle)

    private enum Loading {
        case idle
        case underway(OffstageWorkInProgress?)
        /// A background session's transfer, carried on by the system; its exchange ends when the system says.
        case background(OffstageNetworkExchange, session: String, task: Int)
        case over
    }

    /// Registers the protocol once per process, before app code runs: `URLSession.shared` takes the registered
    /// classes when it is first used. A session made with its own configuration (`.default`, `.ephemeral`,
    /// `.background`) lists the class first (`SimulatedSessionConfigurations.swift`).
    static let registration: Void = { _ = URLProtocol.registerClass(OffstageURLProtocol.self) }()

    override public class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let runtime = AppRuntime.currentIfBound
        else { return false }
        return runtime.link.simulatesNetwork
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    public required init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        runtime = AppRuntime.currentIfBound
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }

    override public func startLoading() {
        if runtime == nil { runtime = AppRuntime.currentIfBound }
        guard let runtime, let exchange = runtime.link.exchange(OffstageNetworkRequest(request)) else {
            // Reached from a thread the host does not know: fail the request rather than the process.
            fail(.unknown)
            return
        }
        if let session = owningSession, let identifier = session.configuration.backgroundIdentifier {
            return startBackgroundTransfer(exchange, in: session, identifier: identifier, runtime: runtime)
        }
        // URLProtocol is not Sendable: the delivery runs as the app's work, one piece of its code at a time.
        nonisolated(unsafe) let loader = self
        switch exchange {
        case .failure(let code, let seconds):
            loading.value = .underway(nil)
            runtime.link.after(seconds: seconds) {
                if loader.end() { loader.fail(code) }
            }
        case .response(let response, let seconds, let bytes):
            let work = bytes > 0 ? runtime.beginWork(OffstageWork(bytes: bytes, over: seconds)) : nil
            loading.value = .underway(work)
            runtime.link.after(seconds: seconds) {
                if loader.end() { loader.deliver(response) }
            }
        }
    }

    /// The task was cancelled (or suspended): the bytes moved so far are charged, nothing more is delivered; a
    /// background transfer is taken back from the system.
    override public func stopLoading() {
        if case .background(_, let session, let task) = loading.value, end() {
            runtime?.send(.cancelBackgroundTransfer(session: session, task: task))
        }
        _ = end()
    }

    /// Hands a background session's transfer to the system, which says when it ends (`finishBackgroundTransfer`).
    private func startBackgroundTransfer(
        _ exchange: OffstageNetworkExchange, in owner: URLSession, identifier session: String, runtime: AppRuntime
    ) {
        let task = task?.taskIdentifier ?? 0
        let (seconds, bytes): (Double, Int) =
            switch exchange {
            case .response(_, let seconds, let bytes): (seconds, bytes)
            case .failure(_, let seconds): (seconds, 0)
            }
        loading.value = .background(exchange, session: session, task: task)
        runtime.keepBackgroundLoad(BackgroundLoad(session: session, task: task, loader: self, urlSession: owner))
        runtime.send(
            .startBackgroundTransfer(
                BackgroundTransferRequest(
                    session: session, task: task, url: request.url?.absoluteString ?? "", seconds: seconds,
                    bytes: bytes, isDiscretionary: owner.configuration.isDiscretionary,
                    sendsLaunchEvents: owner.configuration.sessionSendsLaunchEvents)))
    }

    /// The system ended this background transfer: its response (or error) goes to the task now.
    func finishBackgroundTransfer() {
        guard case .background(let exchange, _, _) = loading.value, end() else { return }
        switch exchange {
        case .response(let response, _, _): deliver(response)
        case .failure(let code, _): fail(code)
        }
    }

    /// Ends the exchange and its work in progress (charged for the share done); true only the first time, when
    /// the caller may deliver.
    private func end() -> Bool {
        let ending: OffstageWorkInProgress?? = loading.withValue { loading in
            switch loading {
            case .underway(let work):
                loading = .over
                return .some(work)
            case .background:
                loading = .over
                return .some(nil)
            case .idle, .over: return nil
            }
        }
        guard case .some(let work) = ending else { return false }
        work?.end()
        return true
    }

    private func deliver(_ response: OffstageNetworkResponse) {
        let url = request.url ?? URL(fileURLWithPath: "/")
        guard
            let http = HTTPURLResponse(
                url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: response.headers)
        else { return fail(.badServerResponse) }
        // A download's bytes go to its file, written before the delegate or the completion handler runs.
        if task is URLSessionDownloadTask, !DownloadFile.hand(response.body, to: self) {
            return fail(.cannotCreateFile)
        }
        client?.urlProtocol(self, didReceive: http, cacheStoragePolicy: .notAllowed)
        // One piece: a completion handler sees only the last piece a protocol loads.
        if let download = task as? URLSessionDownloadTask {
            reportProgress(of: download, bytes: Int64(response.body.count))
        } else if !response.body.isEmpty {
            client?.urlProtocol(self, didLoad: response.body)
        }
        client?.urlProtocolDidFinishLoading(self)
    }

    /// Tells a download's delegate of the bytes written (`didWriteData`, which FoundationNetworking does not call
    /// for a protocol's downloads), on the session's delegate queue before it hears that the download finished.
    /// One call for the whole body, which arrives in one piece; the expected total is the body's length.
    private func reportProgress(of download: URLSessionDownloadTask, bytes: Int64) {
        guard bytes > 0, let session = owningSession,
            let delegate = session.delegate as? any FoundationNetworking.URLSessionDownloadDelegate
        else { return }
        session.delegateQueue.addOperation {
            delegate.urlSession(
                session, downloadTask: download, didWriteData: bytes, totalBytesWritten: bytes,
                totalBytesExpectedToWrite: bytes)
        }
    }

    private func fail(_ code: URLError.Code) {
        var info: [String: Any] = [:]
        if let url = request.url {
            info[NSURLErrorFailingURLErrorKey] = url
        }
        client?.urlProtocol(self, didFailWithError: URLError(code, userInfo: info))
    }
}
