import Foundation
import OffstageCore
import Yams

/// Reads a scenario file (YAML) into a `Scenario`, with errors that name the file, the line and the field.
///
/// The format, all of it (unknown keys are errors, so a typo never passes silently):
///
/// ```yaml
/// name: A day with ColorFeed            # required
/// seed: 7                               # optional, default 1
/// start: 2026-11-21T06:00:00Z           # optional ISO 8601 wall clock at t=0 (UTC when no zone is given);
///                                       # default 2026-11-21T00:00:00Z
/// duration: 1d                          # optional: how long to run, as a duration or a timeline time ("1d 09:00");
///                                       # default: 1 h after the last timeline entry
/// policy:                               # optional overrides; keys are the property names of OffstageCore.Policy
///   backgroundTimeAllowance: 30s        # durations for the seconds properties, plain numbers too
///   maxPendingProcessingRequests: 10    # whole numbers for the counts
///   criticalBatteryLevel: 20%           # a percentage or a fraction 0–1
///   defaultMemoryFootprint: 50MB        # a size
///   power: { cellularTailSeconds: 10s, screenWatts: 1W, wifiJoulesPerByte: 1µJ }   # PowerModel properties
///   strategy: judgement                 # judgement | literal | fixed 15m | oracle 1m (see SchedulingStrategy)
/// device:
///   battery: 80%                        # or 0.8, or { capacity: 12Wh, level: 80%, charging: false,
///                                       #              chargingPower: 12W, taper: 80% }
///   charging: false                     # (or in battery:, not both)
///   network: wifi                       # wifi | cellular | none
///   thermal: nominal                    # nominal | fair | serious | critical
///   screen: on                          # on | off  (off also means locked, and the device idle since t=0)
///   locked: false
///   gpu: false                          # hasBackgroundGPU
/// settings:
///   backgroundAppRefresh: true
///   backgroundAppRefreshRestricted: false
///   backgroundAppRefreshOff: [com.example.news]      # apps whose own switch is off
///   continuedProcessingOff: []
///   lowPowerMode: false
///   lowDataMode: false
/// apps:
///   - code: ColorFeed                   # a real Swift app known to the host; its manifest still comes from here
///     memory: 120MB
///     manifest:                         # Info.plist keys, handed to AppManifest(dictionary:source:)
///       CFBundleIdentifier: com.colorfeed.wwdc25
///       UIBackgroundModes: [fetch, processing]
///       BGTaskSchedulerPermittedIdentifiers: [com.colorfeed.wwdc25.appRefresh, "com.colorfeed.wwdc25.*"]
///       Entitlements: {com.apple.developer.background-tasks.continued-processing.gpu: true}
///   - plist: News.app/Info.plist        # instead of manifest: an Info.plist, relative to the scenario file
///     behaviour:                        # a declarative app (not with code:)
///       register: [com.example.news.refresh]   # launch handlers registered in didFinishLaunching
///       onLaunch:
///         - submit: { refresh: com.example.news.refresh, after: 1h }
///       onBecomeActive: []
///       onEnterBackground:
///         - backgroundTask: { name: save, work: 3s }   # leak: true never ends it; cpu:, gpu:, bytes: too
///         - work: 1s                    # or { duration: 1s, cpu: 0.3, gpu: 0, bytes: 0 }
///       onTap:                          # actions the timeline triggers with `tap APP NAME`
///         export:
///           - register: com.example.news.export.job1
///           - submit: { continued: com.example.news.export.job1, title: Exporting, subtitle: 3 files,
///                       strategy: fail, gpu: false }
///       tasks:                          # what each task's launch handler does, by identifier
///         com.example.news.refresh:
///           work: 5s..12s               # fixed or a range drawn with the seed; default 1s
///           cpu: 0.3                    # cores kept busy (or 30%); default 0.3
///           gpu: 0                      # fraction of the GPU; default 0
///           bytes: 2MB                  # network bytes over the work; default 0
///           success: true               # default true
///           onExpiration: stop          # stop | ignore | none; default stop
///           then:                       # actions just before setTaskCompleted
///             - submit: { refresh: com.example.news.refresh, after: 1h }
/// timeline:                             # in time order
///   - at: "07:00"                       # "HH:MM[:SS]" after the start, "1d 07:30" adds days;
///     do: open com.colorfeed.wwdc25     # or a duration: 90s, 15m, 2h, 1h30m, 1d
///   - { at: 7h05m, do: home }
/// routine:                              # repeated on every day of the run (needs duration:), merged
///   - at: "07:30"                       # with the timeline; "HH:MM" after the start of each day
///     jitter: 20m                       # optional: moved by up to ± this, drawn with the seed
///     days: weekdays                    # daily (default) | weekdays | weekends (of the wall clock, UTC)
///     open: com.example.news            # a session: open the app, then lock the device after `for`
///     for: 5m                           # default 5m
///   - { at: "23:00", do: plug }         # or any timeline command instead of open:
/// ```
///
/// Actions: `submit:` takes exactly one of `refresh:`, `processing:`, `continued:` (the identifier, which sets
/// the kind) and the fields of that kind's request class: `after` (a duration; refresh and processing),
/// `network` and `power` (booleans; processing), `title`, `subtitle`, `strategy` (queue | fail) and `gpu`
/// (continued). The others are `backgroundTask: {name, work, leak}`, `work: DURATION`, `register: ID`,
/// `cancel: ID` and `cancelAll: true`. An app has exactly one of `manifest:`/`plist:`, and at most one of
/// `code:`/`behaviour:`; two apps may not share a bundle identifier. `do:` is a `UserCommand`; the apps it
/// names must be in the scenario, and a `tap` on a declarative app must name one of its `onTap` actions.
///
/// Quantities: durations `90s`, `0.5s`, `15m`, `2h`, `1d`, `1h30m`, `1d2h` (plain numbers are seconds);
/// ranges `A..B` for work; sizes `500KB`, `120MB`, `1.5GB` (decimal, plain integers are bytes); fractions
/// `80%` or 0–1; powers `1.5W`, `40mW`; energies `1J`, `3µJ`; capacities `12Wh`; CPU loads `0.3` or `30%`.
public enum ScenarioLoader {
    /// Reads and parses the scenario file at `path`; `plist:` paths are relative to its directory. With
    /// `swiftApps`, the names a host knows, a `code:` naming another is an error at its line.
    /// An unreadable file, a folder, bad YAML and bad fields all come out as a `ScenarioError`.
    public static func load(contentsOf path: String, swiftApps: Set<String>? = nil) throws(ScenarioError) -> Scenario {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ScenarioError(source: path, message: "no such file")
        }
        guard !isFolder.boolValue else {
            throw ScenarioError(source: path, message: "is a folder, not a scenario file (a YAML file like demo.yaml)")
        }
        // A file handle reads devices and pipes too (`/dev/null` is empty, `<(…)` a pipe).
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ScenarioError(source: path, message: "cannot read the file (permission denied?)")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw ScenarioError(source: path, message: "cannot read the file (\(error.localizedDescription))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScenarioError(source: path, message: "not UTF-8 text")
        }
        return try parse(yaml: text, source: path, swiftApps: swiftApps)
    }

    /// Parses a scenario from YAML text; `source` names it in errors and reports.
    /// When `source` is a path, `plist:` paths are read relative to its directory.
    public static func parse(yaml: String, source: String, swiftApps: Set<String>? = nil) throws(ScenarioError)
        -> Scenario
    {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw syntaxError(error, yaml: yaml, source: source)
        }
        guard let root else {
            throw ScenarioError(
                source: source, line: 1, message: "the scenario is empty: it needs at least 'name:'")
        }
        let reader = ScenarioReader(source: source, swiftApps: swiftApps)
        var scenario = try reader.scenario(Field(node: root, path: "", source: source))
        scenario.warnings = reader.warnings.list
        return scenario
    }

    /// Parses a policy file (YAML, or JSON, which is YAML too): a mapping of the same `Policy` properties as a
    /// scenario's `policy:`, and `strategy:`; errors name the field and its line.
    static func parsePolicy(yaml: String, source: String) throws(ScenarioError) -> (Policy, SchedulingStrategy) {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw syntaxError(error, yaml: yaml, source: source)
        }
        guard let root else { throw ScenarioError(source: source, line: 1, message: "the policy file is empty") }
        return try ScenarioReader(source: source).policy(Field(node: root, path: "", source: source))
    }

    /// What a `Policy` property takes, and where it goes.
    enum PolicySetting {
        case seconds(WritableKeyPath<Policy, Double>)
        case fraction(WritableKeyPath<Policy, Double>)
        case count(WritableKeyPath<Policy, Int>)
        case bytes(WritableKeyPath<Policy, Int>)
        case data(WritableKeyPath<Policy, Double>)
        case energy(WritableKeyPath<Policy, Double>)
        /// A weight or a multiplier (0 or more).
        case factor(WritableKeyPath<Policy, Double>)
        /// `power:`, a mapping of `PowerModel` properties (see `powerSettings`).
        case power
        /// `strategy:`, the scheduling strategy (see `SchedulingStrategy.parse`).
        case strategy
    }

    /// Every `Policy` property a scenario may set, by its Swift name (a test checks none is missing), and
    /// `strategy`, the simulator's.
    static var policySettings: [(name: String, setting: PolicySetting)] {
        [
            ("didEnterBackgroundDeadline", .seconds(\.didEnterBackgroundDeadline)),
            ("willTerminateDeadline", .seconds(\.willTerminateDeadline)),
            ("backgroundTimeAllowance", .seconds(\.backgroundTimeAllowance)),
            ("assertionExpirationWarning", .seconds(\.assertionExpirationWarning)),
            ("maxOutstandingAssertions", .count(\.maxOutstandingAssertions)),
            ("maxPendingRefreshRequests", .count(\.maxPendingRefreshRequests)),
            ("maxPendingProcessingRequests", .count(\.maxPendingProcessingRequests)),
            ("refreshRuntime", .seconds(\.refreshRuntime)),
            ("processingRuntime", .seconds(\.processingRuntime)),
            ("expirationGrace", .seconds(\.expirationGrace)),
            ("criticalBatteryLevel", .fraction(\.criticalBatteryLevel)),
            ("deviceIdleDelay", .seconds(\.deviceIdleDelay)),
            ("maxConcurrentContinuedProcessingTasks", .count(\.maxConcurrentContinuedProcessingTasks)),
            ("defaultMemoryFootprint", .bytes(\.defaultMemoryFootprint)),
            // Continued processing and resource limits.
            ("continuedProcessingStallTimeout", .seconds(\.continuedProcessingStallTimeout)),
            ("continuedProcessingSlowLimit", .seconds(\.continuedProcessingSlowLimit)),
            ("continuedProcessingOutcomeDisplay", .seconds(\.continuedProcessingOutcomeDisplay)),
            ("backgroundCPULimit", .fraction(\.backgroundCPULimit)),
            ("backgroundCPUWindow", .seconds(\.backgroundCPUWindow)),
            ("backgroundMemoryLimit", .bytes(\.backgroundMemoryLimit)),
            ("power", .power),
            ("backgroundPushRateLimit", .count(\.backgroundPushRateLimit)),
            ("backgroundPushRateWindow", .seconds(\.backgroundPushRateWindow)),
            ("backgroundPushRuntime", .seconds(\.backgroundPushRuntime)),
            ("backgroundFetchRuntime", .seconds(\.backgroundFetchRuntime)),
            ("minimumBackgroundFetchInterval", .seconds(\.minimumBackgroundFetchInterval)),
            ("slowBackgroundFetch", .seconds(\.slowBackgroundFetch)),
            ("maxBackgroundFetchBackoff", .count(\.maxBackgroundFetchBackoff)),
            ("locationEventRuntime", .seconds(\.locationEventRuntime)),
            // Life cycle and background time, as iOS does them (issue 16).
            ("transitionWatchdogTimeout", .seconds(\.transitionWatchdogTimeout)),
            ("lowPowerModeBackgroundTimeAllowance", .seconds(\.lowPowerModeBackgroundTimeAllowance)),
            ("lowPowerModeOffWhileChargingLevel", .fraction(\.lowPowerModeOffWhileChargingLevel)),
            ("discretionaryRateLimit", .seconds(\.discretionaryRateLimit)),
            ("refreshEarlyExpiry", .seconds(\.refreshEarlyExpiry)),
            ("backgroundSessionWakeDelay", .seconds(\.backgroundSessionWakeDelay)),
            ("backgroundSessionEventsRuntime", .seconds(\.backgroundSessionEventsRuntime)),
            ("strategy", .strategy),
        ] + judgementSettings
    }

    /// The `JudgementPolicy` properties, set under `policy:` by their Swift names like the others.
    static var judgementSettings: [(name: String, setting: PolicySetting)] {
        [
            ("activeWithin", .seconds(\.judgement.activeWithin)),
            ("workingSetWithin", .seconds(\.judgement.workingSetWithin)),
            ("frequentWithin", .seconds(\.judgement.frequentWithin)),
            ("rareWithin", .seconds(\.judgement.rareWithin)),
            ("dailyUseDays", .count(\.judgement.dailyUseDays)),
            ("processingSpacing", .seconds(\.judgement.processingSpacing)),
            ("littleKnownLaunches", .count(\.judgement.littleKnownLaunches)),
            ("littleKnownSpacing", .seconds(\.judgement.littleKnownSpacing)),
            ("regularUseDays", .count(\.judgement.regularUseDays)),
            ("quotaWindow", .seconds(\.judgement.quotaWindow)),
            ("quotaActive", .count(\.judgement.quotaActive)),
            ("quotaWorkingSet", .count(\.judgement.quotaWorkingSet)),
            ("quotaFrequent", .count(\.judgement.quotaFrequent)),
            ("quotaRare", .count(\.judgement.quotaRare)),
            ("historyWindow", .seconds(\.judgement.historyWindow)),
            ("likelihoodLearningDays", .count(\.judgement.likelihoodLearningDays)),
            ("awakeRunCost", .fraction(\.judgement.awakeRunCost)),
            ("wakeRunCost", .fraction(\.judgement.wakeRunCost)),
            ("cellularRunCost", .fraction(\.judgement.cellularRunCost)),
            ("radioTailExtension", .fraction(\.judgement.radioTailExtension)),
            ("lowBatteryLevel", .fraction(\.judgement.lowBatteryLevel)),
            ("lowBatteryCostFactor", .factor(\.judgement.lowBatteryCostFactor)),
            ("likelihoodPriorWeight", .factor(\.judgement.likelihoodPriorWeight)),
            ("likelihoodHalfLife", .seconds(\.judgement.likelihoodHalfLife)),
            ("habitDays", .count(\.judgement.habitDays)),
            ("habitRegularity", .fraction(\.judgement.habitRegularity)),
            ("habitPriorWeight", .factor(\.judgement.habitPriorWeight)),
            ("refreshReservationMargin", .factor(\.judgement.refreshReservationMargin)),
            ("refreshUseWeight", .fraction(\.judgement.refreshUseWeight)),
            ("energyBudgetCapacity", .energy(\.judgement.energyBudgetCapacity)),
            ("energyBudgetPerDay", .energy(\.judgement.energyBudgetPerDay)),
            ("refreshEnergyReservation", .energy(\.judgement.refreshEnergyReservation)),
            ("processingEnergyReservation", .energy(\.judgement.processingEnergyReservation)),
            ("dataBudgetCapacity", .data(\.judgement.dataBudgetCapacity)),
            ("dataBudgetPerDay", .data(\.judgement.dataBudgetPerDay)),
            ("dataReservation", .data(\.judgement.dataReservation)),
            ("maintenanceInterval", .seconds(\.judgement.maintenanceInterval)),
            ("maintenanceWindow", .seconds(\.judgement.maintenanceWindow)),
            ("cooperationWeight", .fraction(\.judgement.cooperationWeight)),
            ("minimumCooperation", .fraction(\.judgement.minimumCooperation)),
            ("quickShare", .fraction(\.judgement.quickShare)),
        ]
    }

    /// Every `PowerModel` property a scenario may set under `policy: power:`, with its parser and hint
    /// (a test checks none is missing).
    static var powerSettings:
        [(name: String, path: WritableKeyPath<PowerModel, Double>, parse: (String) -> Double?, hint: String)]
    {
        [
            ("baselineWatts", \.baselineWatts, Quantities.watts, Quantities.wattsHint),
            ("screenWatts", \.screenWatts, Quantities.watts, Quantities.wattsHint),
            ("cpuWattsPerCore", \.cpuWattsPerCore, Quantities.watts, Quantities.wattsHint),
            ("gpuWatts", \.gpuWatts, Quantities.watts, Quantities.wattsHint),
            ("wifiJoulesPerByte", \.wifiJoulesPerByte, Quantities.joules, Quantities.joulesHint),
            ("cellularJoulesPerByte", \.cellularJoulesPerByte, Quantities.joules, Quantities.joulesHint),
            ("cellularTailSeconds", \.cellularTailSeconds, Quantities.seconds, Quantities.durationHint),
            ("cellularTailWatts", \.cellularTailWatts, Quantities.watts, Quantities.wattsHint),
            ("wakeUpJoules", \.wakeUpJoules, Quantities.joules, Quantities.joulesHint),
        ]
    }

    /// A Yams error as a `ScenarioError` with the line of the problem.
    private static func syntaxError(_ error: any Error, yaml: String, source: String) -> ScenarioError {
        switch error as? YamlError {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            var message = "invalid YAML: \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line))" }
            return ScenarioError(source: source, line: mark.line, message: message)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return ScenarioError(
                source: source, line: context.mark.line,
                message: "invalid YAML: key \(keys) appears more than once in the same mapping")
        case .reader(let problem, let offset, _, _):
            let line = offset.map { offset in yaml.prefix(offset).count(where: \.isNewline) + 1 }
            return ScenarioError(source: source, line: line, message: "invalid YAML: \(problem)")
        default:
            return ScenarioError(source: source, message: "invalid YAML: \(error)")
        }
    }
}

