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
        if active {
            guard apps[id].backgroundWork.activeModes.insert(mode).inserted else { return }
            record(
                id, .backgroundMode, reason: "\(name) started: the app keeps running in the background while it lasts")
        } else {
            guard apps[id].backgroundWork.activeModes.remove(mode) != nil else { return }
            record(id, .backgroundMode, reason: "\(name) stopped")
        }
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
        guard apps[id].backgroundWork.significantLocationChanges != on else { return }
        apps[id].backgroundWork.significantLocationChanges = on
        record(
            id, .log, task: Self.locationLabel,
            reason: "significant location changes \(on ? "monitored: they relaunch the app" : "no longer monitored")")
    }

    /// `startMonitoring(for:)` / `stopMonitoring(for:)`: kept across launches, as the system keeps it.
    mutating func setRegionMonitoring(_ id: BundleID, _ region: String, _ on: Bool) {
        let changed =
            on
            ? apps[id].backgroundWork.monitoredRegions.insert(region).inserted
            : apps[id].backgroundWork.monitoredRegions.remove(region) != nil
        guard changed else { return }
        record(
            id, .log, task: Self.locationLabel,
            reason: "region \(region) \(on ? "monitored: crossing it relaunches the app" : "no longer monitored")")
    }

    /// A location event: delivered (relaunching or resuming the app) if the app monitors it, else dropped.
    mutating func receiveLocationEvent(_ id: BundleID, _ event: LocationEvent) {
        guard let app = apps.lookUp(id) else {
            return record(nil, .log, reason: "location event for \(id), which is not installed: dropped")
        }
        record(id, .location, task: Self.locationLabel, reason: event.description)
        let work = app.backgroundWork
        let monitored =
            switch event {
            case .significantChange: work.significantLocationChanges || work.activeModes.contains(.location)
            case .enteredRegion(let region), .exitedRegion(let region): work.monitoredRegions.contains(region)
            }
        guard monitored else {
            let what = event.region.map { "the region \($0)" } ?? "location changes"
            return record(id, .dropped, task: Self.locationLabel, reason: "the app does not monitor \(what)")
        }
        beginDelivery(id, .location(event), why: "for a \(event)")
    }

    /// Continuous modes active for the app now (audio playing, location updates, a call…).
    public func activeBackgroundModes(of app: BundleID) -> Set<BackgroundMode> {
        apps.lookUp(app)?.backgroundWork.activeModes ?? []
    }
}

extension BackgroundMode {
    /// The modes whose work keeps an app running in the background while it lasts; the others
    /// (`fetch`, `processing`, `remote-notification`, …) only let the system wake the app for an event.
    public static let continuous: Set<BackgroundMode> = [
        .audio, .location, .voip, .externalAccessory, .bluetoothCentral, .bluetoothPeripheral, .nearbyInteraction,
        .pushToTalk,
    ]
}
