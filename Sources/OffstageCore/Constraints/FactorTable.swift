/// The seven factors WWDC20 "Background execution demystified" names as deciding when background work runs.
/// A constraint that embodies one says so (`Constraint.factor`); the table decides which work it holds back.
public enum WorkFactor: String, Hashable, Sendable, CaseIterable, Codable {
    case criticalBattery = "critically low battery"
    case lowPowerMode = "Low Power Mode"
    case appUsage = "app usage"
    case appSwitcher = "App Switcher (force-quit)"
    case backgroundAppRefreshSwitch = "Background App Refresh switch"
    case systemBudgets = "system budgets (energy, data)"
    case rateLimiting = "rate limiting"

    /// The factor's place in `allCases`.
    var ordinal: Int {
        switch self {
        case .criticalBattery: 0
        case .lowPowerMode: 1
        case .appUsage: 2
        case .appSwitcher: 3
        case .backgroundAppRefreshSwitch: 4
        case .systemBudgets: 5
        case .rateLimiting: 6
        }
    }
}

/// The kinds of background work the factors are told apart for: the columns of the table.
public enum WorkKind: String, Hashable, Sendable, CaseIterable, Codable {
    case appRefresh = "refresh"
    case processing
    case backgroundFetch = "legacy fetch"
    case backgroundPush = "background push"
    case continuedProcessing = "continued processing"

    /// The kind's place in `allCases`.
    var ordinal: Int {
        switch self {
        case .appRefresh: 0
        case .processing: 1
        case .backgroundFetch: 2
        case .backgroundPush: 3
        case .continuedProcessing: 4
        }
    }

    /// The kind of work a `BGTaskRequest` of this kind is.
    public init(_ kind: TaskKind) {
        switch kind {
        case .appRefresh: self = .appRefresh
        case .processing: self = .processing
        case .continuedProcessing: self = .continuedProcessing
        }
    }
}

/// Which factor holds which kind of work back, and on whose word: the one place the constraints, the push and
/// fetch gates and the App Switcher's cancel ask, and what `docs/conformance.md` lists, a test per cell.
public struct FactorTable: Sendable {
    /// One cell: whether the factor holds the work back, and the source.
    public struct Cell: Hashable, Sendable {
        public var holds: Bool
        public var source: String

        static func yes(_ source: String) -> Cell { Cell(holds: true, source: source) }
        static func no(_ source: String) -> Cell { Cell(holds: false, source: source) }
    }

    /// The cells by factor, then by kind of work; every pair has one.
    public let cells: [WorkFactor: [WorkKind: Cell]]
    /// The cells' `holds`, a bit per pair: the constraints ask for every request they judge.
    private let held: UInt64

    public init(cells: [WorkFactor: [WorkKind: Cell]]) {
        self.cells = cells
        var held: UInt64 = 0
        for (factor, row) in cells {
            for (work, cell) in row where cell.holds { held |= Self.bit(factor, work) }
        }
        self.held = held
    }

    /// Whether `factor` holds `work` back.
    public func holds(_ factor: WorkFactor, _ work: WorkKind) -> Bool { held & Self.bit(factor, work) != 0 }

    private static func bit(_ factor: WorkFactor, _ work: WorkKind) -> UInt64 {
        1 << UInt64(factor.ordinal * WorkKind.allCases.count + work.ordinal)
    }

    /// Offstage's table: WWDC20's lists by mechanism ("W20"), and where Apple gives no column or another source
    /// refines one, ours with the reason.
    public static let standard = FactorTable(cells: [
        .criticalBattery: [
            .appRefresh: .yes(all), .processing: .yes(offTheCharger), .backgroundFetch: .yes(fetch),
            .backgroundPush: .yes(push), .continuedProcessing: .no(continued),
        ],
        .lowPowerMode: [
            .appRefresh: .yes(all), .processing: .yes(lowPower), .backgroundFetch: .yes(fetch),
            .backgroundPush: .yes(push), .continuedProcessing: .no(continued),
        ],
        .appUsage: [
            .appRefresh: .yes(all), .processing: .yes(processing), .backgroundFetch: .yes(fetch),
            .backgroundPush: .no(push), .continuedProcessing: .no(continued),
        ],
        .appSwitcher: [
            .appRefresh: .yes(all), .processing: .no(processingAfterSwipe), .backgroundFetch: .yes(fetch),
            .backgroundPush: .yes(push), .continuedProcessing: .yes("WWDC25, SPEC §6: a swipe cancels it"),
        ],
        .backgroundAppRefreshSwitch: [
            .appRefresh: .yes(all), .processing: .yes(processing), .backgroundFetch: .yes(fetch),
            .backgroundPush: .yes(push), .continuedProcessing: .no(continued),
        ],
        .systemBudgets: [
            .appRefresh: .yes(all), .processing: .no(processing), .backgroundFetch: .yes(fetch),
            .backgroundPush: .yes(push), .continuedProcessing: .no(continued),
        ],
        .rateLimiting: [
            .appRefresh: .yes(all), .processing: .yes(processing), .backgroundFetch: .yes(fetch),
            .backgroundPush: .yes("\(push); their own limit, `backgroundPushRateLimit`"),
            .continuedProcessing: .no(continued),
        ],
    ])

    private static let all = "W20: refresh, all seven"
    private static let push = "W20: pushes, all but app usage"
    private static let processing = "W20: processing, only app usage, App Switcher, the switch, rate limiting"
    private static let fetch = "ours: legacy fetch is judged like refresh, its successor (issue 16)"
    private static let continued = "WWDC25: started by a person's action, not discretionary (ours: only the swipe)"
    private static let offTheCharger =
        "ours, SPEC §5: only essential work off the charger (W20 omits it: processing mostly runs charging)"
    private static let lowPower = "ours, SPEC §5: Low Power Mode turns Background App Refresh off (W20 omits it)"
    private static let processingAfterSwipe =
        "Apple DTS (forum 14855): a processing request may still run after a force-quit (W20 lists it)"
}