// MARK: - The scenario's parts

/// Walks the composed YAML of one scenario and builds its parts, failing at the first bad field.
struct ScenarioReader {
    let source: String
    /// The Swift apps the host knows, when it said (`code:` is checked here, at its line).
    var swiftApps: Set<String>?
    /// What is accepted but probably not meant (a mistyped Info.plist key, an unknown background mode).
    let warnings = ScenarioWarnings()

    func scenario(_ root: Field) throws(ScenarioError) -> Scenario {
        let table = try root.table(
            [
                "name", "seed", "start", "duration", "policy", "device", "settings", "apps", "timeline", "routine",
                "network",
            ],
            expecting: "a mapping of scenario keys (name:, apps:, timeline:…)")
        var scenario = Scenario(name: try table.required("name").string(), source: source)
        if let field = table["seed"] {
            scenario.seed = try field.quantity({ UInt64($0.trimmingSpaces) }, "a whole number like 7")
        }
        if let field = table["start"] {
            scenario.startEpoch = try field.quantity(Quantities.epoch(iso8601:), Quantities.dateHint)
        }
        if let field = table["duration"] {
            let duration = try field.quantity(Quantities.timelineOffset, Quantities.timeHint)
            guard duration > 0 else { throw field.error("must be longer than 0s") }
            scenario.duration = duration
        }
        if let field = table["policy"] { (scenario.policy, scenario.strategy) = try policy(field) }
        if let field = table["device"] { try device(field, into: &scenario.device) }
        // idleSince follows the screen: the device is idle only with the screen off (and so locked).
        scenario.device.idleSince = scenario.device.isScreenOn ? nil : .zero
        if let field = table["apps"] { scenario.apps = try apps(field) }
        if let field = table["network"] { scenario.network = try network(field) }
        if let field = table["settings"] {
            scenario.settings = try settings(field, apps: scenario.apps)
        }
        if let field = table["timeline"] {
            scenario.timeline = try timeline(
                field, device: scenario.device, apps: scenario.apps, duration: scenario.duration)
        }
        if let field = table["routine"] {
            guard let duration = scenario.duration else {
                throw field.error("a routine repeats every day of the run, so the scenario needs duration:")
            }
            let repeated = try routine(field, scenario: scenario, duration: duration)
            scenario.timeline = (scenario.timeline + repeated).enumerated()
                .sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        }
        return scenario
    }

