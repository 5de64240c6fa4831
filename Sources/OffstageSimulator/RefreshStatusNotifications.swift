import Foundation
import OffstageCore
import OffstageKit

extension Simulation {
    /// `backgroundRefreshStatus` as each running app would read it before the next step moves time on.
    func refreshStatuses() -> [BundleID: BackgroundRefreshStatus] {
        var statuses: [BundleID: BackgroundRefreshStatus] = [:]
        for app in processes.keys { statuses[app] = system.backgroundRefreshStatus(for: app) }
        return statuses
    }

    /// Posts `backgroundRefreshStatusDidChangeNotification`, as the app's work now, to every running app whose
    /// status an event changed (in the order of their bundle identifiers, so runs repeat).
    func postRefreshStatusChanges(since before: [BundleID: BackgroundRefreshStatus]) {
        let after = refreshStatuses()
        for app in after.keys.sorted(by: { $0.rawValue < $1.rawValue }) where after[app] != before[app] {
            guard let process = processes[app], process.runtime.postsNotifications else { continue }
            schedule(
                at: now,
                .appWork(app, generation: process.generation) {
                    NotificationCenter.postFromMainQueue(
                        UIApplication.backgroundRefreshStatusDidChangeNotification, object: UIApplication.shared)
                })
        }
    }
}

extension Simulation.Action {
    /// Whether the step is a timeline event that may change what `backgroundRefreshStatus` answers.
    var canChangeRefreshStatus: Bool {
        guard case .timeline(let entry) = self, case .system(let event) = entry.action else { return false }
        return event.canChangeRefreshStatus
    }
}

extension SystemEvent {
    /// Whether the event may change what `backgroundRefreshStatus` answers.
    var canChangeRefreshStatus: Bool {
        switch self {
        case .setBackgroundAppRefresh, .setBackgroundAppRefreshRestricted, .setAppBackgroundAppRefresh,
            .setLowPowerMode, .setBattery, .setCharging:
            true
        default: false
        }
    }
}
