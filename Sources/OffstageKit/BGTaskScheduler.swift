public import Foundation
import OffstageCore

/// `BGTaskScheduler`: registers launch handlers and submits requests to the system.
/// Each app has its own `shared` scheduler, even when several run in one simulator.
public final class BGTaskScheduler: Sendable {
    unowned let runtime: AppRuntime

    init(runtime: AppRuntime) { self.runtime = runtime }

    /// The scheduler of the app whose code is running.
    public class var shared: BGTaskScheduler { AppRuntime.current.scheduler }

    /// `BGTaskSchedulerErrorDomain`.
    public static let errorDomain = "BGTaskSchedulerErrorDomain"

    /// Resources the device supports for continued-processing tasks (e.g. `.gpu`).
    public class var supportedResources: BGContinuedProcessingTaskRequest.Resources {
        guard case .resources(let gpu) = AppRuntime.current.send(.supportedResources) else { return [] }
        return gpu ? .gpu : []
    }

    /// Registers the launch handler for an identifier; `false` when the identifier is not permitted.
    /// Breaking the rules (twice, or after launch) crashes the app with iOS's message. The handler and the
    /// task's expiration handler run on `queue`, or on a background queue when it is nil, as on iOS.
    @discardableResult
    public func register(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
        launchHandler: @escaping @Sendable (BGTask) -> Void
    ) -> Bool {
        guard case .registered(true) = runtime.send(.register(identifier: identifier)) else { return false }
        runtime.setLaunchHandler(launchHandler, on: queue, for: identifier)
        return true
    }

    /// Submits a request; submitting an identifier already pending replaces it.
    public func submit(_ taskRequest: BGTaskRequest) throws {
        let epoch = taskRequest.earliestBeginDate.map { runtime.link.systemEpoch(forAppDate: $0) }
        if case .failed(let code) = runtime.send(.submit(taskRequest.coreRequest(epoch: epoch))) {
            throw Error(Error.Code(rawValue: code.rawValue) ?? .unavailable)
        }
    }

    public func cancel(taskRequestWithIdentifier identifier: String) {
        runtime.send(.cancel(identifier: identifier))
    }

    public func cancelAllTaskRequests() { runtime.send(.cancelAll) }

    /// The requests submitted and not yet started, as copies: changing them changes nothing.
    public func getPendingTaskRequests(completionHandler: @escaping ([BGTaskRequest]) -> Void) {
        completionHandler(pendingCopies())
    }

    public func pendingTaskRequests() async -> [BGTaskRequest] { pendingCopies() }

    private func pendingCopies() -> [BGTaskRequest] {
        guard case .pending(let requests) = runtime.send(.pendingRequests) else { return [] }
        return requests.map { request in
            let copy = BGTaskRequest.make(from: request)
            copy.earliestBeginDate = request.earliestBeginDate.map(runtime.link.appDate(forSystemEpoch:))
            return copy
        }
    }

    // MARK: Offstage additions: the public form of Apple's private debugging calls

    /// Launches a pending task now, whatever its constraints (Apple's `_simulateLaunchForTaskWithIdentifier:`).
    public func simulateLaunch(forTaskWithIdentifier identifier: String) {
        runtime.send(.simulateLaunch(identifier: identifier))
    }

    /// Expires a running task now (Apple's `_simulateExpirationForTaskWithIdentifier:`).
    public func simulateExpiration(forTaskWithIdentifier identifier: String) {
        runtime.send(.simulateExpiration(identifier: identifier))
    }
}

extension BGTaskScheduler {
    /// `BGTaskScheduler.Error`: why a submission failed, in `BGTaskSchedulerErrorDomain`.
    public struct Error: Swift.Error, Hashable, Sendable, CustomNSError, CustomStringConvertible {
        /// `BGTaskScheduler.Error.Code`, with iOS's raw values.
        public enum Code: Int, Hashable, Sendable {
            case unavailable = 1
            case tooManyPendingTaskRequests = 2
            case notPermitted = 3
            case immediateRunIneligible = 4
        }

        public let code: Code
        public init(_ code: Code) { self.code = code }

        public static let unavailable = Code.unavailable
        public static let tooManyPendingTaskRequests = Code.tooManyPendingTaskRequests
        public static let notPermitted = Code.notPermitted
        public static let immediateRunIneligible = Code.immediateRunIneligible

        public static var errorDomain: String { BGTaskScheduler.errorDomain }
        public var errorCode: Int { code.rawValue }
        public var description: String {
            "The operation couldn’t be completed. (\(BGTaskScheduler.errorDomain) error \(code.rawValue).)"
        }
    }
}

extension BGTaskScheduler.Error.Code {
    /// Lets `catch BGTaskScheduler.Error.notPermitted` match, as with imported error codes.
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? BGTaskScheduler.Error)?.code == code
    }
}
