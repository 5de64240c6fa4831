// A sample the harness must not call clean: its save outlives the background time and its expiration handler
// forgets to end the background task, so the watchdog ends the app, with no `BGTaskScheduler` task running.
import UIKit

/// Begins a background task on leaving the screen and never ends it, not even when it expires.
final class SampleOverlongSaveAppDelegate: UIResponder, UIApplicationDelegate {
    var saving = UIBackgroundTaskIdentifier.invalid

    func applicationDidEnterBackground(_ application: UIApplication) {
        saving = application.beginBackgroundTask(withName: "save") {}
    }
}
