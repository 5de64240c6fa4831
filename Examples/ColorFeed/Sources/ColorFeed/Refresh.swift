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

/// The feed's work: the time each step takes on the system's clock, and what it uses, told to the system with
/// `OffstageWork` (on iOS the system measures it) so that the energy per app shows it.
enum Feed {
    /// Saving state: 1 s at a quarter of a core.
    static func saveState() { work(seconds: 1, cores: 0.25) }
    /// Fetching the latest entries: 4 s at a fifth of a core, 80 kB over the network (WWDC20 advises under 100 kB).
    static func fetchLatestEntries() { work(seconds: 4, cores: 0.2, bytes: 80_000) }

    /// Deletes old entries in 60 batches of 5 s at 40 % of a core, stopping early when `shouldGoOn` turns false.
    static func deleteOldEntries(while shouldGoOn: () -> Bool) {
        for _ in 0..<60 where shouldGoOn() { work(seconds: 5, cores: 0.4) }
    }

    /// One step of the export: 3 s at half a core.
    static func exportStep() { work(seconds: 3, cores: 0.5) }

    /// Works for `seconds` on the system's clock with this much CPU and network; if the app is killed meanwhile,
    /// the system still charges the part done.
    static func work(seconds: Double, cores: Double, bytes: Int = 0) {
        let work = OffstageWork.begin(cpuSeconds: cores * seconds, bytes: bytes, over: seconds)
        OffstageClock.sleep(seconds: seconds)
        work.end()
    }
}
