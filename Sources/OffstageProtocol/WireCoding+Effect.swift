package import OffstageCore

/// The system's effects on the wire (what an app is told to run), the frequent ones first.
extension Effect: WireEnum {
    package static let wireCases: [WireCase<Self>] = [
        WireCase("deliver", ("_0", "_1", "token"), Self.deliver(_:_:token:)) {
            if case .deliver(let app, let callback, let token) = $0 { (app, callback, token) } else { nil }
        },
        WireCase("expireTask", ("_0", "taskID"), Self.expireTask(_:taskID:)) {
            if case .expireTask(let app, let taskID) = $0 { (app, taskID) } else { nil }
        },
        WireCase("expireBackgroundTasks", ("_0", "ids"), Self.expireBackgroundTasks(_:ids:)) {
            if case .expireBackgroundTasks(let app, let ids) = $0 { (app, ids) } else { nil }
        },
        WireCase("startTask", ("_0", "_1"), Self.startTask(_:_:)) {
            if case .startTask(let app, let run) = $0 { (app, run) } else { nil }
        },
        WireCase("suspend", "_0", Self.suspend(_:)) { if case .suspend(let app) = $0 { app } else { nil } },
        WireCase("resume", "_0", Self.resume(_:)) { if case .resume(let app) = $0 { app } else { nil } },
        WireCase("launch", ("_0", "_1"), Self.launch(_:_:)) {
            if case .launch(let app, let reason) = $0 { (app, reason) } else { nil }
        },
        WireCase("terminate", ("_0", "_1"), Self.terminate(_:_:)) {
            if case .terminate(let app, let reason) = $0 { (app, reason) } else { nil }
        },
        WireCase("record", "_0", Self.record(_:)) { if case .record(let record) = $0 { record } else { nil } },
        WireCase("askUser", ("_0", "taskID", "question"), Self.askUser(_:taskID:question:)) {
            if case .askUser(let app, let taskID, let question) = $0 { (app, taskID, question) } else { nil }
        },
        WireCase("setCPUPriority", ("_0", "_1"), Self.setCPUPriority(_:_:)) {
            if case .setCPUPriority(let app, let priority) = $0 { (app, priority) } else { nil }
        },
        WireCase("deliverBackgroundEvent", ("_0", "_1", "token"), Self.deliverBackgroundEvent(_:_:token:)) {
            if case .deliverBackgroundEvent(let app, let event, let token) = $0 { (app, event, token) } else { nil }
        },
        WireCase("presentNotification", ("_0", "_1"), Self.presentNotification(_:_:)) {
            if case .presentNotification(let app, let presentation) = $0 { (app, presentation) } else { nil }
        },
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
