import Foundation
import OffstageCore
import Testing

@testable import OffstageSimulator

/// The YAML scenario loader: what a good file gives, and the error (file, line, field) a bad one gives.
@Suite struct ScenarioLoaderTests {
    static let fullExample = """
        name: A day with ColorFeed
        seed: 7
        start: 2026-11-21T06:00:00Z
        duration: 1d
        policy:
          backgroundTimeAllowance: 45s
          maxPendingProcessingRequests: 4
          criticalBatteryLevel: 15%
          defaultMemoryFootprint: 60MB
          deviceIdleDelay: 600
        device:
          battery: 64%
          charging: true
          network: cellular
          thermal: fair
          screen: on
          locked: true
          gpu: true
        settings:
          backgroundAppRefresh: true
          backgroundAppRefreshRestricted: false
          backgroundAppRefreshOff: [com.example.news]
          continuedProcessingOff: []
          lowPowerMode: true
          lowDataMode: false
        apps:
          - code: ColorFeed
            memory: 120MB
            manifest:
              CFBundleIdentifier: com.colorfeed.wwdc25
              UIBackgroundModes: [fetch, processing]
              BGTaskSchedulerPermittedIdentifiers: [com.colorfeed.wwdc25.appRefresh, "com.colorfeed.wwdc25.*"]
              Entitlements: {com.apple.developer.background-tasks.continued-processing.gpu: true}
          - manifest: { CFBundleIdentifier: com.example.news, UIBackgroundModes: [fetch] , BGTaskSchedulerPermittedIdentifiers: [com.example.news.refresh]}
            behaviour:
              register: [com.example.news.refresh]
              onLaunch:
                - submit: { refresh: com.example.news.refresh, after: 1h }
              onBecomeActive: []
              onEnterBackground:
                - backgroundTask: { name: save, work: 3s }
                - backgroundTask: { work: 0.5s, leak: true }
                - work: 1s
                - load: { duration: 2s, bytes: 300KB }
                - cancel: com.example.news.old
                - cancelAll: true
              onTap:
                export:
                  - register: com.example.news.export.job1
                  - submit: { continued: com.example.news.export.job1, title: Exporting, subtitle: 3 files, strategy: fail, gpu: true }
                  - submit: { processing: com.example.news.sync, after: 15m, network: true, power: true }
              tasks:
                com.example.news.refresh:
                  work: 5s..12s
                  success: false
                  onExpiration: ignore
                  then:
                    - submit: { refresh: com.example.news.refresh, after: 1h }
        timeline:
          - at: "07:00"
            do: open com.colorfeed.wwdc25
          - { at: 7h05m, do: home }
          - { at: "1d 00:00", do: tap com.example.news export }
        """

    @Test func fullExampleGivesEveryField() throws {
        let scenario = try ScenarioLoader.parse(yaml: Self.fullExample, source: "demo.yaml")
        #expect(scenario.name == "A day with ColorFeed")
        #expect(scenario.source == "demo.yaml")
        #expect(scenario.seed == 7)
        #expect(scenario.startEpoch == 1_795_219_200 + 6 * 3600)
        #expect(scenario.duration == 86_400)

        var policy = Policy.iOS
        policy.backgroundTimeAllowance = 45
        policy.maxPendingProcessingRequests = 4
        policy.criticalBatteryLevel = 0.15
        policy.defaultMemoryFootprint = 60_000_000
        policy.deviceIdleDelay = 600
        #expect(scenario.policy == policy)

        var device = DeviceState()
        device.batteryLevel = 0.64
        device.isCharging = true
        device.network = .cellular
        device.thermalState = .fair
        device.isScreenOn = true
        device.isLocked = true
        device.hasBackgroundGPU = true
        device.idleSince = nil
        #expect(scenario.device == device)

        var settings = UserSettings()
        settings.backgroundAppRefreshOff = ["com.example.news"]
        settings.lowPowerMode = true
        #expect(scenario.settings == settings)

        try #require(scenario.apps.count == 2)
        let colorFeed = scenario.apps[0]
        #expect(colorFeed.code == "ColorFeed")
        #expect(colorFeed.memoryFootprint == 120_000_000)
        #expect(
            colorFeed.manifest
                == AppManifest(
                    bundleIdentifier: "com.colorfeed.wwdc25", backgroundModes: [.fetch, .processing],
                    permittedIdentifiers: ["com.colorfeed.wwdc25.appRefresh", "com.colorfeed.wwdc25.*"],
                    entitlements: ["com.apple.developer.background-tasks.continued-processing.gpu"]))