    /// The `policy:` mapping: the core's policy, and the scheduling strategy (`strategy:`, the simulator's).
    func policy(_ field: Field) throws(ScenarioError) -> (Policy, SchedulingStrategy) {
        let settings = ScenarioLoader.policySettings
        let table = try field.table(settings.map(\.name), expecting: "a mapping of Policy properties")
        var policy = Policy.iOS
        var strategy = SchedulingStrategy.judgement
        for entry in table.entries {
            guard let setting = settings.first(where: { $0.name == entry.key })?.setting else { continue }
            let value = entry.value
            switch setting {
            case .seconds(let path):
                policy[keyPath: path] = try value.quantity(Quantities.seconds, Quantities.durationHint)
            case .fraction(let path):
                policy[keyPath: path] = try value.quantity(Quantities.fraction, Quantities.fractionHint)
            case .count(let path):
                policy[keyPath: path] = try value.quantity(Quantities.count, Quantities.countHint)
            case .bytes(let path):
                policy[keyPath: path] = try value.quantity(Quantities.bytes, Quantities.sizeHint)
            case .data(let path):
                policy[keyPath: path] = Double(try value.quantity(Quantities.bytes, Quantities.sizeHint))
            case .energy(let path):
                policy[keyPath: path] = try value.quantity(Quantities.joules, Quantities.joulesHint)
            case .factor(let path):
                policy[keyPath: path] = try value.quantity(Quantities.factor, Quantities.factorHint)
            case .power:
                policy.power = try power(value)
            case .strategy:
                strategy = try value.quantity(SchedulingStrategy.init(text:), SchedulingStrategy.hint)
            }
        }
        return (policy, strategy)
    }

