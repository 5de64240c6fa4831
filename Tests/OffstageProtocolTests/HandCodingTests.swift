import Foundation
import OffstageCore
import Testing

@testable import OffstageProtocol

/// The hand-written coding of the messages (`WireCoded`) through frames and the socket's entry points: members in
/// any order, the forms other coders write, malformed messages, frames split across reads.
@Suite struct HandCodingTests {
    /// Every app call coded by hand (all but the rare ones).
    static let calls: [AppCall] = [
        .register(identifier: "com.a.refresh"), .cancel(identifier: "com.a.\"quoted\" é"), .cancelAll,
        .pendingRequests, .beginBackgroundTask(name: "Export \\ \n 😀"), .beginBackgroundTask(name: nil),
        .endBackgroundTask(-3), .backgroundTimeRemaining, .applicationState, .backgroundRefreshStatus,
        .supportedResources, .setTaskCompleted(taskID: 4, success: false),
        .updateTitle(taskID: 4, title: "Exporting", subtitle: ""),
        .reportProgress(taskID: 4, completed: 10, total: Int64.max), .returned(token: Int.min),
        .simulateLaunch(identifier: "x"), .simulateExpiration(identifier: "y"),
        .backgroundEventCompleted(token: 9, result: .failed),
        .submit(TaskRequest(identifier: "com.a.refresh", kind: .appRefresh)),
        .submit(
            TaskRequest(
                identifier: "com.a.\"db\" é", kind: .continuedProcessing, earliestBeginDate: 1_795_000_000.123456,
                requiresNetworkConnectivity: true, requiresExternalPower: true, title: "Export \n 😀", subtitle: "1/3",
                strategy: .fail, requiresGPU: true, protectionTypeOfRequiredData: "complete")),
    ]

    /// Every form coded by hand: the calls with and without a bundle, a work report, and each answer and effect
    /// an app gets.
    static let clientMessages: [ClientMessage] =
        calls.enumerated().flatMap { index, call in
            [
                ClientMessage(id: index, body: .call(call: call, bundle: nil)),
                ClientMessage(id: -index, body: .call(call: call, bundle: "com.a")),
            ]
        } + [
            ClientMessage(
                id: 99, body: .work(WorkReport(cpuSeconds: 0.5, gpuSeconds: 1e-9, bytes: 2_000_000, seconds: 3)))
        ]

    static let serverMessages: [ServerMessage] =
        [
            AppCallResult.ok, .registered(true), .failed(.notPermitted), .backgroundTask(12),
            .timeRemaining(24.5), .timeRemaining(Double.greatestFiniteMagnitude), .state(.notRunning),
            .refreshStatus(.available), .resources(gpu: true), .crash("more than 1000 \"assertions\""), .notRunning,
        ].enumerated().map { ServerMessage.result(id: $0.offset, result: $0.element) } + [
            .effect(effect: .deliver("com.a", .didEnterBackground, token: 12)),
            .effect(effect: .expireTask("com.a", taskID: 4)),
            .effect(effect: .expireBackgroundTasks("com.a", ids: [1, 2])),
            .effect(effect: .expireBackgroundTasks("com.a", ids: [])),
            .error(id: 7, message: "refused"), .error(id: nil, message: "malformed message: …"),
            .userAction(action: "export"),
        ]

    static func handDecoded<Payload: WireCoded>(_ type: Payload.Type, _ json: String) -> Payload? {
        Array(json.utf8).withUnsafeBufferPointer { try? Frame.decode(type, body: $0) }
    }

    /// The envelope as `WireCoded` writes it.
    static func handCoded(_ message: some WireCoded) throws -> [UInt8] {
        var out: [UInt8] = []
        try Frame.appendEnvelope(message, to: &out)
        return out
    }

    @Test func framesOfHotMessagesRoundTripThroughTheSocketEntryPoints() throws {
        for message in Self.clientMessages {
            var frame: [UInt8] = []
            try Frame.append(message, to: &frame)
            var buffer = FrameBuffer()
            frame.withUnsafeBytes { buffer.append($0) }
            guard case .message(let read) = buffer.next(ClientMessage.self) else {
                Issue.record("\(message) did not come back")
                continue
            }
            #expect(read == message)
        }
    }

