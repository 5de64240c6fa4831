import OffstageCore
import Testing

@testable import OffstageSimulator

/// §7 in whole scenarios: declarative apps with `onPush:`, `onFetch:`, `onLocation:` and mode actions,
/// driven by the `push` and `location` timeline verbs; and the loader's errors for the new keys.
@Suite struct BackgroundEventScenarioTests {
    static let yaml = """
        name: Pushes, fetch and location
        policy: { littleKnownLaunches: 0 }  # the fetch interval's rules alone: the chat app is opened once
        apps:
          - manifest:
              CFBundleIdentifier: com.example.chat
              UIBackgroundModes: [remote-notification, fetch]
            behaviour:
              onLaunch:
                - fetchInterval: 30m
              onPush: { work: 3s, result: newData }
              onFetch: { work: 12s, result: newData }
          - manifest:
              CFBundleIdentifier: com.example.run
              UIBackgroundModes: [location, audio]
            behaviour:
              onLaunch:
                - monitorSignificantChanges: true
                - startMode: audio
              onLocation:
                - work: 2s
              onTap:
                stop:
                  - stopMode: audio
        timeline:
          - { at: 1m, do: open com.example.chat }
          - { at: 2m, do: home }
          - { at: 10m, do: push com.example.chat m1 }
          - { at: 11m, do: push com.example.chat m2 }
          - { at: 12m, do: push com.example.chat m3 }
          - { at: 13m, do: push com.example.chat m4 }
          - { at: 14m, do: push com.example.chat m5 }
          - { at: 20m, do: open com.example.run }
          - { at: 21m, do: home }
          - { at: 30m, do: open com.example.run }
          - { at: 31m, do: tap com.example.run stop }
          - { at: 32m, do: swipe com.example.run }
          - { at: 40m, do: location com.example.run }
        duration: 2h
        """

    func run() throws -> [Record] {
        try Simulation(scenario: try ScenarioLoader.parse(yaml: Self.yaml, source: "pushes.yaml")).run()
    }

    func of(_ records: [Record], _ kind: RecordKind, _ app: String) -> [Record] {
        records.filter { $0.kind == kind && $0.app?.rawValue == app }
    }

    @Test func scenarioWithPushesCoalescesRateLimitsAndDeliversThem() throws {
        let records = try run()
        let chat = "com.example.chat"
        let pushes = of(records, .delivered, chat).filter { $0.task == "remote-notification" }
        #expect(pushes.map(\.at.seconds) == [600, 660, 720, 4200])
        let coalesced = of(records, .dropped, chat).first?.detail
        guard case .pushCoalesced(_, let payload) = coalesced else {
            Issue.record("the first dropped push is not a coalesced one: \(String(describing: coalesced))")
            return
        }
        #expect(payload == "m4")
        #expect(
            of(records, .handled, chat).filter { $0.task == "remote-notification" }.map(\.reason)
                == Array(repeating: "completion handler called with .newData after 3.0 s", count: 4))
        // The fetch (30 min after launch) takes 12 s: slow, so the interval doubles.
        let fetches = of(records, .delivered, chat).filter { $0.task == "background-fetch" }
        #expect(fetches.map(\.at.seconds) == [1860, 1872 + 3600])  // counted from the end of the first
        #expect(
            of(records, .log, chat).map(\.reason).contains(
                "fetch interval ×2 (was ×1): the fetch took 12.0 s (slow: over 10.0 s); next fetch in 3600.0 s"))
        #expect(records.filter { $0.kind == .crashed }.isEmpty)
    }

    @Test func scenarioWithLocationRelaunchesAnAppAfterItWasSwipedAway() throws {
        let records = try run()
        let run = "com.example.run"
        #expect(of(records, .backgroundMode, run).map(\.reason).contains("audio stopped"))
        // Audio kept it running from 21m until the user stopped it; swiped away at 32m.
        #expect(of(records, .suspended, run).map(\.at.seconds).allSatisfy { $0 > 1260 })
        let launched = of(records, .launched, run).last
        #expect(launched?.at.seconds == 2400)
        #expect(launched?.reason == "launched in the background: for a significant location change")
        #expect(of(records, .handled, run).last?.at.seconds == 2410)
    }

    @Test func summaryExplainsPushesStillHeldAtTheEnd() throws {
        let yaml = """
            name: Held
            settings: { lowPowerMode: true }
            apps:
              - manifest: { CFBundleIdentifier: com.x, UIBackgroundModes: [remote-notification] }
            timeline:
              - { at: 1m, do: push com.x late }
            """
        let report = try Simulation(scenario: try ScenarioLoader.parse(yaml: yaml, source: "x.yaml")).report()
        #expect(
            report.summary().hasSuffix(
                "  Background push held for com.x (payload \"late\"): lowPowerMode: Low Power Mode is on"))
    }

    @Test func badPushBehaviourNamesLineAndField() {
        #expect(
            ScenarioLoaderTests.behaviourError("      onPush: { result: maybe }\n")
                == "demo.yaml:5: field 'apps[0].behaviour.onPush.result': expected newData, noData, failed or none, "
                + "got \"maybe\"")
        #expect(
            ScenarioLoaderTests.behaviourError("      onLaunch:\n        - startMode: fetch\n")
                == "demo.yaml:6: field 'apps[0].behaviour.onLaunch[0].startMode': expected audio, bluetooth-central, "
                + "bluetooth-peripheral, external-accessory, location, nearby-interaction, push-to-talk or voip, "
                + "got \"fetch\"")
        #expect(
            ScenarioLoaderTests.behaviourError("      onLaunch:\n        - fetchInterval: often\n")
                == "demo.yaml:6: field 'apps[0].behaviour.onLaunch[0].fetchInterval': expected minimum, never or a "
                + "duration like 90s, 15m or 1h30m, got \"often\"")
    }

    @Test func pushForAnUnknownAppNamesLineAndField() throws {
        let yaml =
            "name: x\napps:\n  - manifest: { CFBundleIdentifier: com.x }\ntimeline:\n  - { at: 1m, do: push com.y }\n"
        #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(yaml: yaml, source: "x.yaml") }
        do {
            _ = try ScenarioLoader.parse(yaml: yaml, source: "x.yaml")
        } catch {
            #expect(error.description.hasPrefix("x.yaml:5: field 'timeline[0].do': unknown app 'com.y'"))
        }
    }
}
