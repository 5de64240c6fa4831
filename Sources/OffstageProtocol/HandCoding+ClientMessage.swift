import OffstageCore

/// The hand-written coding of what apps send: their calls (all but the background-mode calls, which are rare)
/// and their work reports. Control commands go through the general coders.
extension ClientMessage: HandCodable {
    func appendHandCoded(to out: inout [UInt8]) -> Bool {
        appendEnvelope(to: &out) { out in
            out.put(#"{"id":"#)
            out.put(id)
            out.put(#","body":"#)
            switch body {
            case .call(let call, let bundle):
                out.put(#"{"call":{"call":"#)
                guard call.appendHandCoded(to: &out) else { return false }
                if let bundle {
                    out.put(#","bundle":"#)
                    out.put(string: bundle.rawValue)
                }
                out.put("}}")
            case .work(let report):
                out.put(#"{"work":{"_0":{"cpuSeconds":"#)
                guard out.put(report.cpuSeconds) else { return false }
                out.put(#","gpuSeconds":"#)
                guard out.put(report.gpuSeconds) else { return false }
                out.put(#","bytes":"#)
                out.put(report.bytes)
                out.put(#","seconds":"#)
                guard out.put(report.seconds) else { return false }
                out.put("}}}")
            case .control: return false
            }
            out.put("}")
            return true
        }
    }

    static func handDecoded(from bytes: UnsafeBufferPointer<UInt8>) -> ClientMessage? {
        readEnvelope(bytes) { parser in
            var id: Int?
            var body: Body?
            guard
                parser.members({ parser, key in
                    if key == "id" { return HandCoding.once(&id, parser.int()) }
                    if key == "body" { return HandCoding.once(&body, Body.readHandCoded(&parser)) }
                    return false
                }), let id, let body
            else { return nil }
            return ClientMessage(id: id, body: body)
        }
    }
}

extension ClientMessage.Body {
    /// `{"call": {"call": CALL, "bundle": …}}` or `{"work": {"_0": REPORT}}`.
    static func readHandCoded(_ parser: inout WireJSON.Parser) -> Self? {
        parser.single { parser, key in
            if key == "call" {
                var call: AppCall?
                var bundle: BundleID?
                var bundleSeen = false
                guard
                    parser.members({ parser, key in
                        if key == "call" { return HandCoding.once(&call, AppCall.readHandCoded(&parser)) }
                        if key == "bundle" {
                            return HandCoding.onceOrNull(&bundle, &bundleSeen, &parser) {
                                $0.text().map(BundleID.init(rawValue:))
                            }
                        }
                        return false
                    }), let call
                else { return nil }
                return .call(call: call, bundle: bundle)
            }
            if key == "work" {
                return parser.onlyMember("_0") { parser in WorkReport.readHandCoded(&parser) }.map { .work($0) }
            }
            return nil
        }
    }
}

extension WorkReport {
    static func readHandCoded(_ parser: inout WireJSON.Parser) -> WorkReport? {
        var cpu: Double?
        var gpu: Double?
        var bytes: Int?
        var seconds: Double?
        guard
            parser.members({ parser, key in
                if key == "cpuSeconds" { return HandCoding.once(&cpu, parser.double()) }
                if key == "gpuSeconds" { return HandCoding.once(&gpu, parser.double()) }
                if key == "bytes" { return HandCoding.once(&bytes, parser.int()) }
                if key == "seconds" { return HandCoding.once(&seconds, parser.double()) }
                return false
            }), let cpu, let gpu, let bytes, let seconds
        else { return nil }
        return WorkReport(cpuSeconds: cpu, gpuSeconds: gpu, bytes: bytes, seconds: seconds)
    }
}

extension AppCall {
    /// Appends the call as Swift's synthesized coding writes it; false (nothing written) for calls not coded by hand.
    func appendHandCoded(to out: inout [UInt8]) -> Bool {
        switch self {
        case .register(let identifier):
            out.put(#"{"register":{"identifier":"#)
            out.put(string: identifier)
            out.put("}}")
        case .cancel(let identifier):
            out.put(#"{"cancel":{"identifier":"#)
            out.put(string: identifier)
            out.put("}}")
        case .cancelAll: out.put(#"{"cancelAll":{}}"#)
        case .pendingRequests: out.put(#"{"pendingRequests":{}}"#)
        case .beginBackgroundTask(let name):
            out.put(#"{"beginBackgroundTask":{"#)
            if let name {
                out.put(#""name":"#)
                out.put(string: name)
            }
            out.put("}}")
        case .endBackgroundTask(let number):
            out.put(#"{"endBackgroundTask":{"_0":"#)
            out.put(number)
            out.put("}}")
        case .backgroundTimeRemaining: out.put(#"{"backgroundTimeRemaining":{}}"#)
        case .applicationState: out.put(#"{"applicationState":{}}"#)
        case .backgroundRefreshStatus: out.put(#"{"backgroundRefreshStatus":{}}"#)
        case .supportedResources: out.put(#"{"supportedResources":{}}"#)
        case .setTaskCompleted(let taskID, let success):
            out.put(#"{"setTaskCompleted":{"taskID":"#)
            out.put(taskID)
            out.put(#","success":"#)
            out.put(success)
            out.put("}}")
        case .updateTitle(let taskID, let title, let subtitle):
            out.put(#"{"updateTitle":{"taskID":"#)
            out.put(taskID)
            out.put(#","title":"#)
            out.put(string: title)
            out.put(#","subtitle":"#)
            out.put(string: subtitle)
            out.put("}}")
        case .reportProgress(let taskID, let completed, let total):
            out.put(#"{"reportProgress":{"taskID":"#)
            out.put(taskID)
            out.put(#","completed":"#)
            out.put(Int(completed))
            out.put(#","total":"#)
            out.put(Int(total))
            out.put("}}")
        case .returned(let token):
            out.put(#"{"returned":{"token":"#)
            out.put(token)
            out.put("}}")
        case .simulateLaunch(let identifier):
            out.put(#"{"simulateLaunch":{"identifier":"#)
            out.put(string: identifier)
            out.put("}}")
        case .simulateExpiration(let identifier):
            out.put(#"{"simulateExpiration":{"identifier":"#)
            out.put(string: identifier)
            out.put("}}")
        case .submit(let request):
            out.put(#"{"submit":{"_0":"#)
            guard request.appendHandCoded(to: &out) else { return false }
            out.put("}}")
        case .backgroundEventCompleted(let token, let result):
            out.put(#"{"backgroundEventCompleted":{"token":"#)
            out.put(token)
            out.put(#","result":"#)
            out.put(result.rawValue)
            out.put("}}")
        default: return false
        }
        return true
    }

    /// Reads a call written in one of the forms `appendHandCoded` writes (members in any order).
    static func readHandCoded(_ parser: inout WireJSON.Parser) -> AppCall? {
        parser.single { parser, key -> AppCall? in
            if key == "returned" { return parser.onlyMember("token") { $0.int() }.map { .returned(token: $0) } }
            if key == "beginBackgroundTask" {
                var name: String?
                var seen = false
                guard
                    parser.members({ parser, key in
                        guard key == "name" else { return false }
                        return HandCoding.onceOrNull(&name, &seen, &parser) { $0.text() }
                    })
                else { return nil }
                return .beginBackgroundTask(name: name)
            }
            if key == "endBackgroundTask" { return parser.onlyMember("_0") { $0.int() }.map { .endBackgroundTask($0) } }
            if key == "backgroundTimeRemaining" { return parser.emptyObject() ? .backgroundTimeRemaining : nil }
            if key == "applicationState" { return parser.emptyObject() ? .applicationState : nil }
            if key == "backgroundRefreshStatus" { return parser.emptyObject() ? .backgroundRefreshStatus : nil }
            if key == "supportedResources" { return parser.emptyObject() ? .supportedResources : nil }
            if key == "cancelAll" { return parser.emptyObject() ? .cancelAll : nil }
            if key == "pendingRequests" { return parser.emptyObject() ? .pendingRequests : nil }
            if key == "register" {
                return parser.onlyMember("identifier") { $0.text() }.map { .register(identifier: $0) }
            }
            if key == "cancel" { return parser.onlyMember("identifier") { $0.text() }.map { .cancel(identifier: $0) } }
            if key == "simulateLaunch" {
                return parser.onlyMember("identifier") { $0.text() }.map { .simulateLaunch(identifier: $0) }
            }
            if key == "simulateExpiration" {
                return parser.onlyMember("identifier") { $0.text() }.map { .simulateExpiration(identifier: $0) }
            }
            if key == "submit" { return parser.onlyMember("_0") { TaskRequest.readHandCoded(&$0) }.map { .submit($0) } }
            if key == "setTaskCompleted" { return readSetTaskCompleted(&parser) }
            if key == "updateTitle" { return readUpdateTitle(&parser) }
            if key == "reportProgress" { return readReportProgress(&parser) }
            if key == "backgroundEventCompleted" { return readBackgroundEventCompleted(&parser) }
            return nil
        }
    }

    private static func readSetTaskCompleted(_ parser: inout WireJSON.Parser) -> AppCall? {
        var taskID: Int?
        var success: Bool?
        guard
            parser.members({ parser, key in
                if key == "taskID" { return HandCoding.once(&taskID, parser.int()) }
                if key == "success" { return HandCoding.once(&success, parser.bool()) }
                return false
            }), let taskID, let success
        else { return nil }
        return .setTaskCompleted(taskID: taskID, success: success)
    }

    private static func readUpdateTitle(_ parser: inout WireJSON.Parser) -> AppCall? {
        var taskID: Int?
        var title: String?
        var subtitle: String?
        guard
            parser.members({ parser, key in
                if key == "taskID" { return HandCoding.once(&taskID, parser.int()) }
                if key == "title" { return HandCoding.once(&title, parser.text()) }
                if key == "subtitle" { return HandCoding.once(&subtitle, parser.text()) }
                return false
            }), let taskID, let title, let subtitle
        else { return nil }
        return .updateTitle(taskID: taskID, title: title, subtitle: subtitle)
    }

    private static func readReportProgress(_ parser: inout WireJSON.Parser) -> AppCall? {
        var taskID: Int?
        var completed: Int?
        var total: Int?
        guard
            parser.members({ parser, key in
                if key == "taskID" { return HandCoding.once(&taskID, parser.int()) }
                if key == "completed" { return HandCoding.once(&completed, parser.int()) }
                if key == "total" { return HandCoding.once(&total, parser.int()) }
                return false
            }), let taskID, let completed, let total
        else { return nil }
        return .reportProgress(taskID: taskID, completed: Int64(completed), total: Int64(total))
    }

    private static func readBackgroundEventCompleted(_ parser: inout WireJSON.Parser) -> AppCall? {
        var token: Int?
        var result: BackgroundFetchResult?
        guard
            parser.members({ parser, key in
                if key == "token" { return HandCoding.once(&token, parser.int()) }
                if key == "result" {
                    return HandCoding.once(&result, parser.int().flatMap(BackgroundFetchResult.init(rawValue:)))
                }
                return false
            }), let token, let result
        else { return nil }
        return .backgroundEventCompleted(token: token, result: result)
    }
}

extension TaskRequest {
    /// Appends the request as Swift's synthesized coding writes it (members in declaration order, the nil ones
    /// left out); false for a date that is not a finite number, which the general coder then refuses.
    func appendHandCoded(to out: inout [UInt8]) -> Bool {
        out.put(#"{"identifier":"#)
        out.put(string: identifier)
        out.put(#","kind":"#)
        out.put(string: kind.rawValue)
        if let earliestBeginDate {
            out.put(#","earliestBeginDate":"#)
            guard out.put(earliestBeginDate) else { return false }
        }
        out.put(#","requiresNetworkConnectivity":"#)
        out.put(requiresNetworkConnectivity)
        out.put(#","requiresExternalPower":"#)
        out.put(requiresExternalPower)
        out.put(#","title":"#)
        out.put(string: title)
        out.put(#","subtitle":"#)
        out.put(string: subtitle)
        out.put(#","strategy":"#)
        out.put(string: strategy.rawValue)
        out.put(#","requiresGPU":"#)
        out.put(requiresGPU)
        if let protectionTypeOfRequiredData {
            out.put(#","protectionTypeOfRequiredData":"#)
            out.put(string: protectionTypeOfRequiredData)
        }
        out.put("}")
        return true
    }

    /// Reads a request written as `appendHandCoded` writes it (members in any order, a nil one left out or null);
    /// nil for anything else, which the general coder then reads (a submit is the hot call that writes the store).
    static func readHandCoded(_ parser: inout WireJSON.Parser) -> TaskRequest? {
        var identifier: String?
        var kind: TaskKind?
        var earliest: Double?
        var earliestSeen = false
        var network: Bool?
        var power: Bool?
        var title: String?
        var subtitle: String?
        var strategy: SubmissionStrategy?
        var gpu: Bool?
        var protection: String?
        var protectionSeen = false
        guard
            parser.members({ parser, key in
                if key == "identifier" { return HandCoding.once(&identifier, parser.text()) }
                if key == "kind" { return HandCoding.once(&kind, parser.text().flatMap(TaskKind.init(rawValue:))) }
                if key == "earliestBeginDate" {
                    return HandCoding.onceOrNull(&earliest, &earliestSeen, &parser) { $0.double() }
                }
                if key == "requiresNetworkConnectivity" { return HandCoding.once(&network, parser.bool()) }
                if key == "requiresExternalPower" { return HandCoding.once(&power, parser.bool()) }
                if key == "title" { return HandCoding.once(&title, parser.text()) }
                if key == "subtitle" { return HandCoding.once(&subtitle, parser.text()) }
                if key == "strategy" {
                    return HandCoding.once(&strategy, parser.text().flatMap(SubmissionStrategy.init(rawValue:)))
                }
                if key == "requiresGPU" { return HandCoding.once(&gpu, parser.bool()) }
                if key == "protectionTypeOfRequiredData" {
                    return HandCoding.onceOrNull(&protection, &protectionSeen, &parser) { $0.text() }
                }
                return false
            }), let identifier, let kind, let network, let power, let title, let subtitle, let strategy, let gpu
        else { return nil }
        return TaskRequest(
            identifier: identifier, kind: kind, earliestBeginDate: earliest, requiresNetworkConnectivity: network,
            requiresExternalPower: power, title: title, subtitle: subtitle, strategy: strategy, requiresGPU: gpu,
            protectionTypeOfRequiredData: protection)
    }
}
