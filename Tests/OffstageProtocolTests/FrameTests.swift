import Foundation
import OffstageCore
import OffstageProtocol
import Testing

/// The wire framing the daemon will speak: versioned, length-prefixed, size-limited, and strict.
@Suite struct FrameTests {
    @Test func aCallRoundTripsThroughAFrame() throws {
        let call = AppCall.submit(TaskRequest(identifier: "com.a.refresh", kind: .appRefresh, earliestBeginDate: 1000))
        let frame = try Frame.encode(call)
        let (decoded, used) = try Frame.decode(AppCall.self, from: frame + Data([0xFF]))
        #expect(decoded == call)
        #expect(used == frame.count)
        #expect(frame.prefix(4) == Data([0, 0, UInt8((frame.count - 4) >> 8), UInt8((frame.count - 4) & 0xFF)]))
    }

    @Test func truncatedFrameIsRefused() throws {
        let frame = try Frame.encode(AppCall.cancelAll)
        #expect(throws: Frame.Failure.truncated) { try Frame.decode(AppCall.self, from: frame.dropLast()) }
        #expect(throws: Frame.Failure.truncated) { try Frame.decode(AppCall.self, from: Data([0, 0])) }
    }

    @Test func oversizedFrameIsRefusedBeforeItIsRead() throws {
        let header = Data([0x7F, 0xFF, 0xFF, 0xFF])
        #expect(throws: Frame.Failure.tooLarge(bytes: 0x7FFF_FFFF)) { try Frame.decode(AppCall.self, from: header) }
        let huge = String(repeating: "x", count: Frame.maxMessageBytes)
        #expect(throws: Frame.Failure.self) { try Frame.encode(AppCall.register(identifier: huge)) }
    }

    @Test func otherVersionsAndGarbageAreRefusedWithAReason() throws {
        let body = Data(#"{"version":2,"payload":{"cancelAll":{}}}"#.utf8)
        let frame = Data([0, 0, 0, UInt8(body.count)]) + body
        #expect(throws: Frame.Failure.wrongVersion(2)) { try Frame.decode(AppCall.self, from: frame) }
        let garbage = Data([0, 0, 0, 3]) + Data("{x}".utf8)
        #expect(throws: Frame.Failure.malformed("not JSON: expected a string at byte 1")) {
            try Frame.decode(AppCall.self, from: garbage)
        }
        let notAnEnvelope = Data([0, 0, 0, 2]) + Data("[]".utf8)
        #expect(throws: Frame.Failure.malformed("not a versioned JSON envelope")) {
            try Frame.decode(AppCall.self, from: notAnEnvelope)
        }
    }
}