    /// `policy: power:`: what each thing costs, in watts, joules and seconds.
    func power(_ field: Field) throws(ScenarioError) -> PowerModel {
        let settings = ScenarioLoader.powerSettings
        let table = try field.table(settings.map(\.name), expecting: "a mapping of PowerModel properties")
        var power = PowerModel()
        for entry in table.entries {
            guard let setting = settings.first(where: { $0.name == entry.key }) else { continue }
            power[keyPath: setting.path] = try entry.value.quantity(setting.parse, setting.hint)
        }
        return power
    }

    func device(_ field: Field, into device: inout DeviceState) throws(ScenarioError) {
        let table = try field.table(
            ["battery", "charging", "network", "thermal", "screen", "locked", "gpu", "resumeCallback"],
            expecting: "a mapping")
        if let value = table["battery"] { try battery(value, into: &device, charging: table["charging"]) }
        if let value = table["charging"] { device.isCharging = try value.bool() }
        if let value = table["network"] {
            device.network = try value.choice(NetworkKind.allCases.map { ($0.rawValue, $0) })
        }
        if let value = table["thermal"] {
            device.thermalState = try value.choice(ThermalState.allCases.map { ($0.rawValue, $0) })
        }
        if let value = table["screen"] {
            device.isScreenOn = try value.choice([("on", true), ("off", false)])
        }
        if let value = table["locked"] { device.isLocked = try value.bool() }
        if let value = table["gpu"] { device.hasBackgroundGPU = try value.bool() }
        if let value = table["resumeCallback"] {
            device.resumeCallback = try value.choice(ResumeCallback.allCases.map { ($0.rawValue, $0) })
        }
        if !device.isScreenOn {
            if let locked = table["locked"], !device.isLocked {
                throw locked.error(
                    "the screen is off, which means locked: remove 'locked: false' or set 'screen: on'")
            }
            device.isLocked = true
        }
    }

    /// `battery:` as a level (`80%`), or the whole battery: `{capacity: 12Wh, level: 80%, charging: false,
    /// chargingPower: 12W, taper: 80%}`. `charging` goes in one place only.
    private func battery(_ field: Field, into device: inout DeviceState, charging: Field?) throws(ScenarioError) {
        guard case .mapping = field.node else {
            device.batteryLevel = try field.quantity(Quantities.fraction, Quantities.fractionHint)
            return
        }
        let table = try field.table(
            ["capacity", "level", "charging", "chargingPower", "taper"],
            expecting: "a level like 80%, or a mapping (capacity:, level:, charging:, chargingPower:, taper:)")
        if let value = table["capacity"] {
            device.battery.capacityWattHours = try value.quantity(Quantities.wattHours, Quantities.wattHoursHint)
        }
        if let value = table["level"] {
            device.batteryLevel = try value.quantity(Quantities.fraction, Quantities.fractionHint)
        }
        if let value = table["charging"] {
            if charging != nil {
                throw value.error(
                    "'charging' is given twice: keep either 'device.charging' or 'device.battery.charging'")
            }
            device.isCharging = try value.bool()
        }
        if let value = table["chargingPower"] {
            device.battery.chargingWatts = try value.quantity(Quantities.watts, Quantities.wattsHint)
        }
        if let value = table["taper"] {
            device.battery.taperLevel = try value.quantity(Quantities.fraction, Quantities.fractionHint)
        }
    }

    func settings(_ field: Field, apps: [ScenarioApp]) throws(ScenarioError) -> UserSettings {
        let table = try field.table(
            [
                "backgroundAppRefresh", "backgroundAppRefreshRestricted", "backgroundAppRefreshOff",
                "continuedProcessingOff", "lowPowerMode", "lowDataMode", "fullAccess",
            ], expecting: "a mapping")
        var settings = UserSettings()
        if let value = table["backgroundAppRefresh"] {
            settings.backgroundAppRefresh = try value.bool()
        }
        if let value = table["backgroundAppRefreshRestricted"] {
            settings.backgroundAppRefreshRestricted = try value.bool()
        }
        if let value = table["backgroundAppRefreshOff"] {
            settings.backgroundAppRefreshOff = try appSet(value, apps: apps)
        }
        if let value = table["continuedProcessingOff"] {
            settings.continuedProcessingOff = try appSet(value, apps: apps)
        }
        if let value = table["lowPowerMode"] { settings.lowPowerMode = try value.bool() }
        if let value = table["lowDataMode"] { settings.lowDataMode = try value.bool() }
        if let value = table["fullAccess"] { settings.fullAccessKeyboards = try appSet(value, apps: apps) }
        return settings
    }

    /// A list of bundle identifiers, each of an app of the scenario.
    private func appSet(_ field: Field, apps: [ScenarioApp]) throws(ScenarioError) -> Set<BundleID> {
        var result: Set<BundleID> = []
        for item in try field.list(expecting: "a list of bundle identifiers") {
            let app = BundleID(try item.string())
            try checkKnown(app, apps: apps, at: item)
            result.insert(app)
        }
        return result
    }

    /// Fails unless `app` is one of the scenario's apps: a typo would otherwise change nothing, silently.
    private func checkKnown(_ app: BundleID, apps: [ScenarioApp], at field: Field)
        throws(ScenarioError)
    {
        guard !apps.contains(where: { $0.manifest.bundleIdentifier == app }) else { return }
        let known = apps.map(\.manifest.bundleIdentifier.rawValue)
        let list = known.isEmpty ? "it has none" : "they are " + known.joined(separator: ", ")
        throw field.error("unknown app '\(app)': not one of the scenario's apps (\(list))")
    }
}

// MARK: - Apps

extension ScenarioReader {
    func apps(_ field: Field) throws(ScenarioError) -> [ScenarioApp] {
        var apps: [ScenarioApp] = []
        var firstIndex: [BundleID: Int] = [:]
        for (index, item) in try field.list(expecting: "a list of apps").enumerated() {
            let (app, identifierField) = try self.app(item)
            let bundle = app.manifest.bundleIdentifier
            if let first = firstIndex[bundle] {
                throw identifierField.error(
                    "bundle identifier '\(bundle)' is already used by apps[\(first)]")
            }
            firstIndex[bundle] = index
            apps.append(app)
        }
        return apps
    }

