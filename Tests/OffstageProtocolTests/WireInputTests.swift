import Foundation
import OffstageCore
import Testing

@testable import OffstageProtocol

/// Every kind of message the protocol carries comes back from a frame as it went in, and what a peer may send
/// wrong (truncated, wrong types, deep nesting, huge numbers, bad UTF-8, a key twice, any byte changed) is refused
/// with an error that says what is wrong: never a trap, never a message made up from a repaired input.
@Suite struct WireInputTests {
    /// Every control command, and the rarer app calls.
    static let clientMessages: [ClientMessage] =
        [
            ControlCommand.install(path: "/apps/A.app"), .event(event: .open("com.a")),
            .event(event: .setBattery(level: 0.25, charging: true)), .tap(bundle: "com.a", action: "export"),
            .device(
                overrides: DeviceOverrides(batteryLevel: 0.5, network: .cellular, memoryPressureBytes: 9), reset: true),
            .apps, .tasks, .why(bundle: "com.a", limit: 20), .why(bundle: nil, limit: 1), .status, .progress,
        ].enumerated().map { ClientMessage(id: $0.offset, body: .control(command: $0.element)) } + [
            ClientMessage(id: 20, body: .call(call: .beginExpiringActivity(reason: "save"), bundle: nil)),
            ClientMessage(id: 21, body: .call(call: .setMinimumBackgroundFetchInterval(nil), bundle: "com.a")),
            ClientMessage(
                id: 22, body: .call(call: .removePendingNotifications(identifiers: ["a", "b"]), bundle: nil)),
        ]

    /// Every control reply, and the rarer effects.
    static let serverMessages: [ServerMessage] = [
        .reply(id: 1, reply: .ok(message: "installed com.a")),
        .reply(
            id: 2,
            reply: .apps(apps: [
                AppInfo(
                    bundle: "com.a", path: "/apps/A.app", state: .background, pid: 42, frozen: true, forceQuit: false,
                    cpuSeconds: 1.5, memoryBytes: 1 << 20, usageTier: "active", launches: 3, cooperation: 0.75,
                    energyJoules: 12),
                AppInfo(
                    bundle: "com.b", path: "/apps/B.app", state: .notRunning, pid: nil, frozen: nil, forceQuit: true,
                    cpuSeconds: 0, memoryBytes: 0),
            ])),
        .reply(
            id: 3,
            reply: .tasks(tasks: [
                TaskInfo(
                    bundle: "com.a", identifier: "com.a.refresh", kind: .appRefresh, phase: "pending",
                    waitingFor: ["network", "power"], title: "", subtitle: "", progressCompleted: 0, progressTotal: 0,
                    expired: false)
            ])),
        .reply(
            id: 4,
            reply: .records(records: [
                LoggedRecord(
                    time: "2026-11-28T18:00:00Z",
                    record: Record(
                        at: Instant(seconds: 3.5), app: "com.a", kind: .launched, reason: "a refresh \"due\""))
            ])),
        .reply(
            id: 5,
            reply: .status(
                status: DaemonStatus(
                    pid: 7, protocolVersion: 1, uptimeSeconds: 12.5, freezer: "SIGSTOP", socket: "/run/o.sock",
                    stateDirectory: "/var/lib/o", device: DeviceState(), overrides: DeviceOverrides(charging: true),
                    settings: UserSettings(), loadAverage: 0.5, memoryPressure: nil, installedApps: 2, runningApps: 1,
                    nextDueIn: 30,
                    lastFreezerAction: FreezerAction(
                        app: "com.a", frozen: true, decidedAt: 1, writingAt: 2, writtenAt: UInt64.max)))),
        .reply(id: 6, reply: .progress(tasks: [])),
        .result(id: 7, result: .pending([TaskRequest(identifier: "com.a.refresh", kind: .appRefresh)])),
        .effect(effect: .suspend("com.a")), .effect(effect: .askUser("com.a", taskID: 4, question: "Continue?")),
    ]

    /// A frame holding `body` as its JSON.
    static func frame(_ body: [UInt8]) -> Data {
        Data(withUnsafeBytes(of: UInt32(body.count).bigEndian) { Array($0) } + body)
    }

    /// Why a frame of `body` is refused as a `Payload` (nil: it was read).
    static func failure<Payload: WireCoded>(_ type: Payload.Type, _ body: [UInt8]) -> Frame.Failure? {
        do {
            _ = try Frame.decode(type, from: frame(body))
            return nil
        } catch { return error }
    }

