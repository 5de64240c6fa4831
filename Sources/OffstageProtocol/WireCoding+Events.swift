package import OffstageCore

/// Why a process ended, on the wire.
extension TerminationReason: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .userForceQuit: out.enumCase("userForceQuit")
        case .memoryPressure: out.enumCase("memoryPressure")
        case .watchdog(let why): try out.enumCase("watchdog", ("_0", why))
        case .crash(let message): try out.enumCase("crash", ("_0", message))
        case .exited(let why): try out.enumCase("exited", ("_0", why))
        case .resourceLimit(let why): try out.enumCase("resourceLimit", ("_0", why))
        case .deviceShutdown: out.enumCase("deviceShutdown")
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("userForceQuit", .userForceQuit),
        WireCase("memoryPressure", .memoryPressure),
        WireCase("watchdog", "_0", Self.watchdog(_:)),
        WireCase("crash", "_0", Self.crash(_:)),
        WireCase("exited", "_0", Self.exited(_:)),
        WireCase("resourceLimit", "_0", Self.resourceLimit(_:)),
        WireCase("deviceShutdown", .deviceShutdown),
    ]
}

/// A push, fetch, location or transfer event handed to an app, on the wire.
extension BackgroundEvent: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .remoteNotification(let payload): try out.enumCase("remoteNotification", ("payload", payload))
        case .fetch: out.enumCase("fetch")
        case .location(let event): try out.enumCase("location", ("_0", event))
        case .urlSessionEvents(let session, let tasks, let wakesApp):
            try out.enumCase("urlSessionEvents", ("session", session), ("tasks", tasks), ("wakesApp", wakesApp))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("remoteNotification", "payload", Self.remoteNotification(payload:)),
        WireCase("fetch", .fetch),
        WireCase("location", "_0", Self.location(_:)),
        WireCase("urlSessionEvents", ("session", "tasks", "wakesApp"), Self.urlSessionEvents(session:tasks:wakesApp:)),
    ]
}

extension LocationEvent: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .significantChange: out.enumCase("significantChange")
        case .enteredRegion(let region): try out.enumCase("enteredRegion", ("_0", region))
        case .exitedRegion(let region): try out.enumCase("exitedRegion", ("_0", region))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("significantChange", .significantChange),
        WireCase("enteredRegion", "_0", Self.enteredRegion(_:)),
        WireCase("exitedRegion", "_0", Self.exitedRegion(_:)),
    ]
}

/// What an app's notification delegate is told, on the wire.
extension NotificationPresentation: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .willPresent(let identifier): try out.enumCase("willPresent", ("identifier", identifier))
        case .didReceive(let identifier, let text):
            try out.enumCase("didReceive", ("identifier", identifier), ("text", text))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("willPresent", "identifier", Self.willPresent(identifier:)),
        WireCase("didReceive", ("identifier", "text"), Self.didReceive(identifier:text:)),
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
