import Foundation
import OffstageCore
import Testing

@testable import OffstageProtocol

/// The messages of every app call (its call, answer, callbacks and expirations) through the socket's entry points:
/// each comes back as it was sent, in any member order, whole or split across reads; malformed ones are refused
/// with an error that names what is wrong. Their bytes are checked in `WireCoderTests`.
@Suite struct AppMessageTests {
    /// The app calls (all but the background-mode calls, which are rare).
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

    /// The calls with and without a bundle, a work report, and each answer and effect an app gets.
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

    /// The message `json` (an envelope) reads as, through a frame; nil if it is refused.
    static func read<Payload: Codable>(_ type: Payload.Type, _ json: String) -> Payload? {
        let body = Data(json.utf8)
        let frame = Data(withUnsafeBytes(of: UInt32(body.count).bigEndian) { Array($0) }) + body
        return try? Frame.decode(type, from: frame).0
    }

    @Test func framesRoundTripThroughTheSocketEntryPoints() throws {
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

    @Test func membersAreReadInAnyOrderWithWhiteSpace() {
        let json = """
             { "payload" : { "body" : { "call" : { "bundle" : null , "call" : { "endBackgroundTask" : { "_0" : 3 } } } } ,
            "id" : 9 } , "version" : 1 }\t
            """
        #expect(
            Self.read(ClientMessage.self, json)
                == ClientMessage(id: 9, body: .call(call: .endBackgroundTask(3), bundle: nil)))
        let deliver =
            #"{"payload":{"effect":{"effect":{"deliver":{"token":5,"_1":"applicationWillTerminate(_:)","_0":"b"}}}},"version":1}"#
        #expect(
            Self.read(ServerMessage.self, deliver) == .effect(effect: .deliver("b", .willTerminate, token: 5)))
    }

    /// Forms other than the one written: a whole number written as `7.0`, a member the message does not have, an
    /// escaped key; and a control command.
    @Test func otherFormsOfAMessageReadTheSame() throws {
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
        for (json, message) in cases { #expect(Self.read(ClientMessage.self, json) == message, "\(json)") }
    }

    /// A malformed message gets an error that names the problem, and a number JSON cannot hold is not written.
    @Test func malformedMessagesGetAnErrorNamingTheProblem() throws {
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
