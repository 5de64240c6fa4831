import Foundation
import OffstageCore
import OffstageProtocol
import Testing

/// `offstage ctl` commands of §7 and §6 run as a user runs them (the `offstage` binary against a real daemon
/// and real app processes): background pushes, and the user in the progress UI of `ctl watch`.
@Suite(.serialized) struct DaemonCtlTests {
    static let colorFeed = "com.colorfeed.wwdc25"
    static let export = "com.colorfeed.wwdc25.userTask"

    @Test func ctlPushWakesTheSuspendedAppAndItsHandlerRuns() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.pushed", modes: ["fetch", "processing", "remote-notification"])
        let pid = try daemon.openAndWait("test.pushed")
        try daemon.send(.home)
        try daemon.waitUntil("the app is suspended and frozen") {
            let app = try daemon.app("test.pushed")
            return app?.state == .suspended && app?.frozen == true
        }
        try daemon.ctl(["push", "test.pushed", "new-mail"])
        try daemon.waitUntil("the app's delegate received the push") {
            daemon.events("test.pushed").contains("push received new-mail")
        }
        try daemon.waitUntil("the app is frozen again after the completion handler") {
            let app = try daemon.app("test.pushed")
            return app?.state == .suspended && app?.frozen == true && app?.pid == pid
        }
    }

    @Test func ctlPushForAnAppThatIsNotInstalledIsAnError() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        let output = try daemon.ctl(["push", "test.nobody", "x"])
        #expect(output.contains("test.nobody is not installed"))
    }

    /// A tap names a control the app declares (`OffstageControls`): any other is an error naming the control and
    /// the app's controls.
    @Test func ctlTapOnAControlTheAppDoesNotHaveFailsNamingItsControls() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.installColorFeed()
        _ = try daemon.openAndWait(Self.colorFeed)
        let (output, status) = try daemon.ctlExiting(["tap", Self.colorFeed, "nosuchbutton"])
        #expect(status != 0)
        #expect(output.contains("\(Self.colorFeed) has no control 'nosuchbutton'; its controls: export"))
        #expect(try daemon.ctlExiting(["tap", Self.colorFeed, "export"]).status == 0)
        try daemon.install("test.plain")
        _ = try daemon.openAndWait("test.plain")
        let undeclared = try daemon.ctlExiting(["tap", "test.plain", "export"])
        #expect(undeclared.status != 0)
        #expect(undeclared.output.contains("test.plain has no control 'export': it declares no controls"))
    }

    /// Starts ColorFeed's export (a continued-processing task) and waits until it reports progress.
    static func exporting(_ daemon: DaemonHarness) throws {
        try daemon.installColorFeed()
        _ = try daemon.openAndWait(colorFeed)
        try daemon.control(.tap(bundle: BundleID(colorFeed), action: "export"))
        try daemon.waitUntil("the export reports progress", timeout: 15) {
            try daemon.ctl(["watch", "--once"]).contains("(1/100)")
        }
    }

    @Test func ctlCancelTaskEndsTheExportAndWatchShowsTheOutcome() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try Self.exporting(daemon)
        try daemon.ctl(["cancel-task", Self.colorFeed, Self.export])
        try daemon.waitUntil("the progress UI shows the user's cancel") {
            try daemon.ctl(["watch", "--once"]).contains("cancelled by the user")
        }
        #expect(try daemon.decisions(Self.colorFeed).contains { $0.hasPrefix("user: cancel in the progress UI") })
        #expect(try !daemon.tasks().contains { $0.identifier == Self.export })
    }

    @Test func watchShowsTheSystemsQuestionAndCtlAnswerStopEndsTheTask() throws {
        // ColorFeed's export takes 300 s: beyond a 20 s limit, the system asks the user.
        let daemon = try DaemonHarness(freezer: defaultFreezer, policy: ["continuedProcessingSlowLimit=20"])
        try Self.exporting(daemon)
        try daemon.waitUntil("watch shows the question", timeout: 15) {
            try daemon.ctl(["watch", "--once"]).contains("Continue?  (y: continue, n: stop)")
        }
        try daemon.ctl(["answer", Self.colorFeed, Self.export, "stop"])
        try daemon.waitUntil("the task has ended") { try !daemon.tasks().contains { $0.identifier == Self.export } }
        #expect(try daemon.decisions(Self.colorFeed).contains { $0.contains("the user chose to stop") })
    }

    @Test func ctlAnswerWithoutAQuestionOnlyLogs() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try Self.exporting(daemon)
        let output = try daemon.ctl(["answer", Self.colorFeed, Self.export, "stop"])
        #expect(output.contains("no question is pending"))
        #expect(try daemon.tasks().contains { $0.identifier == Self.export && $0.phase == "running" })
    }

    @Test func reportedGPUWorkIsChargedAndReportedCPUIsLeftToTheDaemonsOwnMeasure() throws {
        let daemon = try DaemonHarness(freezer: defaultFreezer)
        try daemon.install("test.reporter", behaviours: ["report"])
        _ = try daemon.openAndWait("test.reporter")
        try daemon.waitUntil("the app reported its work") { daemon.events("test.reporter").contains("reported work") }
        let gpuJoules = PowerModel().gpuWatts * 1000
        try daemon.waitUntil("the GPU time is charged to the app") {
            try (daemon.app("test.reporter")?.energyJoules ?? 0) >= gpuJoules
        }
        // The reported CPU second is not added to what the daemon measured (an idle app: far below 1 s).
        #expect(try (daemon.app("test.reporter")?.cpuSeconds ?? 1) < 1)
    }
}
