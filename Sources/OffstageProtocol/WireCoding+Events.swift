package import OffstageCore

/// Why a process ended, on the wire.
extension TerminationReason: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("userForceQuit", .userForceQuit),
        WireCase("memoryPressure", .memoryPressure),
        WireCase("watchdog", "_0", Self.watchdog(_:)) { if case .watchdog(let why) = $0 { why } else { nil } },
        WireCase("crash", "_0", Self.crash(_:)) { if case .crash(let message) = $0 { message } else { nil } },
        WireCase("exited", "_0", Self.exited(_:)) { if case .exited(let why) = $0 { why } else { nil } },
        WireCase("resourceLimit", "_0", Self.resourceLimit(_:)) {
            if case .resourceLimit(let why) = $0 { why } else { nil }
        },
        WireCase("deviceShutdown", .deviceShutdown),
    ]
}

/// A push, fetch, location or transfer event handed to an app, on the wire.
extension BackgroundEvent: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("remoteNotification", "payload", Self.remoteNotification(payload:)) {
            if case .remoteNotification(let payload) = $0 { payload } else { nil }
        },
        WireCase("fetch", .fetch),
        WireCase("location", "_0", Self.location(_:)) { if case .location(let event) = $0 { event } else { nil } },
        WireCase("urlSessionEvents", ("session", "tasks", "wakesApp"), Self.urlSessionEvents(session:tasks:wakesApp:)) {
            if case .urlSessionEvents(let session, let tasks, let wakesApp) = $0 {
                (session, tasks, wakesApp)
            } else {
                nil
            }
        },
    ]
}

extension LocationEvent: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("significantChange", .significantChange),
        WireCase("enteredRegion", "_0", Self.enteredRegion(_:)) {
            if case .enteredRegion(let region) = $0 { region } else { nil }
        },
        WireCase("exitedRegion", "_0", Self.exitedRegion(_:)) {
            if case .exitedRegion(let region) = $0 { region } else { nil }
        },
    ]
}

/// What an app's notification delegate is told, on the wire.
extension NotificationPresentation: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("willPresent", "identifier", Self.willPresent(identifier:)) {
            if case .willPresent(let identifier) = $0 { identifier } else { nil }
        },
        WireCase("didReceive", ("identifier", "text"), Self.didReceive(identifier:text:)) {
            if case .didReceive(let identifier, let text) = $0 { (identifier, text) } else { nil }
        },
    ]
}

extension NotificationText: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.fields(("title", title), ("subtitle", subtitle), ("body", body))
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        let (title, subtitle, body) = try reader.fields(
            ("title", String.self), ("subtitle", String.self), ("body", String.self))
        self.init(title: title, subtitle: subtitle, body: body)
    }
}
