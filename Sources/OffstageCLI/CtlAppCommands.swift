import ArgumentParser
import Foundation
import OffstageCore
import OffstageProtocol
import OffstageSimulator

/// `ctl install PATH`: installs (or updates) a `Name.app` bundle folder.
struct InstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install an app bundle (a Name.app folder with Info.plist and its executable).")
    @OptionGroup var daemon: DaemonAddress
    @Argument(help: "The bundle folder.") var path: String

    func run() throws {
        var absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        while absolute.count > 1 && absolute.hasSuffix("/") { absolute.removeLast() }
        Output.print(try daemon.send(.install(path: absolute)))
    }
}

/// `ctl launch APP`: launches the app as the user would (`simctl launch`'s name for `open`).
struct LaunchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "launch", abstract: "Launch an app (same as open).")
    @OptionGroup var daemon: DaemonAddress
    @Argument(help: "Bundle identifier.") var app: String
    func run() throws { try daemon.send(.open(BundleID(app))) }
}

/// `ctl open APP`: the user taps the app's icon (or its card in the switcher).
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "open", abstract: "Open an app: it comes on screen.")
    @OptionGroup var daemon: DaemonAddress
    @Argument(help: "Bundle identifier.") var app: String
    func run() throws { try daemon.send(.open(BundleID(app))) }
}

/// `ctl swipe APP`: the user swipes the app away in the switcher: its process group is killed.
struct SwipeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "swipe", abstract: "Swipe an app away (force-quit).")
    @OptionGroup var daemon: DaemonAddress
    @Argument(help: "Bundle identifier.") var app: String
    func run() throws { try daemon.send(.swipeAway(BundleID(app))) }
}

/// `ctl tap APP ACTION`: the user taps a named control of the app on screen (e.g. ColorFeed's `export`).
struct TapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tap", abstract: "Tap a control of the app on screen.")
    @OptionGroup var daemon: DaemonAddress
    @Argument(help: "Bundle identifier.") var app: String
    @Argument(help: "The control's name.") var action: String
    func run() throws { Output.print(try daemon.send(.tap(bundle: BundleID(app), action: action))) }
}

/// `ctl push APP [PAYLOAD]`: a background push (`content-available: 1`) arrives for the app (SPEC §7).
struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push", abstract: "Send the app a background push (content-available).")
    @OptionGroup var daemon: DaemonAddress
    @Argument(help: "Bundle identifier.") var app: String
    @Argument(help: "The push's payload, handed to the app's delegate.") var payload = ""
    func run() throws { try daemon.send(.backgroundPush(BundleID(app), payload: payload)) }
}

/// `ctl apps`: installed apps, their state, process and resource use.
struct AppsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps", abstract: "List installed apps and their processes.")
    @OptionGroup var daemon: DaemonAddress
    func run() throws { Output.print(try daemon.send(.apps)) }

    static func table(_ apps: [AppInfo]) -> String {
        guard !apps.isEmpty else { return "no apps installed" }
        let rows = apps.map { app in
            let process = app.pid.map { "pid \($0)\(app.frozen == true ? " frozen" : "")" } ?? "-"
            let memory = app.memoryBytes > 0 ? String(format: "%.1f MB", Double(app.memoryBytes) / 1e6) : "-"
            return [
                app.bundle.rawValue, app.state.rawValue + (app.forceQuit ? " (swiped away)" : ""), process,
                String(format: "%.2f s CPU", app.cpuSeconds), memory, app.usageTier, "\(app.launches)",
                Figures.percent(app.cooperation), String(format: "%.1f J", app.energyJoules),
            ]
        }
        return Table.render(
            header: ["APP", "STATE", "PROCESS", "CPU", "MEMORY", "TIER", "OPENS", "COOPERATION", "ENERGY"], rows: rows)
    }
}

/// Left-aligned columns, two spaces apart.
enum Table {
    static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
