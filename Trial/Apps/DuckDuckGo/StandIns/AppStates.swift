import UIKit

// Stand-ins for the app's states (DuckDuckGo's `AppStates/`), reduced to what the trial exercises: the launch
// sets the legacy fetch interval (as the app's Launching state does), the foreground asks for notification
// authorization, and the background keeps a background task while it saves, ending it when the save is done.

/// The state before launch.
struct Initializing: AppState {
    func apply(event: AppEvent) -> any AppState {
        guard case .didFinishLaunching = event else { return self }
        UIApplication.shared.setMinimumBackgroundFetchInterval(UIApplication.backgroundFetchIntervalMinimum)
        return Foreground(appDependencies: AppDependencies())
    }
    mutating func handle(action: AppAction) {}
}

/// The app on screen (or about to be): asks for notification authorization the first time it is active.
struct Foreground: AppState {
    let appDependencies: AppDependencies

    func apply(event: AppEvent) -> any AppState {
        switch event {
        case .didBecomeActive:
            appDependencies.notifications.requestAlertAuthorization()
            return self
        case .didEnterBackground:
            return TrialBackground(appDependencies: appDependencies)
        default:
            return self
        }
    }
    mutating func handle(action: AppAction) {}
}

/// The app in the background: saves its state under a background task, as the app's services do.
struct TrialBackground: AppState {
    let appDependencies: AppDependencies

    init(appDependencies: AppDependencies) {
        self.appDependencies = appDependencies
        appDependencies.saveUnderBackgroundTask()
    }

    func apply(event: AppEvent) -> any AppState {
        guard case .willEnterForeground = event else { return self }
        return Foreground(appDependencies: appDependencies)
    }
    mutating func handle(action: AppAction) {}
}