        let news = scenario.apps[1]
        #expect(news.code == nil)
        #expect(news.memoryFootprint == nil)
        #expect(news.manifest.bundleIdentifier == "com.example.news")
        #expect(news.manifest.permittedIdentifiers == ["com.example.news.refresh"])
        let behaviour = news.behaviour
        #expect(behaviour.register == ["com.example.news.refresh"])
        var hourly = RequestTemplate(
            identifier: "com.example.news.refresh", kind: .appRefresh, after: 3600)
        #expect(behaviour.onLaunch == [.submit(hourly)])
        #expect(behaviour.onBecomeActive == [])
        #expect(
            behaviour.onEnterBackground == [
                .backgroundTask(name: "save", work: .fixed(3), leak: false),
                .backgroundTask(name: "", work: .fixed(0.5), leak: true),
                .work(.fixed(1)),
                .load(.fixed(2), load: WorkLoad(bytes: 300_000)),
                .cancel("com.example.news.old"),
                .cancelAll,
            ])
        var export = RequestTemplate(
            identifier: "com.example.news.export.job1", kind: .continuedProcessing)
        export.title = "Exporting"
        export.subtitle = "3 files"
        export.strategy = .fail
        export.requiresGPU = true
        var sync = RequestTemplate(identifier: "com.example.news.sync", kind: .processing, after: 900)
        sync.requiresNetworkConnectivity = true
        sync.requiresExternalPower = true
        #expect(
            behaviour.onTap == [
                "export": [.register("com.example.news.export.job1"), .submit(export), .submit(sync)]
            ])
        var refresh = TaskBehaviour()
        refresh.work = .between(5, 12)
        refresh.success = false
        refresh.onExpiration = .ignore
        hourly.after = 3600
        refresh.then = [.submit(hourly)]
        #expect(behaviour.tasks == ["com.example.news.refresh": refresh])

        #expect(
            scenario.timeline == [
                TimelineEntry(at: 7 * 3600, action: .system(.open("com.colorfeed.wwdc25")), line: 60),
                TimelineEntry(at: 7 * 3600 + 300, action: .system(.home), line: 62),
                TimelineEntry(at: 86_400, action: .tap("com.example.news", action: "export"), line: 63),
            ])
    }

    @Test func nameAloneGivesTheDefaults() throws {
        let scenario = try ScenarioLoader.parse(yaml: "name: Empty\n", source: "empty.yaml")
        #expect(scenario.name == "Empty")
        #expect(scenario.seed == 1)
        #expect(scenario.startEpoch == 1_795_219_200)
        #expect(scenario.duration == nil)
        #expect(scenario.policy == .iOS)
        #expect(scenario.settings == UserSettings())
        #expect(scenario.apps.isEmpty)
        #expect(scenario.timeline.isEmpty)
        #expect(scenario.device.isScreenOn)
        #expect(scenario.device.idleSince == nil)
    }

    @Test func theBuiltInDemoLoads() throws {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/OffstageCLI/Resources/demo.yaml")
        try #require(FileManager.default.fileExists(atPath: url.path))
        let scenario = try ScenarioLoader.load(contentsOf: url.path)
        #expect(scenario.duration == Double(86_400 + 9 * 3600))
        #expect(scenario.apps.count == 3)
        #expect(
            scenario.device.isLocked && !scenario.device.isScreenOn && scenario.device.idleSince == .zero)
        #expect(scenario.timeline.count == 30)
    }

    // MARK: Errors name the file, the line and the field

    @Test func badSizeNamesFileLineAndField() {
        let yaml = """
            name: Sizes
            apps:
              - code: ColorFeed
                memory: lots
                manifest: { CFBundleIdentifier: com.x }
            """
        #expect(
            errorText(yaml)
                == "demo.yaml:4: field 'apps[0].memory': expected a size like 120MB, got \"lots\"")
    }

    @Test func deviceResumeCallbackAndKeyboardFullAccessAreRead() throws {
        let scenario = try ScenarioLoader.parse(
            yaml: """
                name: Resume
                device: { resumeCallback: none }
                settings: { fullAccess: [com.example.notes.keyboard] }
                apps:
                  - manifest:
                      CFBundleIdentifier: com.example.notes.keyboard
                      NSExtension:
                        NSExtensionPointIdentifier: com.apple.keyboard-service
                        NSExtensionAttributes: { RequestsOpenAccess: true }
                """, source: "demo.yaml")
        #expect(scenario.device.resumeCallback == .none)
        #expect(scenario.settings.fullAccessKeyboards == ["com.example.notes.keyboard"])
        #expect(scenario.apps.first?.manifest.requestsOpenAccess == true)
        #expect(try ScenarioLoader.parse(yaml: "name: x\n", source: "d").device.resumeCallback == .didEnterBackground)
        let error = try #require(errorText("name: x\ndevice: { resumeCallback: never }\n"))
        #expect(error.hasPrefix("demo.yaml:2: field 'device.resumeCallback'"))
        #expect(error.contains("didEnterBackground") && error.contains("none"))
    }

    @Test func missingNameIsReportedAtTheTopMapping() {
        #expect(errorText("seed: 3\n") == "demo.yaml:1: field 'name': is required")
    }

    @Test func emptyDocumentIsAnError() {
        #expect(
            errorText("# nothing\n") == "demo.yaml:1: the scenario is empty: it needs at least 'name:'")
    }

    @Test func topLevelListIsAnError() {
        #expect(
            errorText("- name: x\n")
                == "demo.yaml:1: expected a mapping of scenario keys (name:, apps:, timeline:…), got a list"
        )
    }

    @Test func yamlSyntaxErrorComesOutWithItsLine() {
        let yaml = """
            name: Broken
            device:
              battery: 80%
             charging: true
            """
        let error = loadError(yaml)
        #expect(error?.line == 4)
        #expect(error?.field == nil)
        #expect(error?.message.hasPrefix("invalid YAML: ") == true)
    }

    @Test func unclosedFlowMappingIsASyntaxErrorWithALine() {
        let error = loadError("name: x\napps:\n  - manifest: { CFBundleIdentifier: com.x\n")
        #expect(error?.line == 4)
        #expect(error?.message.hasPrefix("invalid YAML: ") == true)
    }

    @Test func duplicateKeyIsReportedWithItsLine() {
        #expect(
            errorText("name: a\nseed: 1\nname: b\n")
                == "demo.yaml:1: invalid YAML: key 'name' appears more than once in the same mapping")
    }

    @Test func unknownKeyListsTheExpectedKeys() {
        let yaml = """
            name: Typo
            device:
              batery: 50%
            """
        #expect(
            errorText(yaml)
                == "demo.yaml:3: field 'device.batery': unknown key 'batery'; expected one of: battery, charging, "
                + "network, thermal, screen, locked, gpu, resumeCallback")
    }

    @Test func wrongTypeSaysWhatWasExpected() {
        #expect(
            errorText("name: x\ndevice:\n  charging: sometimes\n")
                == "demo.yaml:3: field 'device.charging': expected true or false, got \"sometimes\"")
        #expect(
            errorText("name: x\ndevice:\n  network: [wifi]\n")
                == "demo.yaml:3: field 'device.network': expected none, wifi or cellular, got a list")
        #expect(
            errorText("name:\n") == "demo.yaml:1: field 'name': expected a non-empty string, got nothing")
        #expect(
            errorText("name: x\nseed: -1\n")
                == "demo.yaml:2: field 'seed': expected a whole number like 7, got \"-1\"")
        #expect(
            errorText("name: x\nstart: tomorrow\n")
                == "demo.yaml:2: field 'start': expected an ISO 8601 date like 2026-11-21T06:00:00Z, got \"tomorrow\""
        )
    }

    @Test func policyKeysAreCheckedAndTyped() {
        #expect(
            errorText("name: x\npolicy:\n  refreshRuntime: long\n")
                == "demo.yaml:3: field 'policy.refreshRuntime': expected a duration like 90s, 15m or 1h30m, got \"long\""
        )
        #expect(
            errorText("name: x\npolicy:\n  maxPendingRefreshRequests: 1.5\n")
                == "demo.yaml:3: field 'policy.maxPendingRefreshRequests': expected a whole number like 10, got \"1.5\""
        )
        #expect(
            errorText("name: x\npolicy:\n  warp: 9\n")?.hasPrefix(
                "demo.yaml:3: field 'policy.warp': unknown key") == true)
    }

    @Test func policyTableCoversEveryPolicyProperty() {
        let properties = Set(Mirror(reflecting: Policy.iOS).children.compactMap(\.label)).subtracting(["judgement"])
            .union(Mirror(reflecting: Policy.iOS.judgement).children.compactMap(\.label)).union(["strategy"])
        #expect(Set(ScenarioLoader.policySettings.map(\.name)) == properties)
    }

    @Test func screenOffMeansLockedAndIdleFromTheStart() throws {
        let scenario = try ScenarioLoader.parse(
            yaml: "name: x\ndevice:\n  screen: off\n", source: "demo.yaml")
        #expect(!scenario.device.isScreenOn)
        #expect(scenario.device.isLocked)
        #expect(scenario.device.idleSince == .zero)
        #expect(
            errorText("name: x\ndevice:\n  screen: off\n  locked: false\n")
                == "demo.yaml:4: field 'device.locked': the screen is off, which means locked: remove 'locked: false' "
                + "or set 'screen: on'")
    }

    @Test func mutatedScenariosGiveErrorsNotCrashes() {
        var state: UInt64 = 42
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let noise: [Character] = [
            ":", "-", "[", "]", "{", "}", "'", "\"", "\t", "#", "&", "*", "!", "|", ">", "%", "@", " ",
            "\n", ".", "9",
        ]
        let lineCount = Self.fullExample.split(separator: "\n", omittingEmptySubsequences: false).count
        var errors = 0
        for _ in 0..<500 {
            var text = Array(Self.fullExample)
            for _ in 0...next(3) {
                let at = next(text.count)
                switch next(3) {
                case 0: text.remove(at: at)
                case 1: text.insert(noise[next(noise.count)], at: at)
                default: text[at] = noise[next(noise.count)]
                }
            }
            do {
                _ = try ScenarioLoader.parse(yaml: String(text), source: "fuzz.yaml")
            } catch {
                errors += 1
                #expect(error.line.map { (1...lineCount + 1).contains($0) } ?? true, "\(error)")
                #expect(!error.message.isEmpty)
            }
        }
        #expect(errors > 250)
    }

    // MARK: Apps

    @Test func appNeedsExactlyOneOfManifestAndPlist() {
        #expect(
            errorText("name: x\napps:\n  - code: ColorFeed\n")
                == "demo.yaml:3: field 'apps[0]': an app needs 'manifest:' (its Info.plist keys) or 'plist:' "
                + "(the path of its Info.plist)")
        #expect(
            errorText("name: x\napps:\n  - manifest: { CFBundleIdentifier: com.x }\n    plist: x.plist\n")
                == "demo.yaml:4: field 'apps[0].plist': an app has either 'manifest:' or 'plist:', not both"
        )
    }

    @Test func codeAndBehaviourAreExclusive() {
        let yaml = """
            name: x
            apps:
              - code: ColorFeed
                manifest: { CFBundleIdentifier: com.x }
                behaviour: { register: [com.x.refresh] }
            """
        #expect(
            errorText(yaml)
                == "demo.yaml:5: field 'apps[0].behaviour': an app has either 'code:' (a Swift app) or 'behaviour:', "
                + "not both")
    }

    @Test func twoAppsWithOneBundleIdentifierIsAnError() {
        let yaml = """
            name: x
            apps:
              - manifest: { CFBundleIdentifier: com.x }
              - manifest:
                  UIBackgroundModes: [fetch]
                  CFBundleIdentifier: com.x
            """
        #expect(
            errorText(yaml)
                == "demo.yaml:6: field 'apps[1].manifest.CFBundleIdentifier': bundle identifier 'com.x' is already "
                + "used by apps[0]")
    }

    @Test func manifestErrorsPointAtTheManifestField() {
        #expect(
            errorText("name: x\napps:\n  - manifest:\n      UIBackgroundModes: [fetch]\n")
                == "demo.yaml:4: field 'apps[0].manifest.CFBundleIdentifier': is required")
        let wildcard = """
            name: x
            apps:
              - manifest:
                  CFBundleIdentifier: com.x
                  BGTaskSchedulerPermittedIdentifiers:
                    - com.x.refresh
                    - com.y.*
            """
        #expect(
            errorText(wildcard)
                == "demo.yaml:7: field 'apps[0].manifest.BGTaskSchedulerPermittedIdentifiers[1]': wildcard 'com.y.*' "
                + "must start with the bundle identifier 'com.x.'")
        #expect(
            errorText(
                "name: x\napps:\n  - manifest: { CFBundleIdentifier: com.x, Entitlements: {gpu: maybe} }\n")
                == "demo.yaml:3: field 'apps[0].manifest.Entitlements.gpu': must be a boolean")
    }

    @Test func plistIsReadRelativeToTheScenarioFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("News.app"), withIntermediateDirectories: true)
        let plist: [String: Any] = [
            "CFBundleIdentifier": "com.example.news", "UIBackgroundModes": ["fetch"],
            "BGTaskSchedulerPermittedIdentifiers": ["com.example.news.refresh"],
        ]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: directory.appendingPathComponent("News.app/Info.plist"))
        let scenarioPath = directory.appendingPathComponent("news.yaml").path
        try "name: News\napps:\n  - plist: News.app/Info.plist\n".write(
            toFile: scenarioPath, atomically: true, encoding: .utf8)

        let scenario = try ScenarioLoader.load(contentsOf: scenarioPath)
        #expect(
            scenario.apps.map(\.manifest) == [
                AppManifest(
                    bundleIdentifier: "com.example.news", backgroundModes: [.fetch],
                    permittedIdentifiers: ["com.example.news.refresh"])
            ])
    }

    @Test func plistErrorsNameThePlistFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try PropertyListSerialization.data(
            fromPropertyList: ["UIBackgroundModes": ["fetch"]], format: .xml, options: 0
        )
        .write(to: directory.appendingPathComponent("Info.plist"))
        let scenarioPath = directory.appendingPathComponent("s.yaml").path
        try "name: x\napps:\n  - plist: Info.plist\n  - plist: Missing.plist\n".write(
            toFile: scenarioPath, atomically: true, encoding: .utf8)

        #expect(
            loadError(path: scenarioPath)?.description
                == "\(directory.path)/Info.plist: field 'CFBundleIdentifier': is required")
        try "name: x\napps:\n  - plist: Missing.plist\n".write(
            toFile: scenarioPath, atomically: true, encoding: .utf8)
        #expect(
            loadError(path: scenarioPath)?.description
                == "\(scenarioPath):3: field 'apps[0].plist': no such file '\(directory.path)/Missing.plist'"
        )
    }

    @Test func missingScenarioFileIsAnError() {
        #expect(
            loadError(path: "/nonexistent/s.yaml")?.description == "/nonexistent/s.yaml: no such file")
    }

    @Test func settingsNamingAnUnknownAppIsAnError() {
        let yaml = """
            name: x
            settings:
              backgroundAppRefreshOff:
                - com.x
                - com.typo
            apps:
              - manifest: { CFBundleIdentifier: com.x }
            """
        #expect(
            errorText(yaml)
                == "demo.yaml:5: field 'settings.backgroundAppRefreshOff[1]': unknown app 'com.typo': not one of the "
                + "scenario's apps (they are com.x)")
    }

    // MARK: Behaviour

    static func behaviourError(_ behaviour: String) -> String? {
        let yaml =
            "name: x\napps:\n  - manifest: { CFBundleIdentifier: com.x }\n    behaviour:\n" + behaviour
        return Self().errorText(yaml)
    }

    @Test func submitNamesExactlyOneKind() {
        #expect(
            Self.behaviourError("      onLaunch:\n        - submit: { after: 1h }\n")
                == "demo.yaml:6: field 'apps[0].behaviour.onLaunch[0].submit': a request names exactly one of "
                + "'refresh:', 'processing:', 'healthResearch:' or 'continued:' (its identifier)")
        #expect(
            Self.behaviourError(
                "      onLaunch:\n        - submit: { refresh: com.x.a, processing: com.x.b }\n")
                == "demo.yaml:6: field 'apps[0].behaviour.onLaunch[0].submit.processing': a request names exactly "
                + "one of 'refresh:', 'processing:', 'healthResearch:' or 'continued:' (its identifier)")
    }

    @Test func submitRejectsFieldsOfAnotherKind() {
        #expect(
            Self.behaviourError(
                "      onLaunch:\n        - submit: { refresh: com.x.a, network: true }\n")
                == "demo.yaml:6: field 'apps[0].behaviour.onLaunch[0].submit.network': 'network' is for processing "
                + "and healthResearch requests, not refresh")
        #expect(
            Self.behaviourError("      onLaunch:\n        - submit: { continued: com.x.a, after: 1h }\n")
                == "demo.yaml:6: field 'apps[0].behaviour.onLaunch[0].submit.after': 'after' is for refresh, "
                + "processing and healthResearch requests, not continued")
        #expect(
            Self.behaviourError(
                "      onLaunch:\n        - submit: { continued: com.x.a, strategy: later }\n")
                == "demo.yaml:6: field 'apps[0].behaviour.onLaunch[0].submit.strategy': expected queue or fail, "
                + "got \"later\"")
    }

    @Test func actionItemWithTwoKeysIsRejected() {
        let behaviour = """
                  onEnterBackground:
                    - backgroundTask: { name: save, work: 3s }
                      leak: true
            """
        #expect(
            Self.behaviourError(behaviour + "\n")
                == "demo.yaml:7: field 'apps[0].behaviour.onEnterBackground[0].leak': one action per list item, this "
                + "one has 'backgroundTask' and 'leak'; start each with '-'")
    }

    @Test func unknownActionListsTheActions() {
        #expect(
            Self.behaviourError("      onLaunch:\n        - sleep: 1s\n")
                == "demo.yaml:6: field 'apps[0].behaviour.onLaunch[0].sleep': unknown key 'sleep'; expected one of: "
                + "submit, backgroundTask, work, load, register, cancel, cancelAll, fetchInterval, startMode, stopMode, "
                + "monitorSignificantChanges, monitorRegion, backgroundDownload")
        #expect(
            Self.behaviourError("      onLaunch:\n        - 42\n")
                == "demo.yaml:6: field 'apps[0].behaviour.onLaunch[0]': expected an action: one of submit:, "
                + "backgroundTask:, work:, load:, register:, cancel:, cancelAll:, fetchInterval:, startMode:, stopMode:, "
                + "monitorSignificantChanges:, monitorRegion:, backgroundDownload:, got \"42\"")
    }

    @Test func taskWorkErrorNamesTheTaskIdentifierInThePath() {
        let behaviour = """
                  tasks:
                    com.x.refresh:
                      work: 12s..5s
            """
        #expect(
            Self.behaviourError(behaviour + "\n")
                == "demo.yaml:7: field 'apps[0].behaviour.tasks.com.x.refresh.work': expected a duration like 5s, or "
                + "a range like 5s..12s, got \"12s..5s\"")
    }

    @Test func backgroundTaskNeedsWork() {
        #expect(
            Self.behaviourError("      onLaunch:\n        - backgroundTask: { name: save }\n")
                == "demo.yaml:6: field 'apps[0].behaviour.onLaunch[0].backgroundTask.work': is required")
    }

    // MARK: Timeline

    static let timelineApps = """
        name: x
        device: { battery: 50%, charging: true }
        apps:
          - manifest: { CFBundleIdentifier: com.x }
            behaviour: { onTap: { export: [] } }
          - code: Real
            manifest: { CFBundleIdentifier: com.real }
        timeline:

        """

    static func timeline(_ entries: String) throws(ScenarioError) -> [TimelineEntry] {
        try ScenarioLoader.parse(yaml: timelineApps + entries, source: "demo.yaml").timeline
    }

    static func timelineError(_ entries: String) -> String? {
        do {
            _ = try timeline(entries)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func timelineTimesAcceptClocksDaysAndDurations() throws {
        let entries = try Self.timeline(
            """
              - { at: 90, do: home }
              - { at: 15m, do: home }
              - { at: "7:00", do: home }
              - { at: "07:00:30", do: home }
              - { at: 7h05m, do: home }
              - { at: 1d2h, do: home }
              - { at: "1d 07:30", do: home }
            """)
        #expect(entries.map(\.at) == [90, 900, 25_200, 25_230, 25_500, 93_600, 113_400])
        #expect(entries.map(\.line) == [9, 10, 11, 12, 13, 14, 15])
    }

    @Test func batteryCommandsKeepTheTrackedPowerState() throws {
        let entries = try Self.timeline(
            """
              - { at: 1h, do: battery 15% }
              - { at: 2h, do: unplug }
              - { at: 3h, do: battery 40% }
              - { at: 4h, do: plug }
            """)
        #expect(
            entries.map(\.action) == [
                .system(.setBattery(level: 0.15, charging: true)),
                .system(.setCharging(false)),
                .system(.setBattery(level: 0.4, charging: false)),
                .system(.setCharging(true)),
            ])
    }

    @Test func entriesOutOfOrderNameBothLines() {
        #expect(
            Self.timelineError("  - { at: 2h, do: home }\n  - { at: 1h30m, do: lock }\n")
                == "demo.yaml:10: field 'timeline[1].at': 1h 30m comes before the entry above it (2h, line 9); "
                + "entries go in time order")
    }

    @Test func entryAfterTheDurationIsAnError() {
        let yaml = "name: x\nduration: 1h\ntimeline:\n  - { at: 2h, do: home }\n"
        #expect(
            errorText(yaml)
                == "demo.yaml:4: field 'timeline[0].at': 2h is after the end of the run (duration: 1h)")
    }

    @Test func badTimeSaysWhatWasExpected() {
        #expect(
            Self.timelineError("  - { at: \"25:00\", do: home }\n")
                == "demo.yaml:9: field 'timeline[0].at': expected a time like \"07:00\" or \"1d 07:30\", or a duration "
                + "like 90s, 15m, 2h or 1h30m, got \"25:00\"")
    }

    @Test func commandErrorGetsTheFileLineAndField() {
        #expect(
            Self.timelineError("  - at: 1h\n    do: network wlan\n")
                == "demo.yaml:10: field 'timeline[0].do': 'network' expects none, wifi or cellular, got \"wlan\""
        )
        #expect(
            Self.timelineError("  - { at: 1h }\n") == "demo.yaml:9: field 'timeline[0].do': is required")
    }

    @Test(arguments: ["open com.typo", "notification com.typo"])
    func commandNamingAnUnknownAppIsAnError(command: String) {
        #expect(
            Self.timelineError("  - { at: 1h, do: \(command) }\n")
                == "demo.yaml:9: field 'timeline[0].do': unknown app 'com.typo': not one of the scenario's apps "
                + "(they are com.x, com.real)")
    }

    @Test func tapMustNameAnOnTapActionOfADeclarativeApp() throws {
        #expect(
            Self.timelineError("  - { at: 1h, do: tap com.x share }\n")
                == "demo.yaml:9: field 'timeline[0].do': app 'com.x' has no onTap action 'share' (it has export)"
        )
        let entries = try Self.timeline("  - { at: 1h, do: tap com.real anything }\n")
        #expect(entries.map(\.action) == [.tap("com.real", action: "anything")])
    }

    // MARK: Quantities

    @Test(arguments: [
        ("90s", 90.0), ("0.5s", 0.5), ("15m", 900), ("2h", 7200), ("1d", 86_400), ("1h30m", 5400),
        ("1d2h", 93_600), ("1h 30m", 5400), ("45", 45), ("2.5", 2.5),
    ])
    func durationsParse(text: String, seconds: Double) {
        #expect(Quantities.seconds(text) == seconds)
    }

    @Test(arguments: [
        "", "s", "1x", "30m1h", "1h1h", "-5s", "inf", "nan", "1e3", "1h30", "1..2s", ".5s",
    ])
    func badDurationsAreRejected(text: String) {
        #expect(Quantities.seconds(text) == nil)
    }

    @Test func workIsFixedOrARange() {
        #expect(Quantities.work("3s") == .fixed(3))
        #expect(Quantities.work("5s..12s") == .between(5, 12))
        #expect(Quantities.work("1m..1m") == .fixed(60))
        #expect(Quantities.work("12s..5s") == nil)
        #expect(Quantities.work("1s..2s..3s") == nil)
    }

    @Test(arguments: [
        ("500KB", 500_000), ("120MB", 120_000_000), ("1.5GB", 1_500_000_000), ("2 gb", 2_000_000_000),
        ("4096", 4096), ("10B", 10), ("1.1GB", 1_100_000_000),
    ])
    func sizesParseInDecimalUnits(text: String, bytes: Int) {
        #expect(Quantities.bytes(text) == bytes)
    }

    @Test(arguments: ["lots", "1.5", "12MiB", "-1MB", "MB", "1e9"])
    func badSizesAreRejected(text: String) {
        #expect(Quantities.bytes(text) == nil)
    }

    @Test func fractionsArePercentagesOrZeroToOne() {
        #expect(Quantities.fraction("80%") == 0.8)
        #expect(Quantities.fraction("0.8") == 0.8)
        #expect(Quantities.fraction("1") == 1)
        #expect(Quantities.fraction("0%") == 0)
        #expect(Quantities.fraction("80") == nil)
        #expect(Quantities.fraction("101%") == nil)
        #expect(Quantities.fraction("lots") == nil)
    }

    @Test func isoDatesAreSecondsSince1970() {
        let midnight: Double = 1_795_219_200
        let sixThirty: Double = midnight + 6.5 * 3600
        let sixAndAHalfSecond: Double = midnight + 6 * 3600 + 0.5
        #expect(Quantities.epoch(iso8601: "1970-01-01T00:00:00Z") == 0)
        #expect(Quantities.epoch(iso8601: "2026-11-21T00:00:00Z") == midnight)
        #expect(Quantities.epoch(iso8601: "2026-11-21") == midnight)
        #expect(Quantities.epoch(iso8601: "2026-11-21T07:30:00+01:00") == sixThirty)
        #expect(Quantities.epoch(iso8601: "2026-11-21 06:00:00.5") == sixAndAHalfSecond)
        #expect(Quantities.epoch(iso8601: "2024-02-29T00:00:00Z") == 1_709_164_800)
        #expect(Quantities.epoch(iso8601: "2026-02-29T00:00:00Z") == nil)
        #expect(Quantities.epoch(iso8601: "2026-11-21T24:00:00Z") == nil)
        #expect(Quantities.epoch(iso8601: "2026-11-21T06:00:00Q") == nil)
    }

    // MARK: Helpers

    private func loadError(_ yaml: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.parse(yaml: yaml, source: "demo.yaml")
            return nil
        } catch {
            return error
        }
    }

    private func errorText(_ yaml: String) -> String? {
        loadError(yaml)?.description
    }

    private func loadError(path: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.load(contentsOf: path)
            return nil
        } catch {
            return error
        }
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "offstage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
