/// What made a launch of an app likely, as the launch model names it: the signal whose evidence gave the
/// probability. Typed, so records and `explain` say it in words without reading text back.
public enum LaunchSignal: Hashable, Sendable, Codable {
    /// The app's launches at this hour of the day (weekdays and weekends apart): the base rate.
    case timeOfDay(hour: Int)
    /// The app was opened at this time of day on `days` of the last `of` days: a habit.
    case habit(days: Int, of: Int)
    /// The screen came on (a glance, an unlock): the user picks an app in the next seconds.
    case screenOn(hour: Int)
    /// The user just opened this other app: its next apps are likely.
    case afterApp(BundleID)
    /// The user left the app a moment ago: it is often opened again soon.
    case recentUse
    /// The app showed a notification.
    case notification
    /// The app received a background push.
    case push
    /// The charger was plugged in (true) or unplugged (false).
    case charger(plugged: Bool)

    /// The kinds of signal, without their hour or app: what a calibration groups decisions by.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case timeOfDay, habit, screenOn, afterApp, recentUse, notification, push, charger

        /// The kind in a table's words: "after another app".
        public var words: String {
            switch self {
            case .timeOfDay: "time of day"
            case .habit: "habit"
            case .screenOn: "screen on"
            case .afterApp: "after another app"
            case .recentUse: "recent use"
            case .notification: "notification"
            case .push: "push"
            case .charger: "charger"
            }
        }
    }

    /// The signal's kind.
    public var kind: Kind {
        switch self {
        case .timeOfDay: .timeOfDay
        case .habit: .habit
        case .screenOn: .screenOn
        case .afterApp: .afterApp
        case .recentUse: .recentUse
        case .notification: .notification
        case .push: .push
        case .charger: .charger
        }
    }
}

/// The probability that the user opens an app within the next window (the freshness window, 15 min), and the
/// signal that gave it: what the judgement weighs a refresh by, and what `explain` and `--why` say.
public struct LaunchLikelihood: Hashable, Sendable, Codable {
    /// 0–1: the chance of a launch within `window` seconds from now.
    public var probability: Double
    public var signal: LaunchSignal
    /// The window the probability is for, in seconds.
    public var window: Double
    /// False while the model has seen too few days to judge: the refresh is then not held back by it.
    public var learnt: Bool
    /// When the app's habit next makes a launch likelier by time alone (a launch of a past day enters the window
    /// at its time of day): a refresh held as unlikely is judged again then. Nil when it has no habit launches.
    public var habitRises: Instant?

    private enum CodingKeys: String, CodingKey { case probability, signal, window, learnt }

    public init(probability: Double, signal: LaunchSignal, window: Double, learnt: Bool = true) {
        self.probability = probability
        self.signal = signal
        self.window = window
        self.learnt = learnt
    }

    /// The likelihood a context carries when no constraint in use reads one (`ReadsLaunchLikelihood`): not worked
    /// out, so unlearnt and the same at every review.
    static func notWorkedOut(window: Double) -> LaunchLikelihood {
        LaunchLikelihood(probability: 0, signal: .timeOfDay(hour: 0), window: window, learnt: false)
    }

    /// Whether a run now serves a habit the model has learnt: the app was opened at this time of day before,
    /// likely enough to wake the device for. A habit's chance rises once a day per remembered launch, so such
    /// runs are few: neither the quota nor little known holds them, and a paper read at 08:00 is served from day 2.
    func servesAHabit(_ policy: JudgementPolicy) -> Bool {
        guard learnt, case .habit = signal else { return false }
        return probability >= policy.wakeRunCost
    }

    /// The probability as a whole percentage, as the words give it.
    public var percent: Int { Int((probability * 100).rounded()) }

    /// "likely opened in the next 15 min: 42 %, after Messages at this hour": the prediction in plain words.
    public var words: String {
        let head = "likely opened in the next \(minutes(window)): \(percent) %"
        guard learnt else { return "\(head) (still learning the user's habits)" }
        switch signal {
        case .timeOfDay(let hour): return "\(head), from its use at \(Self.hour(hour))"
        case .habit(let days, let of): return "\(head), opened at this time on \(days) of the last \(of) days"
        case .screenOn(let hour): return "\(head), as the screen came on at \(Self.hour(hour))"
        case .afterApp(let app): return "\(head), after \(Self.name(of: app)) at this hour"
        case .recentUse: return "\(head), used a moment ago"
        case .notification: return "\(head), after its notification"
        case .push: return "\(head), after a background push"
        case .charger(let plugged): return "\(head), as the charger was \(plugged ? "plugged in" : "unplugged")"
        }
    }

    /// "08:00–09:00": an hour of the day.
    static func hour(_ hour: Int) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(hour)):00–\(two((hour + 1) % 24)):00"
    }

    /// An app's name as people say it: the last part of its bundle identifier, capitalized (`com.apple.MobileSMS`
    /// → "MobileSMS", `com.example.mail` → "Mail").
    static func name(of app: BundleID) -> String {
        let last = app.rawValue.split(separator: ".").last.map(String.init) ?? app.rawValue
        return last.prefix(1).uppercased() + last.dropFirst()
    }
}
