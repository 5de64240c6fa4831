import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator

// `offstage-trial SCENARIO.yaml`: runs the real background code compiled into this executable (the Swift files in
// `Trial/Apps/`, imports unchanged: the target maps Apple's framework names onto Offstage's modules) in a scenario
// whose apps name their delegate class in `code:` (`RealCodeTrial.AppDelegate`). It prints the records, then one
// verdict line per app, and exits 0 when no app crashed or was killed (by the watchdog or a resource limit) and the
// run did not stall, 1 otherwise, 2 on bad input.

/// Makes a catalog of the delegates the scenario's apps name, or says which app names no delegate class.
func catalog(for scenario: Scenario) throws(ScenarioError) -> SwiftAppCatalog {
    var apps: [String: @MainActor @Sendable () -> any UIApplicationDelegate] = [:]
    for (index, app) in scenario.apps.enumerated() {
        guard let code = app.code else { continue }
        do {
            let make = try OffstageApplication.delegateMaker(className: code)
            nonisolated(unsafe) let unsafeMake = make
            apps[code] = { unsafeMake() }
        } catch {
            throw ScenarioError(
                source: scenario.source, line: nil, field: "apps[\(index)].code",
                message: "\(error.description); the classes are those of Trial/Apps (RealCodeTrial.ClassName)")
        }
    }
    return SwiftAppCatalog(apps)
}

/// Whether a record ends the app's process for the app's own fault: a watchdog (a callback, a background task or a
/// completion handler overran its time) or a resource limit; the user's swipe, jetsam and a shutdown are not.
func isKill(_ record: Record) -> Bool {
    guard case .terminated(_, let reason) = record.detail else { return false }
    switch reason {
    case .watchdog, .resourceLimit: return true
    case .userForceQuit, .memoryPressure, .crash, .exited, .deviceShutdown: return false
    }
}

/// One line per app that runs code: tasks completed, completion handlers called (legacy fetch, pushes, background
/// sessions), tasks expired, crashes and kills (processes the watchdog or a resource limit ended), from the records.
func verdicts(_ records: [Record], apps: [ScenarioApp]) -> (lines: [String], clean: Bool) {
    var clean = true
    let lines = apps.filter { $0.code != nil }.map { app in
        let own = records.filter { $0.app == app.manifest.bundleIdentifier }
        let count = { (kind: RecordKind) in own.filter { $0.kind == kind }.count }
        let kills = own.filter(isKill).count
        if count(.crashed) + kills > 0 { clean = false }
        return "\(app.manifest.bundleIdentifier): \(count(.completed)) completed, \(count(.handled)) handled, "
            + "\(count(.expired)) expired, \(count(.crashed)) crashed, \(kills) killed"
    }
    return (lines, clean)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let path = arguments.first else {
    FileHandle.standardError.write(Data("usage: offstage-trial SCENARIO.yaml\n".utf8))
    exit(2)
}
do {
    let scenario = try ScenarioLoader.load(contentsOf: path)
    let simulation = try Simulation(scenario: scenario, catalog: try catalog(for: scenario))
    let records = simulation.run()
    print(RunReport(scenario: scenario, records: records, pendingAtEnd: []).timeline(verbose: true))
    let (lines, clean) = verdicts(records, apps: scenario.apps)
    for line in lines { print(line) }
    // A run that stalled stopped early: its work did not complete.
    if let stall = simulation.stall { print("\(scenario.source): \(stall)") }
    exit(clean && simulation.stall == nil ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
