/// A transfer an app handed to a background `URLSession` (`URLSessionConfiguration.background(withIdentifier:)`):
/// what the system needs to carry it on while the app is suspended or not running.
public struct BackgroundTransferRequest: Hashable, Sendable, Codable {
    /// The session's configuration identifier, which the app uses to reconnect to it after a relaunch.
    public var session: String
    /// The task's `taskIdentifier` in that session.
    public var task: Int
    public var url: String
    /// Seconds the transfer needs on the network (the host's model of the device's network at its start).
    public var seconds: Double
    public var bytes: Int
    /// `isDiscretionary`: the transfer waits for Wi-Fi and power.
    public var isDiscretionary: Bool
    /// `sessionSendsLaunchEvents`: the system may resume or relaunch the app when the session's transfers end.
    public var sendsLaunchEvents: Bool

    public init(
        session: String, task: Int, url: String, seconds: Double, bytes: Int, isDiscretionary: Bool = false,
        sendsLaunchEvents: Bool = true
    ) {
        self.session = session
        self.task = task
        self.url = url
        self.seconds = seconds
        self.bytes = bytes
        self.isDiscretionary = isDiscretionary
        self.sendsLaunchEvents = sendsLaunchEvents
    }

    /// How records name the transfer in their task column.
    public var label: String { "\(session)#\(task)" }
}

/// What happened to a background transfer, or to the wake-ups it causes: the typed detail of `transfer` records.
public enum TransferFact: Hashable, Sendable, Codable {
    /// The system took the transfer over; `discretionary` when it waits for Wi-Fi and power, `startedInBackground`
    /// when that is because the app started it in the background.
    case accepted(discretionary: Bool, startedInBackground: Bool)
    /// The transfer waits for these conditions ("a network", "Wi-Fi", "power").
    case waiting(for: [String])
    /// The transfer is going over the network, `secondsLeft` to go.
    case running(secondsLeft: Double)
    /// The transfer ended: its bytes arrived.
    case finished(bytes: Int)
    /// The transfer was cancelled, by the app or because the user swiped it away.
    case cancelled(byUser: Bool)
    /// The session's events wait: the resume rate limiter holds the app's next background wake until `until`
    /// (`wakes` background wakes since the user last opened the app).
    case wakeHeld(until: Instant, wakes: Int)
    /// The session's events wait until the app runs: it is suspended or not running, and its session sends no
    /// launch events.
    case waitingForLaunch

    func text(on clock: WallClock) -> String {
        switch self {
        case .accepted(let discretionary, let inBackground):
            "background transfer taken over by the system"
                + (discretionary
                    ? (inBackground
                        ? " (discretionary: started in the background, so it waits for Wi-Fi and power)"
                        : " (discretionary: it waits for Wi-Fi and power)") : "")
        case .waiting(let conditions): "background transfer waits for \(conditions.joined(separator: ", "))"
        case .running(let left): "background transfer running: \(oneDecimal(left)) s on the network to go"
        case .finished(let bytes): "background transfer finished: \(bytes) bytes"
        case .cancelled(let byUser):
            byUser ? "the user swiped the app away: its background transfer is cancelled" : "cancelled by the app"
        case .wakeHeld(let until, let wakes):
            "the session's events wait until \(clock.timestamp(at: until)): the resume rate limiter doubles its delay "
                + "at each background wake (\(wakes) since the user last opened the app)"
        case .waitingForLaunch:
            "the session's events wait until the app runs: its session sends no launch events, so the system neither "
                + "resumes nor relaunches it"
        }
    }
}

/// One transfer the system carries on for an app: its request, how much network time it still needs, and since
/// when it has been running (nil while it waits).
struct BackgroundTransfer: Hashable, Sendable {
    var app: BundleID
    var request: BackgroundTransferRequest
    var isDiscretionary: Bool
    var secondsLeft: Double
    var runningSince: Instant?
    /// The conditions it last waited for, so only changes are recorded.
    var waitingFor: [String]?

    /// When it ends if it keeps running.
    var endsAt: Instant? { runningSince.map { $0 + secondsLeft } }
}
