public import Foundation
public import OffstageCore

/// `BGTaskRequest`: the abstract request for a background task, identified by a permitted identifier.
/// Requests are values to the system: it keeps copies, and `getPendingTaskRequests` returns copies.
open class BGTaskRequest: NSCopying, CustomStringConvertible {
    public let identifier: String
    /// The task will not begin before this date (no guarantee it begins then).
    open var earliestBeginDate: Date?

    init(identifier: String) { self.identifier = identifier }

    open func copy(with zone: NSZone? = nil) -> Any { Self.make(from: coreRequest(epoch: nil)) }

    open var description: String {
        "<\(type(of: self)): \(identifier), earliestBeginDate: \(earliestBeginDate.map { "\($0)" } ?? "(null)")>"
    }

    /// The system's value for this request; `epoch` is the earliest begin date on the system's clock.
    func coreRequest(epoch: Double?) -> TaskRequest {
        TaskRequest(identifier: identifier, kind: .appRefresh, earliestBeginDate: epoch)
    }

    /// A new request object of the right subclass holding the system's values (an Offstage addition,
    /// for hosts and tools that build requests from data rather than code). Dates are taken as they are.
    public static func make(from request: TaskRequest) -> BGTaskRequest {
        let result: BGTaskRequest
        switch request.kind {
        case .appRefresh:
            result = BGAppRefreshTaskRequest(identifier: request.identifier)
        case .processing:
            let processing =
                request.protectionTypeOfRequiredData.map { protection in
                    let health = BGHealthResearchTaskRequest(identifier: request.identifier)
                    health.protectionTypeOfRequiredData = NSString(string: protection)
                    return health
                } ?? BGProcessingTaskRequest(identifier: request.identifier)
            processing.requiresNetworkConnectivity = request.requiresNetworkConnectivity
            processing.requiresExternalPower = request.requiresExternalPower
            result = processing
        case .continuedProcessing:
            let continued = BGContinuedProcessingTaskRequest(
                identifier: request.identifier, title: request.title, subtitle: request.subtitle)
            continued.strategy = request.strategy == .fail ? .fail : .queue
            continued.requiredResources = request.requiresGPU ? .gpu : []
            result = continued
        }
        result.earliestBeginDate = request.earliestBeginDate.map { Date(timeIntervalSince1970: $0) }
        return result
    }
}

/// `BGAppRefreshTaskRequest`: a short refresh (about 30 s), fitted to the app's usage. Needs mode `fetch`.
open class BGAppRefreshTaskRequest: BGTaskRequest {
    public override init(identifier: String) { super.init(identifier: identifier) }
}

/// `BGProcessingTaskRequest`: deferrable work of minutes, run while the device is idle. Needs mode `processing`.
open class BGProcessingTaskRequest: BGTaskRequest {
    /// Run only with a network connection.
    open var requiresNetworkConnectivity = false
    /// Run only on external power (this also turns the CPU monitor off).
    open var requiresExternalPower = false

    public override init(identifier: String) { super.init(identifier: identifier) }

    override func coreRequest(epoch: Double?) -> TaskRequest {
        TaskRequest(
            identifier: identifier, kind: .processing, earliestBeginDate: epoch,
            requiresNetworkConnectivity: requiresNetworkConnectivity, requiresExternalPower: requiresExternalPower)
    }
}

/// `BGHealthResearchTaskRequest` (iOS 17): a processing request for a health research study the person takes part
/// in. Needs the entitlement `com.apple.developer.backgroundtasks.healthresearch` (else `notPermitted`).
open class BGHealthResearchTaskRequest: BGProcessingTaskRequest {
    /// The file protection the task's data needs (`NSFileProtectionType`): by default complete until the first
    /// unlock, so the task can read it while the device is locked.
    open var protectionTypeOfRequiredData: NSString = "NSFileProtectionCompleteUntilFirstUserAuthentication"

    override func coreRequest(epoch: Double?) -> TaskRequest {
        var request = super.coreRequest(epoch: epoch)
        request.protectionTypeOfRequiredData = String(protectionTypeOfRequiredData)
        return request
    }
}

/// `BGContinuedProcessingTaskRequest` (iOS 26): user-started work that goes on in the background with
/// system UI showing title, subtitle and progress. `earliestBeginDate` is ignored.
open class BGContinuedProcessingTaskRequest: BGTaskRequest {
    /// What to do when the task cannot start at once.
    public enum SubmissionStrategy: Int, Sendable {
        case fail = 0
        case queue = 1
    }

    /// Resources the task needs.
    public struct Resources: OptionSet, Hashable, Sendable {
        public var rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let `default`: Resources = []
        public static let gpu = Resources(rawValue: 1 << 0)
    }

    open var title: String
    open var subtitle: String
    open var strategy: SubmissionStrategy = .queue
    open var requiredResources: Resources = .default

    public init(identifier: String, title: String, subtitle: String) {
        self.title = title
        self.subtitle = subtitle
        super.init(identifier: identifier)
    }

    override func coreRequest(epoch: Double?) -> TaskRequest {
        TaskRequest(
            identifier: identifier, kind: .continuedProcessing, title: title, subtitle: subtitle,
            strategy: strategy == .fail ? .fail : .queue, requiresGPU: requiredResources.contains(.gpu))
    }
}
