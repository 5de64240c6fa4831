/// The three kinds of `BGTaskRequest`.
public enum TaskKind: String, Hashable, Sendable, Codable, CaseIterable {
    case appRefresh = "app refresh"
    case processing
    case continuedProcessing = "continued processing"
}

/// What a continued-processing request does when it cannot start at once.
public enum SubmissionStrategy: String, Hashable, Sendable, Codable {
    /// Reject the submission with `immediateRunIneligible`.
    case fail
    /// Wait at the back of the queue (iOS's default).
    case queue
}

/// A submitted background-task request, as the system stores it: a value, copied on every read.
/// Fields that a kind does not use keep their defaults.
public struct TaskRequest: Hashable, Sendable, Codable {
    public var identifier: String
    public var kind: TaskKind
    /// Wall-clock seconds since 1970 before which the task must not start; ignored for continued processing.
    public var earliestBeginDate: Double?
    public var requiresNetworkConnectivity: Bool
    public var requiresExternalPower: Bool
    public var title: String
    public var subtitle: String
    public var strategy: SubmissionStrategy
    public var requiresGPU: Bool
    /// A health-research request (`BGHealthResearchTaskRequest`, a processing request): the file protection its
    /// data needs; nil for every other request.
    public var protectionTypeOfRequiredData: String?

    public init(
        identifier: String, kind: TaskKind, earliestBeginDate: Double? = nil,
        requiresNetworkConnectivity: Bool = false, requiresExternalPower: Bool = false,
        title: String = "", subtitle: String = "", strategy: SubmissionStrategy = .queue, requiresGPU: Bool = false,
        protectionTypeOfRequiredData: String? = nil
    ) {
        self.identifier = identifier
        self.kind = kind
        self.earliestBeginDate = earliestBeginDate
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
        self.requiresExternalPower = requiresExternalPower
        self.title = title
        self.subtitle = subtitle
        self.strategy = strategy
        self.requiresGPU = requiresGPU
        self.protectionTypeOfRequiredData = protectionTypeOfRequiredData
    }
}

/// `BGTaskScheduler.Error.Code`, with iOS's raw values.
public enum TaskSchedulerErrorCode: Int, Hashable, Sendable, Codable, CustomStringConvertible {
    case unavailable = 1
    case tooManyPendingTaskRequests = 2
    case notPermitted = 3
    case immediateRunIneligible = 4

    public var description: String {
        switch self {
        case .unavailable: "unavailable"
        case .tooManyPendingTaskRequests: "tooManyPendingTaskRequests"
        case .notPermitted: "notPermitted"
        case .immediateRunIneligible: "immediateRunIneligible"
        }
    }
}

/// A task the system has started: the request it came from and its timing.
public struct TaskRun: Hashable, Sendable, Codable {
    /// Unique on the device for the life of the system.
    public var id: Int
    public var app: BundleID
    public var request: TaskRequest
    /// When the system decided to start it; once delivered, when its launch handler was called.
    public var startedAt: Instant
    /// When the runtime ends and the expiration handler is called; nil for continued processing.
    public var expiresAt: Instant?
    /// When the expiration handler was called, if it was.
    public var expiredAt: Instant?
    /// Whether the launch handler has been delivered to the app.
    public var delivered: Bool
    /// Progress the task reported (continued processing): units done and units in all.
    public var progressCompleted: Int64 = 0
    public var progressTotal: Int64 = 0

    /// A run as the core starts it, or as a host reads one back (the wire's coding builds it from its members).
    public init(
        id: Int, app: BundleID, request: TaskRequest, startedAt: Instant, expiresAt: Instant? = nil,
        expiredAt: Instant? = nil, delivered: Bool, progressCompleted: Int64 = 0, progressTotal: Int64 = 0
    ) {
        self.id = id
        self.app = app
        self.request = request
        self.startedAt = startedAt
        self.expiresAt = expiresAt
        self.expiredAt = expiredAt
        self.delivered = delivered
        self.progressCompleted = progressCompleted
        self.progressTotal = progressTotal
    }
}