    /// One app, and the field its bundle identifier came from (for the duplicate check).
    private func app(_ field: Field) throws(ScenarioError) -> (ScenarioApp, Field) {
        let table = try field.table(
            ["code", "memory", "manifest", "plist", "behaviour"],
            expecting: "an app: a mapping with manifest: or plist:, and code: or behaviour:")
        let manifest: AppManifest
        let identifierField: Field
        switch (table["manifest"], table["plist"]) {
        case (let inline?, nil):
            manifest = try self.manifest(inline)
            identifierField = inline.locate("CFBundleIdentifier") ?? inline
        case (nil, let path?):
            manifest = try plist(path)
            identifierField = path
        case (_?, let path?):
            throw path.error("an app has either 'manifest:' or 'plist:', not both")
        case (nil, nil):
            throw field.error(
                "an app needs 'manifest:' (its Info.plist keys) or 'plist:' (the path of its Info.plist)")
        }
        var app = ScenarioApp(manifest: manifest)
        app.sceneManifest = try sceneManifest(inline: table["manifest"], plist: table["plist"])
        if let code = table["code"] {
            if let behaviour = table["behaviour"] {
                throw behaviour.error("an app has either 'code:' (a Swift app) or 'behaviour:', not both")
            }
            let name = try code.string()
            if let known = swiftApps, !known.contains(name) {
                throw code.error(
                    "no Swift app named '\(name)' in this host (known: "
                        + (known.isEmpty ? "none" : known.sorted().joined(separator: ", ")) + ")")
            }
            app.code = name
        }
        if let behaviour = table["behaviour"] { app.behaviour = try self.behaviour(behaviour) }
        if let memory = table["memory"] {
            app.memoryFootprint = try memory.quantity(Quantities.bytes, Quantities.sizeHint)
        }
        return (app, identifierField)
    }

    /// `manifest:`: Info.plist keys written in YAML.
    private func manifest(_ field: Field) throws(ScenarioError) -> AppManifest {
        guard case .mapping = field.node else { throw field.expected("a mapping of Info.plist keys") }
        let dictionary = try field.propertyList()
        checkSpelling(of: dictionary as? [String: Any] ?? [:]) { key, message in
            (field.locate(key) ?? field).error(message)
        }
        do {
            return try AppManifest(dictionary: dictionary as? [String: Any] ?? [:], source: source)
        } catch {
            let culprit = error.field.flatMap { field.locate($0) } ?? field
            let path = field.path + (error.field.map { ".\($0)" } ?? "")
            throw ScenarioError(source: source, line: culprit.line, field: path, message: error.message)
        }
    }

    /// Warns of a key one typo away from an Info.plist key Offstage reads, and of a background mode iOS does not
    /// document, each with the nearest valid name: both are accepted and then silently do nothing.
    /// `warning` makes the warning about a key (a field path like `UIBackgroundModes[0]`) where it was written.
    private func checkSpelling(of manifest: [String: Any], warning: (String, String) -> ScenarioError) {
        for key in manifest.keys.sorted() where !AppManifest.readKeys.contains(key) {
            guard let nearest = Spelling.nearest(to: key, among: AppManifest.readKeys, within: 3) else { continue }
            warnings.add(
                warning(key, "unknown Info.plist key '\(key)': did you mean '\(nearest)'? (Offstage ignores '\(key)')"))
        }
        let modes = manifest["UIBackgroundModes"] as? [Any] ?? []
        let known = Set(BackgroundMode.known.map(\.rawValue))
        for (index, mode) in modes.enumerated() {
            guard let mode = mode as? String, !known.contains(mode) else { continue }
            let hint = Spelling.nearest(to: mode, among: known, within: 3).map { "did you mean '\($0)'? " } ?? ""
            warnings.add(
                warning(
                    "UIBackgroundModes[\(index)]",
                    "unknown background mode '\(mode)': \(hint)(iOS documents \(known.sorted().joined(separator: ", ")))"
                ))
        }
    }

    /// `plist:`: an Info.plist file, relative to the scenario's directory; its errors name that file.
    private func plist(_ field: Field) throws(ScenarioError) -> AppManifest {
        let relative = try field.string()
        var path = relative
        if !relative.hasPrefix("/"), let slash = source.lastIndex(of: "/") {
            path = String(source[...slash]) + relative
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw field.error("no such file '\(path)'")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw field.error("cannot read '\(path)' (\(error.localizedDescription))")
        }
        if let dictionary = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] {
            checkSpelling(of: dictionary) { key, message in ScenarioError(source: path, field: key, message: message) }
        }
        do {
            return try AppManifest(plist: data, source: path)
        } catch {
            throw ScenarioError(source: path, field: error.field, message: error.message)
        }
    }
}

// MARK: - Behaviour

extension ScenarioReader {
    func behaviour(_ field: Field) throws(ScenarioError) -> AppBehaviour {
        let table = try field.table(
            [
                "register", "onLaunch", "onBecomeActive", "onEnterBackground", "onTap", "tasks", "onPush", "onFetch",
                "onLocation",
            ],
            expecting: "a mapping of callbacks (register:, onLaunch:, tasks:…)")
        var behaviour = AppBehaviour()
        if let value = table["register"] {
            for item in try value.list(expecting: "a list of task identifiers") {
                behaviour.register.append(try item.string())
            }
        }
        if let value = table["onLaunch"] { behaviour.onLaunch = try actions(value) }
        if let value = table["onBecomeActive"] { behaviour.onBecomeActive = try actions(value) }
        if let value = table["onEnterBackground"] { behaviour.onEnterBackground = try actions(value) }
        if let value = table["onTap"] {
            for entry in try value.table(
                nil, expecting: "a mapping from action names to lists of actions"
            ).entries {
                guard !entry.key.contains(where: { $0 == " " || $0 == "\t" }) else {
                    throw entry.value.error("an onTap name is one word, as `tap APP NAME` reads it")
                }
                behaviour.onTap[entry.key] = try actions(entry.value)
            }
        }
        if let value = table["tasks"] {
            for entry in try value.table(
                nil, expecting: "a mapping from task identifiers to what they do"
            ).entries {
                behaviour.tasks[entry.key] = try task(entry.value)
            }
        }
        if let value = table["onPush"] { behaviour.onPush = try event(value) }
        if let value = table["onFetch"] { behaviour.onFetch = try event(value) }
        if let value = table["onLocation"] { behaviour.onLocation = try actions(value) }
        return behaviour
    }

    /// `onPush:` / `onFetch:`: work, then actions, then the completion handler with `result` (`none`: never).
    private func event(_ field: Field) throws(ScenarioError) -> EventBehaviour {
        let table = try field.table(["work", "result", "then"], expecting: "a mapping (work:, result:, then:)")
        var event = EventBehaviour()
        if let value = table["work"] {
            event.work = try value.quantity(Quantities.work, Quantities.workHint)
        }
        if let value = table["result"] {
            let results = BackgroundFetchResult.allCases.map { ($0.description, Optional($0)) }
            event.result = try value.choice(results + [("none", nil)])
        }
        if let value = table["then"] { event.then = try actions(value) }
        return event
    }

