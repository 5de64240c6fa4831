public import OffstageCore

/// Turns one user's rows of a usage trace into a scenario: the user's timeline (opened → the app comes
/// on screen, closed → home, screen-on, unlock, screen-off → lock, notification, and the device state the
/// cells give), and every app of the trace as a news-like declarative app. The simulator then plays it like any other scenario.
public enum TraceReplay {
    /// Seconds after submission that a news-like app asks for as `earliestBeginDate` (Apple's sample value).
    public static let refreshAfter: Double = 15 * 60
    /// The refresh task's work: seconds, CPU and the bytes it downloads.
    public static let refreshWork = TaskBehaviour.newsRefresh

    /// The identifier of an app's refresh task: `<bundle id>.refresh`.
    public static func refreshIdentifier(of app: BundleID) -> String { app.rawValue + ".refresh" }

    /// The scenario that replays `user`'s rows of `trace` under `policy`, from the local midnight before
    /// their first row to the local midnight after their last.
    public static func scenario(for user: String, in trace: UsageTrace, policy: Policy = .iOS) -> Scenario {
        let rows = trace.events(of: user)
        let first = rows.first!
        let offset = first.utcOffset
        let start = ((first.epoch + offset) / 86_400).rounded(.down) * 86_400 - offset
        let end = ((rows.last!.epoch + offset) / 86_400 + 1).rounded(.down) * 86_400 - offset
        var apps: [BundleID] = []
        for app in rows.compactMap(\.app) where !apps.contains(app) { apps.append(app) }
        var scenario = Scenario(
            name: "\(trace.source) user \(user)", source: trace.source, startEpoch: start, policy: policy,
            apps: apps.map(newsApp), duration: end - start)
        scenario.utcOffset = offset
        scenario.device.isScreenOn = false
        scenario.device.isLocked = true
        scenario.device.idleSince = .zero
        scenario.device.batteryLevel = first.battery ?? scenario.device.batteryLevel
        scenario.device.isCharging = first.charging ?? false
        scenario.device.network = first.network ?? scenario.device.network
        var timeline: [TimelineEntry] = []
        // The charger as the rows last said: an empty cell changes nothing.
        var charging = scenario.device.isCharging
        for row in rows {
            let at = row.epoch - start
            var events: [SystemEvent] = []
            if row.kind == .closed { events.append(.home) }
            if let level = row.battery {
                events.append(.setBattery(level: level, charging: row.charging ?? charging))
            } else if let charging = row.charging {
                events.append(.setCharging(charging))
            }
            charging = row.charging ?? charging
            if let network = row.network { events.append(.setNetwork(network)) }
            events += row.userEvents(screenColumn: trace.hasScreenColumn)
            timeline += events.map { TimelineEntry(at: at, action: .system($0), line: row.line) }
        }
        scenario.timeline = timeline
        return scenario
    }

    /// The content a news-like app loads as it comes on screen, as its refresh does: what makes foreground use
    /// count as a refresh, and on cellular what brings the radio up while the user is in the app.
    public static let foregroundLoad = BehaviourAction.load(.fixed(2), load: refreshWork.load)

    /// A news-like app: it registers its refresh task, submits a `BGAppRefreshTaskRequest` (earliest begin
    /// `refreshAfter` ahead) and loads its content whenever it becomes active, and submits again at the end of
    /// each refresh run, which downloads and updates its content.
    public static func newsApp(_ id: BundleID) -> ScenarioApp {
        let refresh = refreshIdentifier(of: id)
        let submit = BehaviourAction.submit(
            RequestTemplate(identifier: refresh, kind: .appRefresh, after: refreshAfter))
        var behaviour = AppBehaviour()
        behaviour.register = [refresh]
        behaviour.onBecomeActive = [submit, foregroundLoad]
        var task = refreshWork
        task.then = [submit]
        behaviour.tasks = [refresh: task]
        let manifest = AppManifest(bundleIdentifier: id, backgroundModes: [.fetch], permittedIdentifiers: [refresh])
        return ScenarioApp(manifest: manifest, behaviour: behaviour)
    }
}

extension TraceEvent {
    /// The user's own events of the row, after its device cells: the app opens (unlocking on the way),
    /// the screen lights, the user unlocks, a notification appears, or the device locks (a `screen-off`
    /// row, or a close with the screen off — with no `screen` column, every close).
    func userEvents(screenColumn: Bool) -> [SystemEvent] {
        switch kind {
        case .opened: app.map { [.open($0)] } ?? []
        case .closed: screen == false || !screenColumn ? [.lock] : []
        case .notification: app.map { [.notificationShown($0)] } ?? []
        case .screenOn: [.screenOn]
        case .unlock: [.unlock]
        case .screenOff: [.lock]
        }
    }
}

extension TaskBehaviour {
    /// A news app's refresh: 3 s of a third of a core, downloading 300 kB.
    static var newsRefresh: TaskBehaviour {
        var task = TaskBehaviour()
        task.work = .fixed(3)
        task.load = WorkLoad(cpu: 0.3, bytes: 300_000)
        return task
    }
}
