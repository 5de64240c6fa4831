import Foundation
import OffstageCore
import Testing

@testable import OffstageCLI
@testable import OffstageSimulator

/// The text timeline and summary a newcomer reads (issue 17): deferrals only when the blockers change, no
/// `alreadyRunning` while the request's own task runs, the wake before the start it caused, counts in words
/// that add up, content ages summarized.
@Suite struct TimelineTextTests {
    static func demo() throws -> RunReport {
        try Simulation(scenario: try DemoScenario.load(), catalog: .bundled).report()
    }

    /// The constraint names of a `deferred` line's blockers, in order.
    static func blockers(_ line: Substring) -> [String] {
        guard let close = line.range(of: "] ") else { return [] }
        return line[close.upperBound...].components(separatedBy: "; ").compactMap {
            let name = $0.prefix { $0 != ":" }
            return name.contains(" ") || name.isEmpty ? nil : String(name)
        }
    }

    @Test func aDeferredLineOnlyWhenTheSetOfBlockersChanges() throws {
        let report = try Self.demo()
        let brief = report.timeline(verbose: false).split(separator: "\n")
        let every = report.timeline(verbose: true).split(separator: "\n")
        let deferred = brief.filter { $0.contains("  deferred  ") }
        #expect(deferred.count < every.filter { $0.contains("  deferred  ") }.count * 2 / 3)
        // Per request, consecutive shown deferrals differ in their blockers (besides the wait for a wake), unless
        // a new submission came between.
        var last: [String: Set<String>] = [:]
        for line in brief {
            guard let open = line.range(of: "["), let close = line.range(of: "] ") else { continue }
            let task = String(line[open.upperBound..<close.lowerBound])
            if line.contains("  submitted  ") || line.contains("  replaced  ") { last[task] = nil }
            guard line.contains("  deferred  ") else { continue }
            let names = Set(Self.blockers(line)).subtracting(["coalescing"])
            #expect(last[task] != names, "repeated: \(line)")
            last[task] = names
        }
    }

    @Test func noAlreadyRunningWhenTheAppResubmitsFromItsHandler() throws {
        let report = try Self.demo()
        #expect(!report.timeline(verbose: false).contains("alreadyRunning"))
        #expect(report.timeline(verbose: true).contains("alreadyRunning: a task with this identifier is running"))
    }

    @Test func theWakeLineComesBeforeTheStartItCaused() throws {
        let lines = try Self.demo().timeline(verbose: false).split(separator: "\n")
        let wake = try #require(lines.firstIndex { $0.contains("maintenance wake #1") })
        let start = try #require(
            lines.firstIndex { $0.contains("  started  ") && $0.hasPrefix(lines[wake].prefix(20)) })
        #expect(wake < start)
        #expect(lines[wake + 1].contains("resumed") && lines[wake + 2].contains("started"))
    }

    @Test func summaryCountsInWordsThatAddUpAndSummarizesContentAges() throws {
        let summary = try Self.demo().summary()
        #expect(
            summary.contains(
                "com.example.news: opened 3 times by the user (2 launches, 1 from memory), 0 background launches; 1 task started"
            ))
        #expect(
            summary.range(of: #"\b1 (launches|tasks|suspensions|crashes|terminations)\b"#, options: .regularExpression)
                == nil)
        #expect(summary.contains("median 20h46m, fresh at 0 of 3, never refreshed at 1"))
        #expect(summary.contains("never refreshed before an open"))
        #expect(!summary.contains("median —"))
        #expect(RunReport.contentAge([nil, 60, 600, 7200]) == "median 10m, fresh at 2 of 4, never refreshed at 1")
        #expect(RunReport.contentAge([]) == "no opens")
    }
}
