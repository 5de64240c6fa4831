/// Background modes (§7): an app that declares a continuous mode keeps running in the background while it
/// does that kind of work (audio playing, location updates, a call…) and is suspended when it stops.
/// Significant-location-change and region events relaunch (or resume) the app for a short window.
extension BackgroundSystem {
    static let locationLabel = BackgroundEvent.location(.significantChange).label

    /// The app started or stopped the work of a mode. Without the mode in its manifest nothing changes
    /// (iOS simply suspends it in the background); modes that are not continuous are ignored.
    mutating func setBackgroundActivity(_ id: BundleID, _ mode: BackgroundMode, active: Bool) {
        let name = mode.rawValue
        guard BackgroundMode.continuous.contains(mode) else {
            return record(id, .log, reason: "'\(name)' is not a mode that keeps an app running: ignored")
        }
        guard apps[id].manifest.backgroundModes.contains(mode) else {
            return record(
                id, .log,
                reason: "\(name) \(active ? "started" : "stopped") without '\(name)' in UIBackgroundModes: no effect, "
                    + "the app is suspended in the background as usual")
        }
        guard apps[id].backgroundEvents.setActive(mode, active) else { return }
        record(
            id, .backgroundMode,
            reason: active
                ? "\(name) started: the app keeps running in the background while it lasts" : "\(name) stopped")
    }

    /// `allowsBackgroundLocationUpdates = true`: without `location` in `UIBackgroundModes` it is a programmer
    /// error, and Core Location's assertion crashes the app with iOS's message.
    mutating func allowBackgroundLocationUpdates(_ id: BundleID) -> AppCallResult {
        guard apps[id].manifest.backgroundModes.contains(.location) else {
            return crash(id, Self.backgroundLocationCrash)
        }
        return .ok
    }

    /// The reason of the `NSInternalInconsistencyException` `-[CLLocationManager setAllowsBackgroundLocationUpdates:]`
    /// raises when the Info.plist lacks the `location` background mode.
    static let backgroundLocationCrash =
        "Invalid parameter not satisfying: !stayUp || CLClientIsBackgroundable(internal->fClient) || _CFMZEnabled()"

    /// `start/stopMonitoringSignificantLocationChanges()`: kept across launches, as the system keeps it.
    mutating func setSignificantLocationMonitoring(_ id: BundleID, _ on: Bool) {
        guard apps[id].backgroundEvents.setSignificantLocationMonitoring(on) else { return }
        record(
            id, .log, task: Self.locationLabel,
            reason: "significant location changes \(on ? "monitored: they relaunch the app" : "no longer monitored")")
    }

    /// `startMonitoring(for:)` / `stopMonitoring(for:)`: kept across launches, as the system keeps it.
    mutating func setRegionMonitoring(_ id: BundleID, _ region: String, _ on: Bool) {
        guard apps[id].backgroundEvents.setRegionMonitoring(region, on) else { return }
        record(
            id, .log, task: Self.locationLabel,
            reason: "region \(region) \(on ? "monitored: crossing it relaunches the app" : "no longer monitored")")
    }

    /// A location event: delivered (relaunching or resuming the app) if the app monitors it, else dropped.
    mutating func receiveLocationEvent(_ id: BundleID, _ event: LocationEvent) {
        guard apps.contains(id) else {
            return record(nil, .log, reason: "location event for \(id), which is not installed: dropped")
        }
        record(id, .location, task: Self.locationLabel, reason: event.description)
        guard apps[id].backgroundEvents.monitors(event) else {
            let what = event.region.map { "the region \($0)" } ?? "location changes"
            return record(id, .dropped, task: Self.locationLabel, reason: "the app does not monitor \(what)")
        }
        beginDelivery(id, .location(event), why: "for a \(event)")
    }

    /// Continuous modes active for the app now (audio playing, location updates, a call…).
    public func activeBackgroundModes(of app: BundleID) -> Set<BackgroundMode> {
        apps.lookUp(app)?.backgroundEvents.activeModes ?? []
    }
}