    private func task(_ field: Field) throws(ScenarioError) -> TaskBehaviour {
        let table = try field.table(
            ["work", "cpu", "gpu", "bytes", "success", "onExpiration", "then"],
            expecting: "a mapping (work:, cpu:, gpu:, bytes:, success:, onExpiration:, then:)")
        var task = TaskBehaviour()
        if let value = table["work"] {
            task.work = try value.quantity(Quantities.work, Quantities.workHint)
        }
        task.load = try load(table)
        if let value = table["success"] { task.success = try value.bool() }
        if let value = table["onExpiration"] {
            task.onExpiration = try value.choice(ExpirationBehaviour.allCases.map { ($0.rawValue, $0) })
        }
        if let value = table["then"] { task.then = try actions(value) }
        return task
    }

    private static let actionKeys = [
        "submit", "backgroundTask", "work", "load", "register", "cancel", "cancelAll", "fetchInterval", "startMode",
        "stopMode", "monitorSignificantChanges", "monitorRegion", "backgroundDownload",
    ]

    private func actions(_ field: Field) throws(ScenarioError) -> [BehaviourAction] {
        var actions: [BehaviourAction] = []
        for item in try field.list(expecting: "a list of actions") { actions.append(try action(item)) }
        return actions
    }

    /// A `work:` or `load:` action's value: a duration, or a mapping of the duration and its load.
    private func timedWork(_ value: Field) throws(ScenarioError) -> (WorkDuration, WorkLoad) {
        guard case .mapping = value.node else {
            return (try value.quantity(Quantities.work, Quantities.workHint), WorkLoad())
        }
        let work = try value.table(
            ["duration", "cpu", "gpu", "bytes"], expecting: "a mapping (duration:, cpu:, gpu:, bytes:)")
        return (try work.required("duration").quantity(Quantities.work, Quantities.workHint), try load(work))
    }

    private func action(_ field: Field) throws(ScenarioError) -> BehaviourAction {
        let expectation =
            "an action: one of " + Self.actionKeys.map { "\($0):" }.joined(separator: ", ")
        if field.scalarText == "cancelAll" { return .cancelAll }
        guard case .mapping(let mapping) = field.node, !mapping.isEmpty else {
            throw field.expected(expectation)
        }
        let keys = try field.table(nil, expecting: expectation).entries
        guard keys.count == 1 else {
            let names = keys.map { "'\($0.key)'" }.joined(separator: " and ")
            throw keys[1].value.error(
                "one action per list item, this one has \(names); start each with '-'")
        }
        let table = try field.table(Self.actionKeys, expecting: expectation)
        guard let entry = table.entries.first else { throw field.expected(expectation) }
        let value = entry.value
        switch entry.key {
        case "submit": return .submit(try request(value))
        case "work":
            let (duration, load) = try timedWork(value)
            return .work(duration, load: load)
        case "load":
            let (duration, load) = try timedWork(value)
            return .load(duration, load: load)
        case "register": return .register(try value.string())
        case "cancel": return .cancel(try value.string())
        case "cancelAll":
            guard try value.bool() else {
                throw value.error("write 'cancelAll: true', or leave the action out")
            }
            return .cancelAll
        case "fetchInterval":
            switch value.scalarText {
            case "minimum": return .fetchInterval(0)
            case "never": return .fetchInterval(nil)
            default:
                return .fetchInterval(
                    try value.quantity(Quantities.seconds, "minimum, never or " + Quantities.durationHint))
            }
        case "startMode", "stopMode":
            let modes = BackgroundMode.continuous.sorted().map { ($0.rawValue, $0) }
            let mode = try value.choice(modes)
            return entry.key == "startMode" ? .startMode(mode) : .stopMode(mode)
        case "monitorSignificantChanges": return .monitorSignificantChanges(try value.bool())
        case "monitorRegion": return .monitorRegion(try value.string())
        case "backgroundDownload":
            let table = try value.table(
                ["url", "session", "discretionary", "launchEvents"],
                expecting: "a mapping (url:, session:, discretionary:, launchEvents:)")
            var download = BackgroundDownload(
                url: try table.required("url").string(), session: try table.required("session").string())
            download.isDiscretionary = try table["discretionary"]?.bool() ?? false
            download.sendsLaunchEvents = try table["launchEvents"]?.bool() ?? true
            return .backgroundDownload(download)
        default:
            let task = try value.table(
                ["name", "work", "leak", "cpu", "gpu", "bytes"],
                expecting: "a mapping (name:, work:, leak:, cpu:, gpu:, bytes:)")
            let work = try task.required("work").quantity(Quantities.work, Quantities.workHint)
            return .backgroundTask(
                name: try task["name"]?.string() ?? "", work: work, leak: try task["leak"]?.bool() ?? false,
                load: try load(task))
        }
    }

    /// What a piece of work uses, from its `cpu:`, `gpu:` and `bytes:` keys (each optional).
    private func load(_ table: Table) throws(ScenarioError) -> WorkLoad {
        var load = WorkLoad()
        if let value = table["cpu"] { load.cpu = try value.quantity(Quantities.cores, Quantities.coresHint) }
        if let value = table["gpu"] { load.gpu = try value.quantity(Quantities.fraction, Quantities.fractionHint) }
        if let value = table["bytes"] { load.bytes = try value.quantity(Quantities.bytes, Quantities.sizeHint) }
        return load
    }

    /// `submit:`: the kind key names the request class, and only that class's fields are allowed.
    private func request(_ field: Field) throws(ScenarioError) -> RequestTemplate {
        let kinds: [(key: String, kind: TaskKind, fields: [String])] = [
            ("refresh", .appRefresh, ["after"]),
            ("processing", .processing, ["after", "network", "power"]),
            ("healthResearch", .processing, ["after", "network", "power"]),
            ("continued", .continuedProcessing, ["title", "subtitle", "strategy", "gpu"]),
        ]
        let table = try field.table(
            kinds.map(\.key) + ["after", "network", "power", "title", "subtitle", "strategy", "gpu"],
            expecting:
                "a request: { refresh: ID, after: 1h }, { processing: ID, … }, { healthResearch: ID, … } or "
                + "{ continued: ID, … }")
        let given = kinds.filter { table[$0.key] != nil }
        guard given.count == 1, let kind = given.first, let identifier = table[kind.key] else {
            let message =
                "a request names exactly one of 'refresh:', 'processing:', 'healthResearch:' or 'continued:' (its identifier)"
            throw (given.count > 1 ? table[given[1].key] ?? field : field).error(message)
        }
        for entry in table.entries where entry.key != kind.key && !kind.fields.contains(entry.key) {
            let owners = kinds.filter { $0.fields.contains(entry.key) }.map(\.key)
            let named =
                owners.dropLast().joined(separator: ", ") + (owners.count > 1 ? " and " : "") + (owners.last ?? "")
            throw entry.value.error("'\(entry.key)' is for \(named) requests, not \(kind.key)")
        }
        var template = RequestTemplate(identifier: try identifier.string(), kind: kind.kind)
        if kind.key == "healthResearch" {  // BGHealthResearchTaskRequest's default protection
            template.protectionTypeOfRequiredData = "NSFileProtectionCompleteUntilFirstUserAuthentication"
        }
        if let value = table["after"] {
            template.after = try value.quantity(Quantities.seconds, Quantities.durationHint)
        }
        if let value = table["network"] { template.requiresNetworkConnectivity = try value.bool() }
        if let value = table["power"] { template.requiresExternalPower = try value.bool() }
        if let value = table["title"] { template.title = try value.string() }
        if let value = table["subtitle"] { template.subtitle = try value.string() }
        if let value = table["strategy"] {
            template.strategy = try value.choice([("queue", .queue), ("fail", .fail)])
        }
        if let value = table["gpu"] { template.requiresGPU = try value.bool() }
        return template
    }
}

