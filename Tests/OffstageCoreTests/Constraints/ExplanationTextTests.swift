import Foundation
import Testing

@testable import OffstageCore

/// The words of records and `explain`, written straight into a string's storage: the text must be exactly
/// what piecewise formatting gives, for every year and for any number of blockers.
@Suite struct ExplanationTextTests {
    /// The timestamp as plain formatting writes it, to compare the digit-by-digit writer with.
    func formatted(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute)):\(two(second))Z"
    }

    @Test func timestampsOfFourDigitAndOtherYearsReadAsTheCalendarDoes() {
        let clock = WallClock(epochAtZero: 0)
        #expect(clock.timestamp(at: Instant(seconds: 1_795_321_807)) == formatted(2026, 11, 22, 4, 30, 7))
        #expect(clock.timestamp(at: Instant(seconds: 0)) == formatted(1970, 1, 1, 0, 0, 0))
        #expect(clock.timestamp(at: Instant(seconds: -1)) == formatted(1969, 12, 31, 23, 59, 59))
        #expect(clock.timestamp(at: Instant(seconds: 253_402_300_800)) == formatted(10000, 1, 1, 0, 0, 0))
        #expect(clock.timestamp(at: Instant(seconds: -62_135_596_800)) == "0001-01-01 00:00:00Z")
    }

    @Test func blockersAreExplainedInOrderJoinedBySemicolonsWithTheirLiftTimes() {
        let clock = WallClock(epochAtZero: 1_795_321_800)
        let blockers = [
            Blocker(constraint: "earliestBeginDate", reason: "not reached", until: Instant(seconds: 7)),
            Blocker(constraint: "foreground", reason: "the app is on screen — wait", until: nil),
            Blocker(constraint: "far", reason: "year ten thousand", until: Instant(seconds: 253_402_300_800)),
        ]
        #expect(
            blockers.explained(on: clock)
                == "earliestBeginDate: not reached (until 2026-11-22 04:30:07Z); "
                + "foreground: the app is on screen — wait; far: year ten thousand (until "
                + clock.timestamp(at: Instant(seconds: 253_402_300_800)) + ")")
        #expect(blockers[1].explained(on: clock) == "foreground: the app is on screen — wait")
        #expect([Blocker]().explained(on: clock) == "")
    }

    @Test func aRenderedReasonIsWrittenOnlyWhenReadAndIsTheSameBlockerAsItsWords() throws {
        final class Renders: @unchecked Sendable { var count = 0 }  // read and written on this thread only
        let renders = Renders()
        let rendered = BlockerReason {
            renders.count += 1
            return "launch likely: 12 %"
        }
        let verdict = Verdict.blocked(reason: rendered, until: Instant(seconds: 60))
        let request = Fixture.refreshRequest(Fixture.feed)
        struct Held: Constraint {
            let verdict: Verdict
            var name: String { "held" }
            func applies(to request: TaskRequest) -> Bool { true }
            func evaluate(_ request: TaskRequest, in context: ConstraintContext) -> Verdict { verdict }
        }
        let context = CoreHarness(apps: [Fixture.manifest(Fixture.feed)]).system.context(for: Fixture.feed)
        let (blockers, _, _) = [Held(verdict: verdict) as any Constraint].judge(request, in: context)
        #expect(renders.count == 0)
        let written = Blocker(constraint: "held", reason: "launch likely: 12 %", until: Instant(seconds: 60))
        #expect(blockers == [written])
        #expect(renders.count > 0)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(blockers[0]) == encoder.encode(written))
        // A blocker handed out to be kept (an explanation, a record) has its words written once, not at every read.
        let before = renders.count
        let explained = [Held(verdict: verdict) as any Constraint].blockers(for: request, in: context)
        #expect(explained.map(\.reason) + explained.map(\.reason) == [written.reason, written.reason])
        #expect(renders.count == before + 1)
    }
}
