public import Foundation
import OffstageCore

/// `CLLocationDegrees`: latitude or longitude in degrees.
public typealias CLLocationDegrees = Double
/// `CLLocationDistance`: metres.
public typealias CLLocationDistance = Double

/// `CLLocationCoordinate2D`: a latitude and a longitude.
public struct CLLocationCoordinate2D: Hashable, Sendable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees
    public init() { self.init(latitude: 0, longitude: 0) }
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// `kCLLocationCoordinate2DInvalid`: the coordinate of the locations Offstage delivers, as it models
/// no geography (a significant change is an event in time, not a place).
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

/// `CLLocation`, reduced to what Offstage delivers: a coordinate and a timestamp.
open class CLLocation: NSObject, @unchecked Sendable {
    public let coordinate: CLLocationCoordinate2D
    public let timestamp: Date

    public init(coordinate: CLLocationCoordinate2D, timestamp: Date) {
        self.coordinate = coordinate
        self.timestamp = timestamp
        super.init()
    }
}

/// `CLRegion`: a monitored region, known by its identifier.
open class CLRegion: NSObject, @unchecked Sendable {
    public let identifier: String

    init(identifier: String) {
        self.identifier = identifier
        super.init()
    }

    open override func isEqual(_ object: Any?) -> Bool { (object as? CLRegion)?.identifier == identifier }
    open override var hash: Int { identifier.hashValue }
}

/// `CLCircularRegion`: a region around a centre; Offstage keeps its shape but does not compute crossings.
open class CLCircularRegion: CLRegion, @unchecked Sendable {
    public let center: CLLocationCoordinate2D
    public let radius: CLLocationDistance

    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
        self.center = center
        self.radius = radius
        super.init(identifier: identifier)
    }
}

/// `CLLocationManagerDelegate`: the callbacks location events arrive through. Every method is optional.
public protocol CLLocationManagerDelegate: AnyObject {
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion)
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)
}

extension CLLocationManagerDelegate {
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
    public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {}
    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {}
}

/// The background subset of Core Location's `CLLocationManager`. Location updates keep the app running in
/// the background when `allowsBackgroundLocationUpdates` is set and `location` is in `UIBackgroundModes`;
/// significant-change and region monitoring relaunch the app for a short window when an event arrives.
/// Authorization is always granted: Offstage has no permission prompts.
open class CLLocationManager: NSObject, @unchecked Sendable {
    open weak var delegate: (any CLLocationManagerDelegate)?
    /// Whether updates go on in the background. Setting it to `true` without `location` in `UIBackgroundModes`
    /// is a programmer error: the app crashes, as Core Location's assertion crashes it on iOS.
    open var allowsBackgroundLocationUpdates = false {
        didSet {
            if allowsBackgroundLocationUpdates { runtime.send(.allowBackgroundLocationUpdates) }
            runtime.locations.reportActivity(runtime)
        }
    }
    /// The regions this manager monitors.
    open private(set) var monitoredRegions: Set<CLRegion> = []
    let runtime: AppRuntime
    /// `startUpdatingLocation()` is in effect.
    var isUpdating = false

    /// A manager of the app whose code is running.
    public override init() {
        runtime = AppRuntime.current
        super.init()
        runtime.locations.add(self)
    }

    open class func significantLocationChangeMonitoringAvailable() -> Bool { true }

    /// Does nothing: authorization is always granted here.
    open func requestAlwaysAuthorization() {}
    /// Does nothing: authorization is always granted here.
    open func requestWhenInUseAuthorization() {}

    open func startUpdatingLocation() {
        isUpdating = true
        runtime.locations.reportActivity(runtime)
    }

    open func stopUpdatingLocation() {
        isUpdating = false
        runtime.locations.reportActivity(runtime)
    }

    open func startMonitoringSignificantLocationChanges() { runtime.send(.setSignificantLocationMonitoring(true)) }
    open func stopMonitoringSignificantLocationChanges() { runtime.send(.setSignificantLocationMonitoring(false)) }

    open func startMonitoring(for region: CLRegion) {
        monitoredRegions.insert(region)
        runtime.send(.setRegionMonitoring(identifier: region.identifier, true))
    }

    open func stopMonitoring(for region: CLRegion) {
        monitoredRegions.remove(region)
        runtime.send(.setRegionMonitoring(identifier: region.identifier, false))
    }
}

/// The `CLLocationManager`s of one app process (held weakly), and whether background updates are active.
/// The system hears of one `location` activity per app: on when the first manager updates in the background.
/// Managers may be made and started from any thread: the list and the last report are behind a lock.
final class LocationRegistry: Sendable {
    private let state = LockedValue<(managers: [Weak], reportedActive: Bool)>(([], false))

    private struct Weak { weak var manager: CLLocationManager? }

    func add(_ manager: CLLocationManager) {
        state.withValue { state in
            state.managers.removeAll { $0.manager == nil }
            state.managers.append(Weak(manager: manager))
        }
    }

    /// The live managers, oldest first.
    var live: [CLLocationManager] { state.value.managers.compactMap(\.manager) }

    /// Tells the system when background location updates start or stop for the app as a whole.
    func reportActivity(_ runtime: AppRuntime) {
        let active = live.contains { $0.isUpdating && $0.allowsBackgroundLocationUpdates }
        let changed = state.withValue { state in
            defer { state.reportedActive = active }
            return state.reportedActive != active
        }
        guard changed else { return }
        runtime.send(.setBackgroundActivity(.location, active: active))
    }
}