// MARK: - Timeline

extension ScenarioReader {
    /// The entries in time order; `device` is tracked along so that `battery`, `plug` and `unplug`
    /// keep the part of the power state they do not name.
    func timeline(_ field: Field, device start: DeviceState, apps: [ScenarioApp], duration: Double?)
        throws(ScenarioError) -> [TimelineEntry]
    {
        var device = start
        var entries: [TimelineEntry] = []
        for item in try field.list(expecting: "a list of { at: TIME, do: COMMAND }") {
            let table = try item.table(["at", "do"], expecting: "an entry: { at: TIME, do: COMMAND }")
            let atField = try table.required("at")
            let at = try atField.quantity(Quantities.timelineOffset, Quantities.timeHint)
            if let previous = entries.last, at < previous.at {
                throw atField.error(
                    "\(Self.describe(at)) comes before the entry above it (\(Self.describe(previous.at)), line "
                        + "\(previous.line)); entries go in time order")
            }
            if let duration, at > duration {
                throw atField.error(
                    "\(Self.describe(at)) is after the end of the run (duration: \(Self.describe(duration)))")
            }
            let doField = try table.required("do")
            let text = try doField.string()
            let action: UserAction
            do {
                action = try UserCommand.parse(text, device: device)
            } catch {
                throw doField.error(error.message)
            }
            try check(action, apps: apps, at: doField)
            switch action {
            case .system(.setBattery(let level, let charging)):
                device.batteryLevel = level
                device.isCharging = charging
            case .system(.setCharging(let charging)):
                device.isCharging = charging
            default:
                break
            }
            entries.append(TimelineEntry(at: at, action: action, line: item.line ?? 0))
        }
        return entries
    }

    /// The routine's entries on every matching day of the run: sessions (open, then lock after `for`)
    /// or single commands, each moved by its seeded jitter and kept inside the run.
    func routine(_ field: Field, scenario: Scenario, duration: Double) throws(ScenarioError) -> [TimelineEntry] {
        var entries: [TimelineEntry] = []
        for item in try field.list(
            expecting: "a list of { at: TIME, open: APP, for: DURATION } or { at: TIME, do: COMMAND }")
        {
            let table = try item.table(
                ["at", "jitter", "days", "open", "for", "do"], expecting: "a routine entry: { at: TIME, open: APP }")
            let atField = try table.required("at")
            let at = try atField.quantity(Quantities.timelineOffset, Quantities.timeHint)
            guard at < 86_400 else { throw atField.error("a routine time is within a day, like \"07:30\"") }
            let jitter = try table["jitter"]?.quantity(Quantities.seconds, Quantities.durationHint) ?? 0
            let days: Set<Int> =
                try table["days"]?.choice([("daily", Set(0...6)), ("weekdays", Set(1...5)), ("weekends", [0, 6])])
                ?? Set(0...6)
            var actions: [(offset: Double, action: UserAction)]
            switch (table["open"], table["do"]) {
            case (let open?, nil):
                let app = BundleID(try open.string())
                try checkKnown(app, apps: scenario.apps, at: open)
                let length = try table["for"]?.quantity(Quantities.seconds, Quantities.durationHint) ?? 300
                actions = [(0, .system(.open(app))), (length, .system(.lock))]
            case (nil, let command?):
                if let extra = table["for"] { throw extra.error("for: goes with open:, not with do:") }
                let text = try command.string()
                do {
                    actions = [(0, try UserCommand.parse(text, device: scenario.device))]
                } catch {
                    throw command.error(error.message)
                }
                try check(actions[0].action, apps: scenario.apps, at: command)
            default:
                throw item.error("a routine entry needs exactly one of open: and do:")
            }
            var random = SeededRandom(seed: scenario.seed &+ UInt64(item.line ?? 0) &* 0x9E37_79B9)
            let clock = WallClock(epochAtZero: scenario.startEpoch)
            for day in 0..<Int((duration / 86_400).rounded(.up)) {
                let base = Double(day) * 86_400 + at
                guard days.contains(clock.localWeekday(at: Instant(seconds: base))) else { continue }
                let start = max(0, base + random.seconds(.between(-jitter, jitter)))
                for (offset, action) in actions where start + offset < duration {
                    entries.append(TimelineEntry(at: start + offset, action: action, line: item.line ?? 0))
                }
            }
        }
        return entries
    }

    /// Fails if the action names an app the scenario lacks, or taps a control a declarative app lacks.
    private func check(_ action: UserAction, apps: [ScenarioApp], at field: Field)
        throws(ScenarioError)
    {
        switch action {
        case .tap(let bundle, let name):
            try checkKnown(bundle, apps: apps, at: field)
            guard let app = apps.first(where: { $0.manifest.bundleIdentifier == bundle }),
                app.code == nil,
                app.behaviour.onTap[name] == nil
            else { return }
            let names = app.behaviour.onTap.keys.sorted()
            let known = names.isEmpty ? "it has none" : "it has " + names.joined(separator: ", ")
            throw field.error("app '\(bundle)' has no onTap action '\(name)' (\(known))")
        case .system(let event):
            switch event {
            case .open(let app), .swipeAway(let app), .setAppBackgroundAppRefresh(let app, _),
                .setContinuedProcessing(let app, _), .setMemoryFootprint(let app, _),
                .simulateLaunch(let app, _),
                .simulateExpiration(let app, _), .processExited(let app, _),
                .cancelContinuedProcessingTask(let app, _), .answerContinuedProcessingQuestion(let app, _, _),
                .backgroundPush(let app, _), .locationEvent(let app, _), .notificationShown(let app),
                .notificationTapped(let app, _):
                try checkKnown(app, apps: apps, at: field)
            default:
                return
            }
        }
    }