    @Test func handDecodingTakesMembersInAnyOrderWithWhiteSpace() {
        let json = """
             { "payload" : { "body" : { "call" : { "bundle" : null , "call" : { "endBackgroundTask" : { "_0" : 3 } } } } ,
            "id" : 9 } , "version" : 1 }\t
            """
        #expect(
            Self.handDecoded(ClientMessage.self, json)
                == ClientMessage(id: 9, body: .call(call: .endBackgroundTask(3), bundle: nil)))
        let deliver =
            #"{"payload":{"effect":{"effect":{"deliver":{"token":5,"_1":"applicationWillTerminate(_:)","_0":"b"}}}},"version":1}"#
        #expect(
            Self.handDecoded(ServerMessage.self, deliver) == .effect(effect: .deliver("b", .willTerminate, token: 5)))
    }

    /// Forms no coder here writes but Foundation's reads (a whole number as `7.0`, a member no type knows, a key
    /// written with escapes): read as Foundation reads them.
    @Test func formsOtherCodersWriteAreReadAsFoundationReadsThem() throws {
        let cases: [(String, ClientMessage)] = [
            (
                #"{"version":1,"payload":{"id":7.0,"body":{"call":{"call":{"cancelAll":{}}}}}}"#,
                ClientMessage(id: 7, body: .call(call: .cancelAll, bundle: nil))
            ),
            (
                #"{"version":1,"extra":true,"payload":{"id":7,"body":{"call":{"call":{"cancelAll":{}}}}}}"#,
                ClientMessage(id: 7, body: .call(call: .cancelAll, bundle: nil))
            ),
            (
                #"{"version":1,"payload":{"id":7,"body":{"call":{"call":{"register":{"identif\u0069er":"a"}}}}}}"#,
                ClientMessage(id: 7, body: .call(call: .register(identifier: "a"), bundle: nil))
            ),
            (
                #"{"version":1,"payload":{"id":7,"body":{"control":{"command":{"status":{}}}}}}"#,
                ClientMessage(id: 7, body: .control(command: .status))
            ),
        ]
        for (json, message) in cases {
            let body = Data(json.utf8)
            let frame = Data(withUnsafeBytes(of: UInt32(body.count).bigEndian) { Array($0) }) + body
            #expect(try Frame.decode(ClientMessage.self, from: frame).0 == message)
        }
        var out: [UInt8] = Array("kept".utf8)
        #expect(throws: Frame.Failure.self) {
            try Frame.append(ServerMessage.result(id: 1, result: .timeRemaining(.infinity)), to: &out)
        }
        #expect(out == Array("kept".utf8), "a message that cannot be written leaves nothing behind")
    }

    /// Malformed hot messages get an error that names the problem.
    @Test func malformedHotMessagesGetAnErrorThatNamesTheProblem() throws {
        func failure(_ json: String) -> Frame.Failure? {
            let body = Data(json.utf8)
            let frame = Data(withUnsafeBytes(of: UInt32(body.count).bigEndian) { Array($0) }) + body
            do {
                _ = try Frame.decode(ClientMessage.self, from: frame)
                return nil
            } catch { return error }
        }
        #expect(
            failure(#"{"version":2,"payload":{"id":1,"body":{"call":{"call":{"cancelAll":{}}}}}}"#) == .wrongVersion(2))
        let truncated = failure(#"{"version":1,"payload":{"id":1,"body":{"call":{"call":{"endBackgroundTask":{"_0":"#)
        #expect(truncated.map { "\($0)".hasPrefix("malformed message") } == true)
        let wrongType = failure(#"{"version":1,"payload":{"id":"1","body":{"call":{"call":{"cancelAll":{}}}}}}"#)
        #expect(wrongType.map { "\($0)".contains("id") } == true, "the error names the field")
        let unknownCall = failure(#"{"version":1,"payload":{"id":1,"body":{"call":{"call":{"fly":{}}}}}}"#)
        #expect(unknownCall.map { "\($0)".hasPrefix("malformed message") } == true)
        let overflow = failure(
            #"{"version":1,"payload":{"id":99999999999999999999,"body":{"call":{"call":{"cancelAll":{}}}}}}"#)
        #expect(overflow.map { "\($0)".hasPrefix("malformed message") } == true)
        #expect(throws: Frame.Failure.self) {
            try Frame.encode(ServerMessage.result(id: 1, result: .timeRemaining(.nan)))
        }
    }

    @Test func framesSplitAcrossReadsOrSharingOneAreEachReadOnce() throws {
        var bytes: [UInt8] = []
        for message in Self.clientMessages { try Frame.append(message, to: &bytes) }
        var buffer = FrameBuffer()
        var read: [ClientMessage] = []
        var offset = 0
        for size in [1, 3, 4, 5, 64, 1000, 7].cycled(until: bytes.count) {
            let end = min(bytes.count, offset + size)
            bytes[offset..<end].withUnsafeBytes { buffer.append($0) }
            offset = end
            while case .message(let message) = buffer.next(ClientMessage.self) { read.append(message) }
            if offset == bytes.count { break }
        }
        #expect(read == Self.clientMessages)
        #expect(!buffer.hasPartialFrame)
    }
}

extension Array {
    /// The elements repeated for as long as their sum may be needed to cover `total`.
    fileprivate func cycled(until total: Int) -> [Element] {
        Array((0..<(total + 1)).lazy.map { self[$0 % count] })
    }
}
