package import OffstageCore

/// The system's effects on the wire (what an app is told to run), the frequent ones first.
extension Effect: WireEnum {
    package func write(to out: inout [UInt8]) throws(WireError) {
        switch self {
        case .deliver(let app, let callback, let token):
            try out.enumCase("deliver", ("_0", app), ("_1", callback), ("token", token))
        case .expireTask(let app, let taskID): try out.enumCase("expireTask", ("_0", app), ("taskID", taskID))
        case .expireBackgroundTasks(let app, let ids):
            try out.enumCase("expireBackgroundTasks", ("_0", app), ("ids", ids))
        case .startTask(let app, let run): try out.enumCase("startTask", ("_0", app), ("_1", run))
        case .suspend(let app): try out.enumCase("suspend", ("_0", app))
        case .resume(let app): try out.enumCase("resume", ("_0", app))
        case .launch(let app, let reason): try out.enumCase("launch", ("_0", app), ("_1", reason))
        case .terminate(let app, let reason): try out.enumCase("terminate", ("_0", app), ("_1", reason))
        case .record(let record): try out.enumCase("record", ("_0", record))
        case .askUser(let app, let taskID, let question):
            try out.enumCase("askUser", ("_0", app), ("taskID", taskID), ("question", question))
        case .setCPUPriority(let app, let priority): try out.enumCase("setCPUPriority", ("_0", app), ("_1", priority))
        case .deliverBackgroundEvent(let app, let event, let token):
            try out.enumCase("deliverBackgroundEvent", ("_0", app), ("_1", event), ("token", token))
        case .presentNotification(let app, let presentation):
            try out.enumCase("presentNotification", ("_0", app), ("_1", presentation))
        }
    }

    package static let wireCases: [WireCase<Self>] = [
        WireCase("deliver", ("_0", "_1", "token"), Self.deliver(_:_:token:)),
        WireCase("expireTask", ("_0", "taskID"), Self.expireTask(_:taskID:)),
        WireCase("expireBackgroundTasks", ("_0", "ids"), Self.expireBackgroundTasks(_:ids:)),
        WireCase("startTask", ("_0", "_1"), Self.startTask(_:_:)),
        WireCase("suspend", "_0", Self.suspend(_:)),
        WireCase("resume", "_0", Self.resume(_:)),
        WireCase("launch", ("_0", "_1"), Self.launch(_:_:)),
        WireCase("terminate", ("_0", "_1"), Self.terminate(_:_:)),
        WireCase("record", "_0", Self.record(_:)),
        WireCase("askUser", ("_0", "taskID", "question"), Self.askUser(_:taskID:question:)),
        WireCase("setCPUPriority", ("_0", "_1"), Self.setCPUPriority(_:_:)),
        WireCase("deliverBackgroundEvent", ("_0", "_1", "token"), Self.deliverBackgroundEvent(_:_:token:)),
        WireCase("presentNotification", ("_0", "_1"), Self.presentNotification(_:_:)),
    ]
}

/// A run the app is told to start: its members in the order the core declares them, a time not set left out.
extension TaskRun: WireCoded {
    package func write(to out: inout [UInt8]) throws(WireError) {
        try out.object { members throws(WireError) in
            try members.field("id", id)
            try members.field("app", app)
            try members.field("request", request)
            try members.field("startedAt", startedAt)
            try members.field("expiresAt", expiresAt)
            try members.field("expiredAt", expiredAt)
            try members.field("delivered", delivered)
            try members.field("progressCompleted", progressCompleted)
            try members.field("progressTotal", progressTotal)
        }
    }

    package init(reading reader: inout WireReader) throws(WireError) {
        var id: Int?
        var app: BundleID?
        var request: TaskRequest?
        var startedAt: Instant?
        var expiresAt: Instant??
        var expiredAt: Instant??
        var delivered: Bool?
        var completed: Int64?
        var total: Int64?
        try reader.members { reader, key throws(WireError) in
            switch key {
            case "id": try reader.once(&id, "id")
            case "app": try reader.once(&app, "app")
            case "request": try reader.once(&request, "request")
            case "startedAt": try reader.once(&startedAt, "startedAt")
            case "expiresAt": try reader.once(&expiresAt, "expiresAt")
            case "expiredAt": try reader.once(&expiredAt, "expiredAt")
            case "delivered": try reader.once(&delivered, "delivered")
            case "progressCompleted": try reader.once(&completed, "progressCompleted")
            case "progressTotal": try reader.once(&total, "progressTotal")
            default: return false
            }
            return true
        }
        self.init(
            id: try WireReader.required(id, "id"), app: try WireReader.required(app, "app"),
            request: try WireReader.required(request, "request"),
            startedAt: try WireReader.required(startedAt, "startedAt"),
            expiresAt: try WireReader.required(expiresAt, "expiresAt"),
            expiredAt: try WireReader.required(expiredAt, "expiredAt"),
            delivered: try WireReader.required(delivered, "delivered"),
            progressCompleted: try WireReader.required(completed, "progressCompleted"),
            progressTotal: try WireReader.required(total, "progressTotal"))
    }
}

extension LaunchReason: WireCoded {}
extension CPUPriority: WireCoded {}
