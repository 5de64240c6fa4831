import OffstageCore

/// The hand-written coding of what the daemon sends apps: the answers to their calls (all but the list of
/// pending requests), errors, taps, and the effects of every call and callback (`deliver`, the expirations).
/// Control replies, task launches and background events go through the general coders.
extension ServerMessage: HandCodable {
    func appendHandCoded(to out: inout [UInt8]) -> Bool {
        appendEnvelope(to: &out) { out in
            switch self {
            case .result(let id, let result):
                out.put(#"{"result":{"id":"#)
                out.put(id)
                out.put(#","result":"#)
                guard result.appendHandCoded(to: &out) else { return false }
                out.put("}}")
            case .error(let id, let message):
                out.put(#"{"error":{"#)
                if let id {
                    out.put(#""id":"#)
                    out.put(id)
                    out.put(",")
                }
                out.put(#""message":"#)
                out.put(string: message)
                out.put("}}")
            case .effect(let effect):
                out.put(#"{"effect":{"effect":"#)
                guard effect.appendHandCoded(to: &out) else { return false }
                out.put("}}")
            case .userAction(let action):
                out.put(#"{"userAction":{"action":"#)
                out.put(string: action)
                out.put("}}")
            case .reply: return false
            }
            return true
        }
    }

    static func handDecoded(from bytes: UnsafeBufferPointer<UInt8>) -> ServerMessage? {
        readEnvelope(bytes) { parser in
            parser.single { parser, key -> ServerMessage? in
                if key == "result" { return readResult(&parser) }
                if key == "effect" {
                    return parser.onlyMember("effect") { Effect.readHandCoded(&$0) }.map { .effect(effect: $0) }
                }
                if key == "error" { return readError(&parser) }
                if key == "userAction" {
                    return parser.onlyMember("action") { $0.text() }.map { .userAction(action: $0) }
                }
                return nil
            }
        }
    }

    private static func readResult(_ parser: inout WireJSON.Parser) -> ServerMessage? {
        var id: Int?
        var result: AppCallResult?
        guard
            parser.members({ parser, key in
                if key == "id" { return HandCoding.once(&id, parser.int()) }
                if key == "result" { return HandCoding.once(&result, AppCallResult.readHandCoded(&parser)) }
                return false
            }), let id, let result
        else { return nil }
        return .result(id: id, result: result)
    }

    private static func readError(_ parser: inout WireJSON.Parser) -> ServerMessage? {
        var id: Int?
        var idSeen = false
        var message: String?
        guard
            parser.members({ parser, key in
                if key == "id" { return HandCoding.onceOrNull(&id, &idSeen, &parser) { $0.int() } }
                if key == "message" { return HandCoding.once(&message, parser.text()) }
                return false
            }), let message
        else { return nil }
        return .error(id: id, message: message)
    }
}

extension AppCallResult {
    /// Appends the answer as Swift's synthesized coding writes it; false (nothing written) for `pending`.
    func appendHandCoded(to out: inout [UInt8]) -> Bool {
        switch self {
        case .ok: out.put(#"{"ok":{}}"#)
        case .registered(let registered):
            out.put(#"{"registered":{"_0":"#)
            out.put(registered)
            out.put("}}")
        case .failed(let code):
            out.put(#"{"failed":{"_0":"#)
            out.put(code.rawValue)
            out.put("}}")
        case .backgroundTask(let number):
            out.put(#"{"backgroundTask":{"_0":"#)
            out.put(number)
            out.put("}}")
        case .timeRemaining(let seconds):
            let mark = out.count
            out.put(#"{"timeRemaining":{"_0":"#)
            guard out.put(seconds) else {
                out.removeSubrange(mark...)
                return false
            }
            out.put("}}")
        case .state(let state):
            out.put(#"{"state":{"_0":"#)
            out.put(string: state.rawValue)
            out.put("}}")
        case .refreshStatus(let status):
            out.put(#"{"refreshStatus":{"_0":"#)
            out.put(status.rawValue)
            out.put("}}")
        case .resources(let gpu):
            out.put(#"{"resources":{"gpu":"#)
            out.put(gpu)
            out.put("}}")
        case .crash(let message):
            out.put(#"{"crash":{"_0":"#)
            out.put(string: message)
            out.put("}}")
        case .notRunning: out.put(#"{"notRunning":{}}"#)
        default: return false
        }
        return true
    }

    /// Reads an answer written in one of the forms `appendHandCoded` writes.
    static func readHandCoded(_ parser: inout WireJSON.Parser) -> AppCallResult? {
        parser.single { parser, key -> AppCallResult? in
            if key == "ok" { return parser.emptyObject() ? .ok : nil }
            if key == "backgroundTask" { return parser.onlyMember("_0") { $0.int() }.map { .backgroundTask($0) } }
            if key == "registered" { return parser.onlyMember("_0") { $0.bool() }.map { .registered($0) } }
            if key == "failed" {
                return parser.onlyMember("_0") { $0.int().flatMap(TaskSchedulerErrorCode.init(rawValue:)) }
                    .map { .failed($0) }
            }
            if key == "timeRemaining" { return parser.onlyMember("_0") { $0.double() }.map { .timeRemaining($0) } }
            if key == "state" {
                return parser.onlyMember("_0") { $0.text().flatMap(AppState.init(rawValue:)) }.map { .state($0) }
            }
            if key == "refreshStatus" {
                return parser.onlyMember("_0") { $0.int().flatMap(BackgroundRefreshStatus.init(rawValue:)) }
                    .map { .refreshStatus($0) }
            }
            if key == "resources" { return parser.onlyMember("gpu") { $0.bool() }.map { .resources(gpu: $0) } }
            if key == "crash" { return parser.onlyMember("_0") { $0.text() }.map { .crash($0) } }
            if key == "notRunning" { return parser.emptyObject() ? .notRunning : nil }
            return nil
        }
    }
}

extension Effect {
    /// Appends the effects an app receives most (callbacks, expirations); false (nothing written) for others.
    func appendHandCoded(to out: inout [UInt8]) -> Bool {
        switch self {
        case .deliver(let app, let callback, let token):
            out.put(#"{"deliver":{"_0":"#)
            out.put(string: app.rawValue)
            out.put(#","_1":"#)
            out.put(string: callback.rawValue)
            out.put(#","token":"#)
            out.put(token)
            out.put("}}")
        case .expireTask(let app, let taskID):
            out.put(#"{"expireTask":{"_0":"#)
            out.put(string: app.rawValue)
            out.put(#","taskID":"#)
            out.put(taskID)
            out.put("}}")
        case .expireBackgroundTasks(let app, let ids):
            out.put(#"{"expireBackgroundTasks":{"_0":"#)
            out.put(string: app.rawValue)
            out.put(#","ids":["#)
            for (index, id) in ids.enumerated() {
                if index > 0 { out.put(",") }
                out.put(id)
            }
            out.put("]}}")
        default: return false
        }
        return true
    }

    /// Reads an effect written in one of the forms `appendHandCoded` writes.
    static func readHandCoded(_ parser: inout WireJSON.Parser) -> Effect? {
        parser.single { parser, key -> Effect? in
            if key == "deliver" { return readDeliver(&parser) }
            if key == "expireTask" { return readExpireTask(&parser) }
            if key == "expireBackgroundTasks" { return readExpireBackgroundTasks(&parser) }
            return nil
        }
    }

    private static func readDeliver(_ parser: inout WireJSON.Parser) -> Effect? {
        var app: String?
        var callback: LifecycleCallback?
        var token: Int?
        guard
            parser.members({ parser, key in
                if key == "_0" { return HandCoding.once(&app, parser.text()) }
                if key == "_1" {
                    return HandCoding.once(&callback, parser.text().flatMap(LifecycleCallback.init(rawValue:)))
                }
                if key == "token" { return HandCoding.once(&token, parser.int()) }
                return false
            }), let app, let callback, let token
        else { return nil }
        return .deliver(BundleID(rawValue: app), callback, token: token)
    }

    private static func readExpireTask(_ parser: inout WireJSON.Parser) -> Effect? {
        var app: String?
        var taskID: Int?
        guard
            parser.members({ parser, key in
                if key == "_0" { return HandCoding.once(&app, parser.text()) }
                if key == "taskID" { return HandCoding.once(&taskID, parser.int()) }
                return false
            }), let app, let taskID
        else { return nil }
        return .expireTask(BundleID(rawValue: app), taskID: taskID)
    }

    private static func readExpireBackgroundTasks(_ parser: inout WireJSON.Parser) -> Effect? {
        var app: String?
        var ids: [Int]?
        guard
            parser.members({ parser, key in
                if key == "_0" { return HandCoding.once(&app, parser.text()) }
                if key == "ids" { return HandCoding.once(&ids, parser.intArray()) }
                return false
            }), let app, let ids
        else { return nil }
        return .expireBackgroundTasks(BundleID(rawValue: app), ids: ids)
    }
}