    /// A client message's JSON with `payload` in the envelope.
    static func envelope(_ payload: String) -> [UInt8] { Array(#"{"version":1,"payload":\#(payload)}"#.utf8) }

    /// The JSON body of `message`'s frame.
    static func body<Payload: WireCoded>(_ message: Payload) throws -> [UInt8] {
        Array(try Frame.encode(message).dropFirst(4))
    }

    @Test func everyMessageKindRoundTripsThroughAFrame() throws {
        for message in Self.clientMessages + HandCodingTests.clientMessages {
            #expect(try Frame.decode(ClientMessage.self, from: try Frame.encode(message)).0 == message)
        }
        for message in Self.serverMessages + HandCodingTests.serverMessages {
            #expect(try Frame.decode(ServerMessage.self, from: try Frame.encode(message)).0 == message)
        }
    }

    @Test func malformedInputsGetAnErrorThatNamesWhatIsWrong() {
        let cases: [(json: [UInt8], says: String)] = [
            (
                Self.envelope(#"{"id":"1","body":{"call":{"call":{"cancelAll":{}}}}}"#),
                "at payload.id: expected a whole number, found a string"
            ),
            (
                Self.envelope(#"{"id":null,"body":{"call":{"call":{"cancelAll":{}}}}}"#),
                "at payload.id: expected a whole number, found null"
            ),
            (
                Self.envelope(#"{"id":1,"body":{"call":{"call":{"endBackgroundTask":{"_0":true}}}}}"#),
                "at payload.body.call.call.endBackgroundTask._0: expected a whole number, found a boolean"
            ),
            (
                Self.envelope(
                    #"{"id":1,"body":{"work":{"_0":{"cpuSeconds":1e400,"gpuSeconds":0,"bytes":1,"seconds":1}}}}"#),
                "the number 1e400 is beyond what a 64-bit float holds"
            ),
            (Self.envelope(#"{"id":99999999999999999999,"body":{"call":{"call":{"cancelAll":{}}}}}"#), "does not fit"),
            (
                Self.envelope(#"{"id":1,"id":2,"body":{"call":{"call":{"cancelAll":{}}}}}"#),
                #"the key "id" appears twice in one object"#
            ),
            (
                Array(#"{"version":1,"version":1,"payload":{"id":1,"body":{"call":{"call":{"cancelAll":{}}}}}}"#.utf8),
                #"the key "version" appears twice"#
            ),
            (
                Self.envelope(String(repeating: #"{"a":"#, count: 200) + "1" + String(repeating: "}", count: 200)),
                "nested deeper than 128"
            ),
            (
                Self.envelope(
                    #"{"id":1,"body":{"call":{"call":{"removePendingNotifications":{"identifiers":["a",1]}}}}}"#),
                "at payload.body.call.call.removePendingNotifications.identifiers[1]: expected a string, found the number 1"
            ),
            (
                Self.envelope(#"{"id":1,"body":{"call":{"call":{"register":{"identif\u0069":"a"}}}}}"#),
                #"at payload.body.call.call.register: no member "identifier""#
            ),
            (
                Self.envelope(#"{"id":1,"body":{"call":{"call":{"fly":{}}}}}"#),
                #"at payload.body.call.call: "fly" is not a case of AppCall"#
            ),
            (Array(#"{"version":1,"payload":{"id":1,"body":{"call":{"call":{"cancelAll":"#.utf8), "unexpected end"),
        ]
        for (json, says) in cases {
            let failure = Self.failure(ClientMessage.self, json)
            #expect(
                failure.map { "\($0)".contains(says) } == true,
                "\(String(decoding: json, as: UTF8.self)): \(failure.map { "\($0)" } ?? "read") should say \(says)")
        }
    }

    /// A string (a key or a value) holding bytes that are not UTF-8 is refused, not repaired into another text.
    @Test func bytesThatAreNotUTF8AreRefusedInKeysAsInValues() {
        for json in [
            #"{"id":1,"body":{"call":{"call":{"register":{"identifier":"aX"}}}}}"#,
            #"{"id":1,"body":{"call":{"call":{"register":{"identifierX":"a"}}}}}"#,
            #"{"id":1,"body":{"control":{"command":{"install":{"path":"/aX"}}}}}"#,
        ] {
            var bytes = Self.envelope(json)
            bytes[bytes.firstIndex(of: UInt8(ascii: "X"))!] = 0xFE
            #expect(
                Self.failure(ClientMessage.self, bytes).map { "\($0)".contains("the string is not valid UTF-8") }
                    == true,
                "\(json)")
        }
    }

    /// Every prefix of every message's JSON, and every message with any one byte changed to a character that
    /// matters to JSON (or one that is not UTF-8): each is read or refused, never a trap, and a prefix never reads.
    @Test func truncatedOrAlteredMessagesAreReadOrRefusedNeverATrap() throws {
        let replacements: [UInt8] = Array(#""{}[],:0-.e\n"#.utf8) + [0xFF, 0x00]
        for message in HandCodingTests.clientMessages.prefix(12) + Self.clientMessages.prefix(6) {
            let json = try Self.body(message)
            for length in 0..<json.count {
                #expect(Self.failure(ClientMessage.self, Array(json[..<length])) != nil, "a prefix of \(message)")
            }
            for position in json.indices {
                for byte in replacements where byte != json[position] {
                    var altered = json
                    altered[position] = byte
                    _ = Self.failure(ClientMessage.self, altered)
                }
            }
        }
        for message in HandCodingTests.serverMessages.prefix(12) + Self.serverMessages.prefix(3) {
            let json = try Self.body(message)
            for length in 0..<json.count {
                #expect(Self.failure(ServerMessage.self, Array(json[..<length])) != nil, "a prefix of \(message)")
            }
        }
    }
}
