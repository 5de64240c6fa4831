import Foundation
import OffstageCore
import Testing

@testable import OffstageProtocol

/// The protocol's bytes for every message (`WireBytes`, `WireCoreValuesBytes`, recorded from the coders that wrote
/// them before the hand coding): written by frames as they were, and read back.
@Suite struct WireCoderTests {
    /// Each message with the JSON the protocol gives it.
    static let expectedBytes: [(message: any Equatable & Sendable & WireCoded, json: String)] =
        zip(HandCodingTests.clientMessages, WireBytes.hotClientMessages).map { ($0, $1) }
        + zip(HandCodingTests.serverMessages, WireBytes.hotServerMessages).map { ($0, $1) }
        + zip(WireInputTests.clientMessages, WireBytes.otherClientMessages).map { ($0, $1) }
        + zip(WireInputTests.serverMessages, WireBytes.otherServerMessages).map { ($0, $1) }
        + zip(WireJSONTests.messages, WireBytes.foundationMessages).map { ($0, $1) }
        + zip(WireCodedFamiliesTests.messages, WireBytes.familyMessages).map { ($0, $1) }
        + zip(WireCoreValuesTests.clientMessages, WireCoreValuesBytes.messages).map { ($0, $1) }
        + zip(
            WireCoreValuesTests.serverMessages,
            WireCoreValuesBytes.messages.dropFirst(WireCoreValuesTests.clientMessages.count)
        ).map { ($0, $1) }

    /// The JSON body of `message`'s frame.
    static func frameJSON(_ message: some WireCoded) throws -> String {
        String(decoding: try Frame.encode(message).dropFirst(4), as: UTF8.self)
    }

    /// `json` read as a `Payload` by a frame.
    static func read<Payload: WireCoded>(_ type: Payload.Type, _ json: String) throws -> Payload {
        let body = Array(json.utf8)
        let frame = Data(withUnsafeBytes(of: UInt32(body.count).bigEndian) { Array($0) } + body)
        return try Frame.decode(type, from: frame).0
    }

    @Test func everyMessageIsWrittenAsTheProtocolsBytes() throws {
        #expect(WireBytes.hotClientMessages.count == HandCodingTests.clientMessages.count)
        #expect(WireBytes.hotServerMessages.count == HandCodingTests.serverMessages.count)
        #expect(WireBytes.otherClientMessages.count == WireInputTests.clientMessages.count)
        #expect(WireBytes.otherServerMessages.count == WireInputTests.serverMessages.count)
        #expect(WireBytes.foundationMessages.count == WireJSONTests.messages.count)
        #expect(WireBytes.familyMessages.count == WireCodedFamiliesTests.messages.count)
        #expect(
            WireCoreValuesBytes.messages.count
                == WireCoreValuesTests.clientMessages.count + WireCoreValuesTests.serverMessages.count)
        for (message, json) in Self.expectedBytes {
            // The status reply carries the core's default device and settings, which are the core's to change.
            if case .reply(_, .status(_))? = message as? ServerMessage { continue }
            #expect(try Self.frameJSON(message) == json)
        }
    }

    @Test func everyMessageReadsBackFromTheProtocolsBytes() throws {
        for (message, json) in Self.expectedBytes {
            if let message = message as? ClientMessage {
                #expect(try Self.read(ClientMessage.self, json) == message)
            } else if let message = message as? ServerMessage {
                #expect(try Self.read(ServerMessage.self, json) == message)
            } else {
                Issue.record("\(message) is neither a client nor a server message")
            }
        }
    }

    /// Strings and keys written with escapes (`\u` with a surrogate pair, `\n`, `\/`) read as the text they spell.
    @Test func escapedStringsAndKeysReadAsTheTextTheySpell() throws {
        let json =
            #"{"version":1,"payload":{"id":7,"body":{"call":{"call":{"regist\u0065r":{"identifier":"\u00e9\ud83d\ude00\n\/"}}}}}}"#
        let expected = ClientMessage(id: 7, body: .call(call: .register(identifier: "é😀\n/"), bundle: nil))
        #expect(try Self.read(ClientMessage.self, json) == expected)
    }
}
