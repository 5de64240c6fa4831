// `swift run colorfeed`: ColorFeed alone in the simulator — its Info.plist read as an iOS project
// ships it, the user opens it, confirms an export, leaves, locks the phone and charges it.
// `offstage daemon` runs the same app code as a real process from `colorfeed-app` (ColorFeedDaemonApp).
import ColorFeed
import Foundation
import OffstageCore
import OffstageKit
import OffstageSimulator

let manifest: AppManifest
do {
    manifest = try AppManifest(plist: Data(ColorFeed.infoPlist), source: "ColorFeed-Info.plist")
} catch {
    FileHandle.standardError.write(Data("colorfeed: \(error)\n".utf8))
    exit(1)
}

let app = BundleID(ColorFeed.bundleIdentifier)
var device = DeviceState()
device.batteryLevel = 0.6
let scenario = Scenario(
    name: "ColorFeed on its own", source: "colorfeed", device: device,
    apps: [ScenarioApp(manifest: manifest, code: "ColorFeed")],
    timeline: [
        TimelineEntry(at: 60, action: .system(.open(app))),
        TimelineEntry(at: 120, action: .tap(app, action: "export")),
        TimelineEntry(at: 180, action: .system(.home)),
        TimelineEntry(at: 240, action: .system(.lock)),
        TimelineEntry(at: 3 * 3600, action: .system(.setBattery(level: 0.6, charging: true))),
    ],
    duration: 6 * 3600)

do {
    let simulation = try Simulation(
        scenario: scenario, catalog: SwiftAppCatalog(["ColorFeed": { ColorFeed.makeDelegate() }]))
    let report = simulation.report()
    print(report.timeline(verbose: CommandLine.arguments.contains("--verbose")))
    print("")
    print(report.summary())
} catch {
    FileHandle.standardError.write(Data("colorfeed: \(error)\n".utf8))
    exit(1)
}
