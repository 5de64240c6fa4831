// ColorFeed's refresh and database cleaning, in the shape of Apple's ColorFeed sample
// ("Refreshing and Maintaining Your App Using Background Tasks"): schedule the next refresh,
// do the work, honour expiration, complete.
import OffstageKit

extension AppDelegate {
    func scheduleAppRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: "com.colorfeed.wwdc25.appRefresh")
        request.earliestBeginDate = Date(timeIntervalSinceNow: 60 * 60)
        try? BGTaskScheduler.shared.submit(request)
    }

    func handleAppRefresh(task: BGAppRefreshTask) {
        scheduleAppRefresh()
        var cancelled = false
        task.expirationHandler = { cancelled = true }
        Feed.fetchLatestEntries()
        task.setTaskCompleted(success: !cancelled)
    }

    func handleAppRefresh(task: BGProcessingTask) {
        var cancelled = false
        task.expirationHandler = { cancelled = true }
        Feed.deleteOldEntries(while: { !cancelled })
        if !cancelled {
            cleaningDelay = 24 * 60 * 60
            submitProcessingTaskRequest()
        }
        task.setTaskCompleted(success: !cancelled)
    }
}

/// The feed's work, with the time each step takes on the system's clock.
enum Feed {
    static func saveState() { OffstageClock.sleep(seconds: 1) }
    static func fetchLatestEntries() { OffstageClock.sleep(seconds: 4) }

    /// Deletes old entries in 60 batches of 5 s, stopping early when `shouldGoOn` turns false.
    static func deleteOldEntries(while shouldGoOn: () -> Bool) {
        for _ in 0..<60 where shouldGoOn() { OffstageClock.sleep(seconds: 5) }
    }
}
