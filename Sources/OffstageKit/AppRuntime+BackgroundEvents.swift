import Foundation
public import OffstageCore

extension AppRuntime {
    /// Hands a §7 event to the app's code: a push or fetch to the delegate, with a completion handler that
    /// tells the system once; a location event to every `CLLocationManager` delegate of the process.
    public func deliverBackgroundEvent(_ event: BackgroundEvent, token: Int) {
        let app = application
        switch event {
        case .remoteNotification(let payload):
            let handler = completion(token: token)
            onMain {
                $0.application(
                    app, didReceiveRemoteNotification: Self.userInfo(payload: payload), fetchCompletionHandler: handler)
            }
        case .fetch:
            let handler = completion(token: token)
            onMain { $0.application(app, performFetchWithCompletionHandler: handler) }
        case .urlSessionEvents(let session, let tasks, let wakesApp):
            deliverSessionEvents(session, tasks: tasks, wakesApp: wakesApp, completion: completion(token: token))
        case .location(let location):
            for manager in locations.live {
                guard let delegate = manager.delegate else { continue }
                switch location {
                case .significantChange:
                    let fix = CLLocation(coordinate: kCLLocationCoordinate2DInvalid, timestamp: link.now)
                    delegate.locationManager(manager, didUpdateLocations: [fix])
                case .enteredRegion(let identifier):
                    delegate.locationManager(manager, didEnterRegion: region(identifier, of: manager))
                case .exitedRegion(let identifier):
                    delegate.locationManager(manager, didExitRegion: region(identifier, of: manager))
                }
            }
        }
    }

    /// A completion handler that reports its result to the system the first time it is called (from any thread).
    func completion(token: Int) -> (UIBackgroundFetchResult) -> Void {
        let called = LockedValue(false)
        return { [unowned self] result in
            let first = called.withValue { called in
                defer { called = true }
                return !called
            }
            guard first else { return }
            let result = BackgroundFetchResult(rawValue: Int(result.rawValue)) ?? .failed
            self.send(.backgroundEventCompleted(token: token, result: result))
        }
    }

    /// The manager's own region object for the identifier, or a plain one (after a relaunch, say).
    private func region(_ identifier: String, of manager: CLLocationManager) -> CLRegion {
        manager.monitoredRegions.first { $0.identifier == identifier } ?? CLRegion(identifier: identifier)
    }
}
