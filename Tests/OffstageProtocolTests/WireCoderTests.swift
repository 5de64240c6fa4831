import Foundation
import OffstageCore
import Testing

@testable import OffstageProtocol

/// The protocol's bytes for every message (`WireBytes`, recorded from the coders before the tree-free general
/// coder): written by frames (the hand coder for the hot forms) and by the general coder alike, and read back by
/// both; and the general coder's own refusals.
@Suite struct WireCoderTests {
    /// Each message with the JSON the protocol gives it.
    static let expectedBytes: [(message: any Codable & Equatable & Sendable & WireCoded, json: String)] =
        zip(HandCodingTests.clientMessages, WireBytes.hotClientMessages).map { ($0, $1) }
        + zip(HandCodingTests.serverMessages, WireBytes.hotServerMessages).map { ($0, $1) }
        + zip(WireInputTests.clientMessages, WireBytes.otherClientMessages).map { ($0, $1) }
        + zip(WireInputTests.serverMessages, WireBytes.otherServerMessages).map { ($0, $1) }
        + zip(WireJSONTests.messages, WireBytes.foundationMessages).map { ($0, $1) }

    /// The JSON body of `message`'s frame.
    static func frameJSON(_ message: some WireCoded) throws -> String {
        String(decoding: try Frame.encode(message).dropFirst(4), as: UTF8.self)
    }

    /// The envelope of `message` as the general coder writes it.
    static func generalJSON<Payload: Codable>(_ message: Payload) throws -> String {
        String(
            decoding: try WireEncoder.encode(Frame.Envelope(version: Frame.version, payload: message)), as: UTF8.self)
    }

    /// `json` read as a `Payload` by a frame and by the general coder alone.
    static func readBothWays<Payload: Codable & WireCoded>(_ type: Payload.Type, _ json: String) throws -> (
        Payload, Payload
    ) {
        let body = Array(json.utf8)
        let frame = Data(withUnsafeBytes(of: UInt32(body.count).bigEndian) { Array($0) } + body)
        let general = try body.withUnsafeBufferPointer {
            try WireDecoder.decode(Frame.Envelope<Payload>.self, from: $0).payload
        }
        return (try Frame.decode(type, from: frame).0, general)
    }

    @Test func everyMessageIsWrittenAsTheProtocolsBytesByFramesAndByTheGeneralCoder() throws {
        #expect(WireBytes.hotClientMessages.count == HandCodingTests.clientMessages.count)
        #expect(WireBytes.hotServerMessages.count == HandCodingTests.serverMessages.count)
        #expect(WireBytes.otherClientMessages.count == WireInputTests.clientMessages.count)
        #expect(WireBytes.otherServerMessages.count == WireInputTests.serverMessages.count)
        #expect(WireBytes.foundationMessages.count == WireJSONTests.messages.count)
        for (message, json) in Self.expectedBytes {
            // The status reply carries the core's default device and settings, which are the core's to change.
            if case .reply(_, .status(_))? = message as? ServerMessage { continue }
            #expect(try Self.frameJSON(message) == json)
            #expect(try Self.generalJSON(message) == json)
        }
    }

    @Test func everyMessageReadsBackFromTheProtocolsBytesByFramesAndByTheGeneralCoder() throws {
        for (message, json) in Self.expectedBytes {
            if let message = message as? ClientMessage {
                let (frame, general) = try Self.readBothWays(ClientMessage.self, json)
                #expect(frame == message)
                #expect(general == message)
            } else if let message = message as? ServerMessage {
                let (frame, general) = try Self.readBothWays(ServerMessage.self, json)
                #expect(frame == message)
                #expect(general == message)
            } else {
                Issue.record("\(message) is neither a client nor a server message")
            }
        }
    }

    /// Strings and keys written with escapes (`\u` with a surrogate pair, `\n`, `\/`) read as the text they spell.
    @Test func escapedStringsAndKeysReadAsTheTextTheySpell() throws {
        let json =
            #"{"version":1,"payload":{"id":7,"body":{"call":{"call":{"regist\u0065r":{"identifier":"\u00e9\ud83d\ude00\n\/"}}}}}}"#
        let (frame, general) = try Self.readBothWays(ClientMessage.self, json)
        let expected = ClientMessage(id: 7, body: .call(call: .register(identifier: "é😀\n/"), bundle: nil))
        #expect(frame == expected)
        #expect(general == expected)
    }

    /// A value whose `encode(to:)` writes to a container after it was closed, or gives a value two containers, is
    /// refused with an error: the encoder never writes JSON other than the value's.
    @Test func containersUsedOutOfOrderAreAnErrorNotOtherJSON() throws {
        struct LateWrite: Encodable {
            func encode(to encoder: any Encoder) throws {
                var outer = encoder.container(keyedBy: WireKey.self)
                var first = outer.nestedContainer(keyedBy: WireKey.self, forKey: WireKey("a"))
                try outer.encode(1, forKey: WireKey("b"))
                try first.encode(2, forKey: WireKey("c"))
            }
        }
        struct TwoContainers: Encodable {
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: WireKey.self)
                try keyed.encode(1, forKey: WireKey("a"))
                var single = encoder.singleValueContainer()
                try single.encode(2)
            }
        }
        struct SuperEncoder: Encodable {
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: WireKey.self)
                _ = keyed.superEncoder()
            }
        }
        var out: [UInt8] = Array("kept".utf8)
        #expect(throws: EncodingError.self) { try WireEncoder.append(LateWrite(), to: &out) }
        #expect(throws: EncodingError.self) { try WireEncoder.append(TwoContainers(), to: &out) }
        #expect(throws: EncodingError.self) { try WireEncoder.append(SuperEncoder(), to: &out) }
        #expect(out == Array("kept".utf8), "a refused value leaves nothing behind")
    }
}
