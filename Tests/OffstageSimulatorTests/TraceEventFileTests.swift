import Foundation
import OffstageCore
import Testing

@testable import OffstageCLI
@testable import OffstageSimulator

/// `--trace-events`: the run in the Trace Event Format, checked against the format's documentation ("Trace Event
/// Format", the JSON Object Format): a `traceEvents` array of objects with `name`, `ph`, `ts` (microseconds),
/// `pid`, `tid`; complete events (X) with a `dur`; instants (i) with a scope `s` of g, p or t; counters (C) with
/// numeric `args`; metadata (M) `process_name`/`thread_name` with `args.name`; `displayTimeUnit` ms or ns.
@Suite struct TraceEventFileTests {
    static func demoEvents() async throws -> [[String: Any]] {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("trace.json").path
        let outcome = await CLI.run(["demo", "--summary", "--trace-events", path])
        #expect(outcome.error == nil && outcome.output.contains("Trace events written to \(path)"))
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: path)))
        let document = try #require(object as? [String: Any])
        #expect(["ms", "ns"].contains(document["displayTimeUnit"] as? String))
        return try #require(document["traceEvents"] as? [[String: Any]])
    }

    @Test func everyEventHasTheFieldsItsPhaseNeeds() async throws {
        let events = try await Self.demoEvents()
        #expect(events.count > 100)
        for event in events {
            let phase = try #require(event["ph"] as? String)
            #expect(["X", "i", "C", "M"].contains(phase), "phase \(phase)")
            #expect(event["name"] is String && event["pid"] is Int && event["tid"] is Int, "\(event)")
            let ts = try #require(event["ts"] as? Double)
            #expect(ts >= 0 && ts == ts.rounded())
            switch phase {
            case "X": #expect(((event["dur"] as? Double) ?? -1) >= 0, "\(event)")
            case "i": #expect(["g", "p", "t"].contains(event["s"] as? String), "\(event)")
            case "C": #expect((event["args"] as? [String: Any])?.values.allSatisfy { $0 is Double } == true)
            case "M":
                #expect(
                    ["process_name", "thread_name", "process_sort_index", "thread_sort_index"].contains(
                        event["name"] as? String))
                #expect((event["args"] as? [String: Any])?.isEmpty == false)
            default: break
            }
        }
    }

    @Test func processesPerAppTracksForStatesTasksAndTheDeviceBatteryAsACounter() async throws {
        let events = try await Self.demoEvents()
        let processNames = events.filter { $0["name"] as? String == "process_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(processNames == ["Device", "com.colorfeed.wwdc25", "com.example.news", "com.example.photosync"])
        let threadNames = Set(
            events.filter { $0["name"] as? String == "thread_name" }
                .compactMap { ($0["args"] as? [String: Any])?["name"] as? String })
        #expect(
            threadNames.isSuperset(of: [
                "battery", "screen and lock", "idle window", "charger", "network", "maintenance wakes", "state",
                "background pushes", "com.colorfeed.wwdc25.appRefresh runs", "com.colorfeed.wwdc25.appRefresh waits",
            ]))
        let counters = events.filter { $0["ph"] as? String == "C" }
        #expect(counters.count > 10 && counters.allSatisfy { $0["name"] as? String == "battery" })
        let wakes = events.filter { $0["name"] as? String == "maintenance wake" }
        #expect(wakes.count == 4)  // ColorFeed, opened twice, is little known: its refresh runs every 6 h
        #expect(events.contains { $0["ph"] as? String == "X" && $0["name"] as? String == "app refresh" })
        #expect(threadNames.contains("background time 1"))
        #expect(
            events.contains {
                $0["ph"] as? String == "X" && $0["name"] as? String == "background task \"Save reading position\""
            })
    }

    @Test func slicesOnOneTrackNestOrFollowNeverCross() async throws {
        let events = try await Self.demoEvents()
        var tracks: [[Int]: [(Double, Double)]] = [:]
        for event in events where event["ph"] as? String == "X" {
            let key = [event["pid"] as! Int, event["tid"] as! Int]
            tracks[key, default: []].append(
                (event["ts"] as! Double, event["ts"] as! Double + (event["dur"] as! Double)))
        }
        for (track, slices) in tracks {
            let sorted = slices.sorted { $0.0 < $1.0 }
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                #expect(b.0 >= a.1 || b.1 <= a.1, "track \(track): \(a) and \(b) cross")
            }
        }
    }
}
