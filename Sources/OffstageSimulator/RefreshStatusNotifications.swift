import Foundation
import OffstageCore
import OffstageKit

extension Simulation {
    /// `backgroundRefreshStatus` as each running app would read it now, asked of a copy of the system (a value:
    /// asking it changes nothing here).
    func refreshStatuses() -> [BundleID: AppCallResult] {
        var probe = system
        var statuses: [BundleID: AppCallResult] = [:]
        for app in processes.keys { statuses[app] = probe.call(.backgroundRefreshStatus, from: app, at: now).0 }
        return statuses
    }

    /// Posts `backgroundRefreshStatusDidChangeNotification`, as the app's work now, to every running app whose
    /// status an event changed (in the order of their bundle identifiers, so runs repeat).
    func postRefreshStatusChanges(since before: [BundleID: AppCallResult]) {
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
