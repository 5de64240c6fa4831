import Foundation
import PromiseKit
import UIKit

// Stand-ins for Home Assistant's `Shared` module (ours): the `Current` environment the background code reaches,
// reduced to what it uses. The servers answer a sensor update after three seconds; location is off.

/// The app's environment (`Current`), replaceable piece by piece as in the app.
public var Current = AppEnvironment()

/// What `Current` holds.
public final class AppEnvironment {
    public var date: () -> Date = Date.init
    public var Log = TrialLog()
    public var clientEventStore = ClientEventStore()
    public var backgroundTask: HomeAssistantBackgroundTaskRunner = ImmediateBackgroundTaskRunner()
    public var settingsStore = SettingsStore()
    public var location = LocationService()
    public var apis: [HomeAssistantAPI] = [HomeAssistantAPI()]
    public init() {}
}

/// Runs the wrapped work with no background task (the app sets its own runner at launch).
public struct ImmediateBackgroundTaskRunner: HomeAssistantBackgroundTaskRunner {
    public func callAsFunction<PromiseValue>(
        withName name: String, wrapping: (TimeInterval?) -> Promise<PromiseValue>
    ) -> Promise<PromiseValue> { wrapping(nil) }
}

/// The app's log (XCGLogger in the app), to standard output.
public struct TrialLog {
    public func info(_ message: @autoclosure () -> String) { print("HomeAssistant info: \(message())") }
    public func error(_ message: @autoclosure () -> String) { print("HomeAssistant error: \(message())") }
}

/// The app's event history shown in its settings.
public final class ClientEventStore {
    public private(set) var events: [ClientEvent] = []
    public func addEvent(_ event: ClientEvent) {
        events.append(event)
        print("HomeAssistant event: \(event.text)")
    }
}

/// One event of the history.
public struct ClientEvent {
    public enum EventType { case backgroundOperation }
    public let text: String
    public let type: EventType
    public init(text: String, type: EventType) {
        self.text = text
        self.type = type
    }
}

/// The settings the background code reads: location updates off, debug notifications on.
public struct SettingsStore {
    public struct LocationSources { public var backgroundFetch = false }
    public var locationSources = LocationSources()
    public var receiveDebugNotifications = true
    public func isLocationEnabled(for state: UIApplication.State) -> Bool { false }
}

/// Why a location is asked for.
public enum LocationUpdateTrigger { case BackgroundFetch }

/// A position (the app uses `CLLocation`).
public struct TrialLocation {}

/// The app's one-shot location service.
public struct LocationService {
    public func oneShotLocation(_ trigger: LocationUpdateTrigger, _ remaining: TimeInterval?) -> Promise<TrialLocation>
    {
        Promise(error: CocoaError(.featureUnsupported))
    }
}

/// A server connection: a sensor update takes three seconds.
public struct HomeAssistantAPI {
    public func UpdateSensors(trigger: LocationUpdateTrigger, location: TrialLocation?) -> Promise<Void> {
        Promise { seal in DispatchQueue.global().asyncAfter(deadline: .now() + 3) { seal.fulfill(()) } }
    }
    public func SubmitLocation(updateType: LocationUpdateTrigger, location: TrialLocation, zone: String?) -> Promise<
        Void
    > {
        UpdateSensors(trigger: updateType, location: location)
    }
}

/// The app's notification identifiers.
public enum NotificationIdentifier: String {
    case debug
    case backgroundFetchDone = "background-fetch-done"
}
