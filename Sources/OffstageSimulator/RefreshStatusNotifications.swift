import Foundation
import OffstageCore
import OffstageKit

extension Simulation {
    /// Posts `backgroundRefreshStatusDidChangeNotification`, as the app's work now, to every running app whose
    /// status a step changed (in the order of their bundle identifiers, so runs repeat). The status is the
    /// settings' to say alone (`UserSettings.backgroundRefreshStatus`): unchanged settings change no app's.
    func postRefreshStatusChanges(since before: UserSettings) {
        let after = system.settings
        guard after != before else { return }
        for app in processes.keys.sorted(by: { $0.rawValue < $1.rawValue })
        where after.backgroundRefreshStatus(for: app) != before.backgroundRefreshStatus(for: app) {
            guard let process = processes[app], process.runtime.postsNotifications else { continue }
            schedule(
                at: now,
                .appWork(app, generation: process.generation) {
                    NotificationCenter.postFromMainQueue(
                        UIApplication.backgroundRefreshStatusDidChangeNotification,
                        object: AppRuntime.current.application)
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
