public import OffstageCore

/// The four states an app lane shows: iOS's five, with active and inactive drawn as one (on screen).
public enum LaneState: String, Hashable, Sendable, CaseIterable {
    case foreground
    case background
    case suspended
    case notRunning = "not running"

    init(_ state: AppState) {
        switch state {
        case .active, .inactive: self = .foreground
        case .background: self = .background
        case .suspended: self = .suspended
        case .notRunning: self = .notRunning
        }
    }
}

/// An app in one lane state from `start` to `end`.
public struct StateSegment: Hashable, Sendable {
    public var state: LaneState
    public var start: Instant
    public var end: Instant
}

extension ReportTimeline {
    /// The app's lane states from the start to `end`, from its records (`mine`, in order): every app starts
    /// not running; consecutive segments differ in state, and none is empty.
    static func states(_ mine: [Record], until end: Instant) -> [StateSegment] {
        var segments: [StateSegment] = []
        var current = StateSegment(state: .notRunning, start: .zero, end: end)
        for record in mine {
            guard let state = newState(record).map(LaneState.init), state != current.state else { continue }
            current.end = record.at
            if current.end > current.start { segments.append(current) }
            if let last = segments.last, last.state == state, last.end == record.at {
                // Back to the state before an instant's detour (resumed, then at once inactive): one segment.
                current = segments.removeLast()
                current.end = end
            } else {
                current = StateSegment(state: state, start: record.at, end: end)
            }
        }
        if end > current.start { segments.append(current) }
        return segments
    }

    /// The state a record puts its app in: `resumed` thaws into the background; a state change, a suspension
    /// and a termination name the state after them in their detail.
    static func newState(_ record: Record) -> AppState? {
        record.kind == .resumed ? .background : record.detail?.stateAfter
    }
}
