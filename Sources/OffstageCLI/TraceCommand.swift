import ArgumentParser
import Foundation
import OffstageSimulator

/// `offstage trace`: usage traces; `offstage trace generate` makes a synthetic one.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace", abstract: "Work with usage traces (CSV; see docs/traces.md).",
        subcommands: [GenerateTraceCommand.self, TraceStatsCommand.self, ImportTraceCommand.self])
}

/// `offstage trace generate --users N --days D --apps A --seed S [-o FILE]`: a synthetic trace from the
/// model documented in docs/traces.md, the same for the same arguments.
struct GenerateTraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract:
            "Make a synthetic usage trace (daily rhythm, popularity, habits, re-opens, glances, notifications, charging); with -o, print its statistics."
    )

    @Option(help: "Users in the trace.") var users = 5
    @Option(help: "Days per user.") var days = 14
    @Option(help: "Apps on the phones (at least 1).") var apps = 74
    @Option(help: "The seed every draw comes from.") var seed: UInt64 = 1
    // The model's numbers; each left out keeps `TraceModel`'s default (docs/traces.md lists them).
    @Option(help: "Exponent of the apps' Zipf-like popularity (0-4).") var popularityExponent: Double?
    @Option(help: "Mean random sessions with an app on a weekday.") var sessionsPerDay: Double?
    @Option(help: "Chance of going on to one more app within a session (0-1).") var nextAppChance: Double?
    @Option(help: "Chance the phone is put on the charger at bedtime (0-1).") var nightlyChargeChance: Double?
    @Option(help: "Chance of coming back to a session's last app within 15 min (0-1).") var reopenChance: Double?
    @Option(help: "Share of in-session next apps drawn from the app's usual successors (0-1).")
    var transitionShare: Double?
    @Option(help: "Mean screen sessions without an app per day.") var glancesPerDay: Double?
    @Option(help: "Mean notifications per day.") var notificationsPerDay: Double?
    @Option(help: "Chance a notification is opened (0-1).") var notificationOpenChance: Double?
    @Option(help: "Share of users who also charge at work on weekdays (0-1).") var daytimeChargerShare: Double?
    @Option(help: "Median seconds from the screen lighting to a session's first app (0-20).")
    var screenToAppGap: Double?
    @Option(name: [.short, .long], help: "Write the CSV here instead of to standard output.") var output: String?

    /// The model the options describe (their defaults are `TraceModel`'s).
    var model: TraceModel {
        var model = TraceModel(users: users, days: days, apps: apps, seed: seed)
        model.popularityExponent = popularityExponent ?? model.popularityExponent
        model.sessionsPerWeekday = sessionsPerDay ?? model.sessionsPerWeekday
        model.nextAppChance = nextAppChance ?? model.nextAppChance
        model.nightlyChargeChance = nightlyChargeChance ?? model.nightlyChargeChance
        model.reopenChance = reopenChance ?? model.reopenChance
        model.transitionShare = transitionShare ?? model.transitionShare
        model.glancesPerDay = glancesPerDay ?? model.glancesPerDay
        model.notificationsPerDay = notificationsPerDay ?? model.notificationsPerDay
        model.notificationOpenChance = notificationOpenChance ?? model.notificationOpenChance
        model.daytimeChargerShare = daytimeChargerShare ?? model.daytimeChargerShare
        model.screenToAppMedianGap = screenToAppGap ?? model.screenToAppMedianGap
        return model
    }

    func validate() throws {
        for (name, value, limit) in [("--users", users, 100_000), ("--days", days, 3650), ("--apps", apps, 1000)]
        where !(1...limit).contains(value) {
            throw ValidationError("\(name): expected a whole number from 1 to \(limit), got \(value)")
        }
        for (name, value, limit) in [
            ("--popularity-exponent", popularityExponent, 4), ("--sessions-per-day", sessionsPerDay, 200),
            ("--next-app-chance", nextAppChance, 1), ("--nightly-charge-chance", nightlyChargeChance, 1),
            ("--reopen-chance", reopenChance, 1), ("--transition-share", transitionShare, 1),
            ("--glances-per-day", glancesPerDay, 200), ("--notifications-per-day", notificationsPerDay, 500),
            ("--notification-open-chance", notificationOpenChance, 1),
            ("--daytime-charger-share", daytimeChargerShare, 1), ("--screen-to-app-gap", screenToAppGap, 20),
        ] {
            guard let value, !(0...Double(limit)).contains(value) else { continue }
            throw ValidationError("\(name): expected a number from 0 to \(limit), got \(value)")
        }
        try output.map { OutputFile(option: "-o", path: $0) }?.check()
    }

    func run() throws {
        let trace = TraceGenerator.generate(model)
        let csv = trace.csv()
        guard let output else { return Console.print(csv, terminator: "") }
        try OutputFile(option: "-o", path: output).write(Data(csv.utf8))
        Console.print(
            "Trace written to \(output): \(RunReport.count(users, "user", "users")), "
                + "\(RunReport.count(days, "day", "days")), \(RunReport.count(apps, "app", "apps")), "
                + "\(RunReport.count(trace.events.count, "event", "events")) "
                + "(replay it with `offstage evaluate --trace \(output)`)")
        Console.print(TraceStatistics(trace).text(source: output))
    }
}

/// `offstage trace stats FILE`: what a trace holds (launches a day, re-opens, sessions, apps per session,
/// charging hours), to compare a generated trace with real usage.
struct TraceStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Print a usage trace's statistics: launches a day, re-opens, sessions, charging.")

    @Argument(help: "The usage trace (CSV; see docs/traces.md).") var file: String

    func run() throws {
        let trace: UsageTrace
        do {
            trace = try TraceLoader.load(contentsOf: file)
        } catch {
            throw CLIError("\(error)")
        }
        Console.print(TraceStatistics(trace).text(source: file))
    }
}

/// `offstage trace import --layout lsapp|episodes FILE [-o OUT]`: a public dataset's layout as a trace.
struct ImportTraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Convert a dataset (LSApp's TSV, or start/end episodes) into a usage trace.")

    @Option(
        help:
            "The file's layout: lsapp (user_id, session_id, timestamp, app_name, event_type; tab-separated) or episodes (user,app,start,end)."
    )
    var layout: String
    @Option(help: "The zone of times written without one, like +01:00 (default Z).") var utcOffset = "Z"
    @Argument(help: "The dataset's file.") var file: String
    @Option(name: [.short, .long], help: "Write the CSV here instead of to standard output.") var output: String?

    func run() throws {
        guard let layout = TraceImporter.Layout(rawValue: layout) else {
            throw ValidationError("--layout: expected lsapp or episodes, got \"\(layout)\"")
        }
        guard let offset = TraceImporter.utcOffset(utcOffset) else {
            throw ValidationError("--utc-offset: expected a zone like +01:00, -05:00 or Z, got \"\(utcOffset)\"")
        }
        try output.map { OutputFile(option: "-o", path: $0) }?.check()
        let csv: String
        do {
            csv = try TraceImporter.load(contentsOf: file, layout: layout, utcOffset: offset).csv()
        } catch {
            throw CLIError("\(error)")
        }
        guard let output else { return Console.print(csv, terminator: "") }
        try OutputFile(option: "-o", path: output).write(Data(csv.utf8))
        Console.print("Trace written to \(output) (see it with `offstage trace stats \(output)`)")
    }
}
