import Foundation
import OffstageCore
import OffstageProtocol
import Testing

/// The protocol's own JSON coding (`WireCoded`, used by `Frame`) reads and writes the same JSON
/// as Foundation's `JSONEncoder`/`JSONDecoder`, so clients in other languages see no difference.
@Suite struct WireJSONTests {
    static let request = TaskRequest(
        identifier: "com.a.export.\"quoted\" \\ é 😀\n", kind: .continuedProcessing, earliestBeginDate: 1_795_000_000.5,
        title: "Title\u{1}", subtitle: "")
    static let messages: [ClientMessage] = [
        ClientMessage(id: 1, body: .call(call: .beginBackgroundTask(name: nil), bundle: nil)),
        ClientMessage(id: -2, body: .call(call: .submit(request), bundle: "com.a")),
        ClientMessage(
            id: 3, body: .call(call: .reportProgress(taskID: 4, completed: 10, total: Int64.max), bundle: nil)),
        ClientMessage(id: 4, body: .control(command: .event(event: .setBattery(level: 0.25, charging: true)))),
        ClientMessage(id: 5, body: .control(command: .device(overrides: DeviceOverrides(network: .wifi), reset: true))),
        ClientMessage(id: 6, body: .work(WorkReport(cpuSeconds: 0.5, gpuSeconds: 0, bytes: 2_000_000, seconds: 3))),
    ]

    @Test func framesReadWhatFoundationWritesAndFoundationReadsWhatFramesWrite() throws {
        for message in Self.messages {
            let foundation = try JSONEncoder().encode(Frame.Envelope(version: 1, payload: message))
            let frame = Data([0, 0, UInt8(foundation.count >> 8), UInt8(foundation.count & 0xFF)]) + foundation
            #expect(try Frame.decode(ClientMessage.self, from: frame).0 == message)
            let ours = try Frame.encode(message).dropFirst(4)
            #expect(try JSONDecoder().decode(Frame.Envelope<ClientMessage>.self, from: ours).payload == message)
        }
    }

    @Test func serverMessagesRoundTrip() throws {
        let messages: [ServerMessage] = [
            .result(id: 1, result: .timeRemaining(24.5)), .result(id: 3, result: .pending([Self.request])),
            .effect(effect: .expireBackgroundTasks("com.a", ids: [1, 2])),
            .effect(effect: .askUser("com.a", taskID: 4, question: "Continue?")),
            .error(id: nil, message: "bad"), .reply(id: 2, reply: .ok(message: "fine")),
        ]
        for message in messages {
            #expect(try Frame.decode(ServerMessage.self, from: try Frame.encode(message)).0 == message)
        }
    }

    @Test func nilOptionalsAreLeftOutAsFoundationDoes() throws {
        let frame = try Frame.encode(ClientMessage(id: 1, body: .call(call: .cancelAll, bundle: nil)))
        #expect(
            String(decoding: frame.dropFirst(4), as: UTF8.self)
                == #"{"version":1,"payload":{"id":1,"body":{"call":{"call":{"cancelAll":{}}}}}}"#)
    }

    @Test func deeplyNestedJSONIsRefusedWithoutExhaustingTheStack() throws {
        let body = Data(#"{"version":1,"payload":"#.utf8) + Data(repeating: UInt8(ascii: "["), count: 60_000)
        let frame = Data(withUnsafeBytes(of: UInt32(body.count).bigEndian) { Array($0) }) + body
        #expect(throws: Frame.Failure.self) { try Frame.decode(ClientMessage.self, from: frame) }
    }

    @Test func numbersMustFitTheirTypes() throws {
        for json in [
            #"{"version":1,"payload":{"id":1.5,"body":{"call":{"call":{"cancelAll":{}}}}}}"#,
            #"{"version":1,"payload":{"id":"1","body":{"call":{"call":{"cancelAll":{}}}}}}"#,
        ] {
            let body = Data(json.utf8)
            #expect(throws: Frame.Failure.self) {
                try Frame.decode(ClientMessage.self, from: Data([0, 0, 0, UInt8(body.count)]) + body)
            }
        }
        let whole = Data(#"{"version":1,"payload":{"id":7.0,"body":{"call":{"call":{"cancelAll":{}}}}}}"#.utf8)
        #expect(try Frame.decode(ClientMessage.self, from: Data([0, 0, 0, UInt8(whole.count)]) + whole).0.id == 7)
    }
}
