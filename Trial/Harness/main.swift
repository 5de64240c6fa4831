import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator

// `offstage-trial SCENARIO.yaml`: runs the real background code compiled into this executable (the Swift files in
// `Trial/Apps/`, imports unchanged: the target maps Apple's framework names onto Offstage's modules) in a scenario
// whose apps name their delegate class in `code:` (`RealCodeTrial.AppDelegate`). It prints the records, then one
// verdict line per app, and exits 0 when no app crashed or was killed, 1 when one was, 2 on bad input.

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

/// One line per app that runs code: tasks completed, completion handlers called (legacy fetch, pushes, background
/// sessions), tasks expired, crashes and kills, from the records.
func verdicts(_ records: [Record], apps: [ScenarioApp]) -> (lines: [String], clean: Bool) {
    var clean = true
    let lines = apps.filter { $0.code != nil }.map { app in
        let own = records.filter { $0.app == app.manifest.bundleIdentifier }
        let count = { (kind: RecordKind) in own.filter { $0.kind == kind }.count }
        if count(.crashed) + count(.killed) > 0 { clean = false }
        return "\(app.manifest.bundleIdentifier): \(count(.completed)) completed, \(count(.handled)) handled, "
            + "\(count(.expired)) expired, "
            + "\(count(.crashed)) crashed, \(count(.killed)) killed"
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
    let records = try Simulation(scenario: scenario, catalog: try catalog(for: scenario)).run()
    print(RunReport(scenario: scenario, records: records, pendingAtEnd: []).timeline(verbose: true))
    let (lines, clean) = verdicts(records, apps: scenario.apps)
    for line in lines { print(line) }
    exit(clean ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
