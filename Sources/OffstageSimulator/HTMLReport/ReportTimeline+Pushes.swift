import OffstageCore

/// An app's background pushes (§7) as marks: when they arrived, were delivered or dropped, and when one was held.
public struct PushMarks: Hashable, Sendable {
    public var arrived: [ReportTimeline.Mark] = []
    public var delivered: [ReportTimeline.Mark] = []
    public var dropped: [ReportTimeline.Mark] = []
    /// While the app had a push held back (arrived, not yet delivered or discarded).
    public var held: [ReportTimeline.Span] = []
}

extension ReportTimeline {
    /// The app's pushes from its `push`, `delivered` and `dropped` records (`mine`, in order). A push is held
    /// from its arrival until delivered or discarded; a drop at the arrival of a newer push is coalescing
    /// (something is still held), a drop of a push that was never held marks only itself.
    static func pushes(_ mine: [Record], until end: Instant) -> PushMarks {
        let label = BackgroundEvent.remoteNotification(payload: "").label
        var marks = PushMarks()
        var heldSince: Instant?
        var lastArrival: Instant?
        for record in mine where record.task == label {
            let mark = Mark(at: record.at, app: record.app, detail: record.reason)
            switch record.kind {
            case .push:
                marks.arrived.append(mark)
                lastArrival = record.at
                if heldSince == nil { heldSince = record.at }
            case .delivered:
                marks.delivered.append(mark)
                if let since = heldSince { marks.held.append(Span(start: since, end: record.at)) }
                heldSince = nil
            case .dropped:
                marks.dropped.append(mark)
                guard let since = heldSince else { continue }
                let coalesced = lastArrival == record.at && since < record.at
                if !coalesced {
                    marks.held.append(Span(start: since, end: record.at))
                    heldSince = nil
                }
            default: break
            }
        }
        if let since = heldSince { marks.held.append(Span(start: since, end: end)) }
        marks.held.removeAll { $0.end <= $0.start }
        return marks
    }
}
