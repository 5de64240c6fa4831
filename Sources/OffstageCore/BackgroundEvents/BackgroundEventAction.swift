/// What one of §7's transitions (`AppBackgroundEvents`) asks the system to do for the app, in order: the
/// subsystem decides, `BackgroundSystem` carries out (records, wakes, effects, the end of the process).
enum BackgroundEventAction: Hashable, Sendable {
    /// Keep a fact in words, of `kind`, about the app's event labelled `task` (nil: about the app).
    case note(RecordKind, task: String?, String)
    /// Keep a typed fact of `kind` about the app's event labelled `task`.
    case fact(RecordKind, task: String, RecordDetail)
    /// Count a discretionary launch of the app (a legacy fetch counts in the quota and the rate limit, WWDC20).
    case countDiscretionaryLaunch
    /// Wake the app (launch or resume it) to deliver `event`; the event follows once the app is ready.
    case deliver(BackgroundEvent, why: String)
    /// Hand `event` to the app's code now; its completion handler answers with `token`.
    case handOver(BackgroundEvent, token: Int)
    /// End the app's process: a completion handler was not called in time (the watchdog's words).
    case kill(String)
    /// Crash the app with iOS's message: it asked for something its Info.plist does not allow.
    case crash(String)
}