    /// Seconds as people write them: `7h 5m`, `90.5s`, `0s`.
    static func describe(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds <= Quantities.maximumSeconds else {
            return "\(seconds)s"
        }
        var rest = seconds
        var parts: [String] = []
        for (unit, size) in [("d", 86_400.0), ("h", 3_600), ("m", 60)] where rest >= size {
            let count = (rest / size).rounded(.down)
            parts.append("\(Int(count))\(unit)")
            rest -= count * size
        }
        if rest > 0 || parts.isEmpty {
            parts.append(rest == rest.rounded() ? "\(Int(rest))s" : "\(rest)s")
        }
        return parts.joined(separator: " ")
    }
}

// MARK: - Walking the YAML

/// A YAML node with its path in the scenario (`apps[0].memory`): every reader of a value
/// fails with an error naming the file, the node's line and that path.
struct Field {
    let node: Node
    let path: String
    let source: String

    /// The node's 1-based line (Yams's marks start at 1).
    var line: Int? { node.mark?.line }

    func error(_ message: String) -> ScenarioError {
        ScenarioError(source: source, line: line, field: path.isEmpty ? nil : path, message: message)
    }

    /// "expected a size like 120MB, got "lots"".
    func expected(_ what: String) -> ScenarioError {
        error("expected \(what), got \(got)")
    }

    /// The value as an error message shows it.
    var got: String {
        switch node {
        case .scalar(let scalar): isNull ? "nothing" : "\"\(scalar.string)\""
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// Whether the value is empty or `~`/`null`, written plain.
    var isNull: Bool {
        guard case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any else {
            return false
        }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// The text of a scalar that is not null.
    var scalarText: String? {
        guard case .scalar(let scalar) = node, !isNull else { return nil }
        return scalar.string
    }

    func child(_ key: String, _ node: Node) -> Field {
        Field(node: node, path: path.isEmpty ? key : "\(path).\(key)", source: source)
    }

    func string() throws(ScenarioError) -> String {
        guard let text = scalarText, !text.trimmingSpaces.isEmpty else {
            throw expected("a non-empty string")
        }
        return text
    }

    func bool() throws(ScenarioError) -> Bool {
        switch scalarText?.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw expected("true or false")
        }
    }

    /// A scalar read by one of the `Quantities` parsers; `hint` says what it looks like. A value written well but
    /// too large (its number read as 1 would do) is called too large, not malformed.
    func quantity<Value>(_ parse: (String) -> Value?, _ hint: String) throws(ScenarioError) -> Value {
        guard let text = scalarText else { throw expected(hint) }
        if let value = parse(text) { return value }
        let digits = text.trimmingSpaces.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        if let number = Double(digits), number > 1000, parse("1" + text.trimmingSpaces.dropFirst(digits.count)) != nil {
            throw error("\(got) is too large (expected \(hint))")
        }
        throw expected(hint)
    }

    /// A scalar that must be one of the options' names.
    func choice<Value>(_ options: [(String, Value)]) throws(ScenarioError) -> Value {
        if let text = scalarText?.trimmingSpaces, let match = options.first(where: { $0.0 == text }) {
            return match.1
        }
        let names = options.map(\.0)
        let list =
            names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "")
            + (names.last ?? "")
        throw expected(list)
    }

    /// The items of a list; nothing (`key:` alone) is an empty list.
    func list(expecting what: String) throws(ScenarioError) -> [Field] {
        if isNull { return [] }
        guard case .sequence(let sequence) = node else { throw expected(what) }
        return sequence.enumerated().map { index, item in
            Field(node: item, path: "\(path)[\(index)]", source: source)
        }
    }

    /// The entries of a mapping, whose keys must be among `keys` (any key when nil); nothing is empty.
    func table(_ keys: [String]?, expecting what: String) throws(ScenarioError) -> Table {
        if isNull { return Table(owner: self, entries: []) }
        guard case .mapping(let mapping) = node else { throw expected(what) }
        var entries: [Table.Entry] = []
        for (keyNode, value) in mapping {
            let keyField = Field(node: keyNode, path: path, source: source)
            guard let key = keyField.scalarText else { throw keyField.expected("a key (a plain word)") }
            let entry = Table.Entry(key: key, value: child(key, value))
            if let keys, !keys.contains(key) {
                throw ScenarioError(
                    source: source, line: keyNode.mark?.line, field: entry.value.path,
                    message: "unknown key '\(key)'; expected one of: \(keys.joined(separator: ", "))")
            }
            entries.append(entry)
        }
        return Table(owner: self, entries: entries)
    }

    /// The node at a manifest field path (`Entitlements.com.x`, `UIBackgroundModes[1]`), to point at its line.
    func locate(_ fieldPath: String) -> Field? {
        guard case .mapping(let mapping) = node else { return nil }
        let key = String(fieldPath.prefix { $0 != "." && $0 != "[" })
        func lookup(_ key: String, in mapping: Node.Mapping) -> Node? {
            mapping.first { $0.key.scalar?.string == key }?.value
        }
        guard let value = lookup(key, in: mapping) else { return nil }
        let found = child(key, value)
        let rest = fieldPath.dropFirst(key.count)
        if rest.hasPrefix("."), case .mapping(let inner) = value,
            let deeper = lookup(String(rest.dropFirst()), in: inner)
        {
            return found.child(String(rest.dropFirst()), deeper)
        }
        if rest.hasPrefix("["), rest.hasSuffix("]"), let index = Int(rest.dropFirst().dropLast()),
            case .sequence(let items) = value, items.indices.contains(index)
        {
            return Field(node: items[index], path: "\(found.path)[\(index)]", source: source)
        }
        return found
    }

    /// The node as a property-list value for `AppManifest(dictionary:)`: plain scalars by their YAML type.
    func propertyList() throws(ScenarioError) -> Any {
        switch node {
        case .scalar(let scalar):
            switch Tag.Name(rawValue: node.tag.rawValue) {
            case .bool: return bool(orText: scalar.string)
            case .int: return Int(scalar.string) ?? scalar.string
            case .float: return Double(scalar.string) ?? scalar.string
            case .null: return NSNull()
            default: return scalar.string
            }
        case .sequence:
            var array: [Any] = []
            for item in try list(expecting: "a list") { array.append(try item.propertyList()) }
            return array
        case .mapping:
            var dictionary: [String: Any] = [:]
            for entry in try table(nil, expecting: "a mapping").entries {
                dictionary[entry.key] = try entry.value.propertyList()
            }
            return dictionary
        case .alias:
            throw expected("a value")
        }
    }

    private func bool(orText text: String) -> Any {
        switch text.lowercased() {
        case "true", "yes", "on": true
        case "false", "no", "off": false
        default: text
        }
    }
}

/// The entries of one YAML mapping, in file order, each a `Field`.
struct Table {
    struct Entry {
        let key: String
        let value: Field
    }

    let owner: Field
    let entries: [Entry]

    subscript(key: String) -> Field? {
        entries.first { $0.key == key }?.value
    }

    /// The value of a key that must be there; its absence is reported at the mapping's line.
    func required(_ key: String) throws(ScenarioError) -> Field {
        if let value = self[key] { return value }
        let path = owner.path.isEmpty ? key : "\(owner.path).\(key)"
        throw ScenarioError(source: owner.source, line: owner.line, field: path, message: "is required")
    }
}
